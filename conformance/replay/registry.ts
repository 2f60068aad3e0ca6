// `relay-conformance replay <file>…` dispatches on each file's `schema` field. Other parts (goldens) plug in here:
// append a handler to REPLAY_HANDLERS; a handler with `replaysAll` also serves a bare `replay` with no files.
import type { OptionTable } from "../cli/options.ts";
import type { ReplayHandler } from "./replay-handler.ts";
import { counterexampleReplay } from "./counterexample-replay.ts";
import { goldenReplay } from "../goldens/golden-replay-handler.ts";

export const REPLAY_HANDLERS: ReplayHandler[] = [counterexampleReplay, goldenReplay];

/** Every replayer's options together, plus -h/--help. */
export function replayOptionTable(): OptionTable {
  return Object.assign({ help: { type: "boolean", short: "h" } }, ...REPLAY_HANDLERS.map((h) => h.options)) as OptionTable;
}

/** The handler for a schema value, if any. */
export function replayHandlerFor(schema: unknown): ReplayHandler | undefined {
  return typeof schema === "string" ? REPLAY_HANDLERS.find((h) => h.schemas.includes(schema)) : undefined;
}
