// `relay-conformance replay <file>…` dispatches on each file's `schema` field. Other parts (goldens) plug in here:
// append a handler to REPLAY_HANDLERS; a handler with `replaysAll` also serves a bare `replay` with no files.
import { HELP_OPTION, type OptionSpec, type OptionTable } from "../cli/options.ts";
import type { ReplayHandler } from "./replay-handler.ts";
import { counterexampleReplay } from "./counterexample-replay.ts";
import { goldenReplay } from "./golden-replay-handler.ts";

export const REPLAY_HANDLERS: ReplayHandler[] = [counterexampleReplay, goldenReplay];

/** Every replayer's options together, plus -h/--help; an option two replayers read gets both their descriptions. */
export function replayOptionTable(): OptionTable {
  const table: Record<string, OptionSpec> = {};
  for (const handler of REPLAY_HANDLERS) {
    for (const [name, spec] of Object.entries(handler.options)) {
      const known = table[name];
      table[name] =
        known === undefined || known.description === spec.description
          ? spec
          : { ...known, description: `${known.description}; ${spec.description}` };
    }
  }
  return { ...table, help: HELP_OPTION };
}

/** The handler for a schema value, if any. */
export function replayHandlerFor(schema: unknown): ReplayHandler | undefined {
  return typeof schema === "string" ? REPLAY_HANDLERS.find((h) => h.schemas.includes(schema)) : undefined;
}
