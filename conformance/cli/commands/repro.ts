// `relay-conformance repro`: issue reproductions as one-command scenarios (see conformance/repro/).
import { REPRO_USAGE, reproCommand, type CommandIo } from "../../repro/command.ts";

export const name = "repro";
export const summary = "run an issue reproduction (golden/repro/*.txtar) step by step; --list shows them";
export const usage = REPRO_USAGE;

/** Runs the command; resolves to the exit code (0 as documented, 1 mismatch, 2 bad input). */
export function run(argv: readonly string[], io: CommandIo): Promise<number> {
  return reproCommand(argv, io);
}
