// `relay-conformance replay <file>…` dispatches on each file's `schema` field. Other parts (goldens) plug in here:
// append a handler to REPLAY_HANDLERS; a handler with `replaysAll` also serves a bare `replay` with no files.
import type { CommandIo } from "../cli/command.ts";
import type { OptionTable } from "../cli/options.ts";
import { counterexampleReplay } from "./counterexample-replay.ts";
import { goldenReplay } from "../goldens/golden-replay-handler.ts";

export interface ReplayHandler {
  /** Exact `schema` values this handler replays. */
  readonly schemas: readonly string[];
  readonly describe: string;
  /** The options this handler reads (util.parseArgs table): `replay` splits files from options with their union. */
  readonly options: OptionTable;
  /** Re-runs one file; returns an exit code (0 reproduced-as-passing / 1 still failing / 2 bad file). */
  replay(file: string, data: unknown, args: readonly string[], io: CommandIo): Promise<number>;
  /** `replay` with no file: replay every stored item of this kind (goldens). */
  replaysAll?(args: readonly string[], io: CommandIo): Promise<number>;
}

export const REPLAY_HANDLERS: ReplayHandler[] = [counterexampleReplay, goldenReplay];

/** Every replayer's options together, plus -h/--help. */
export function replayOptionTable(): OptionTable {
  return Object.assign({ help: { type: "boolean", short: "h" } }, ...REPLAY_HANDLERS.map((h) => h.options)) as OptionTable;
}

/** The handler for a schema value, if any. */
export function replayHandlerFor(schema: unknown): ReplayHandler | undefined {
  return typeof schema === "string" ? REPLAY_HANDLERS.find((h) => h.schemas.includes(schema)) : undefined;
}
