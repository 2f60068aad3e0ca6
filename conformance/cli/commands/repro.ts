// `relay-conformance repro`: issue reproductions as one-command scenarios (see conformance/repro/).
import type { Command } from "../command.ts";
import { REPRO_USAGE, reproCommand } from "../../repro/command.ts";

export const reproCliCommand: Command = {
  name: "repro",
  summary: "run an issue reproduction (golden/repro/*.txtar) step by step; --list shows the shipped ones",
  usage: `${REPRO_USAGE}\n`,
  run(args, io) {
    // `repro 279 | head` (EPIPE) and signals are handled for every command by cli/process-guards.ts.
    return reproCommand(args, { out: (l) => io.stdout(`${l}\n`), err: (l) => io.stderr(`${l}\n`), cwd: io.cwd });
  },
};
