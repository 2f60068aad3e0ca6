// `relay-conformance repro`: issue reproductions as one-command scenarios (see conformance/repro/).
import type { Command } from "../command.ts";
import { REPRO_USAGE, reproCommand } from "../../repro/command.ts";

export const reproCliCommand: Command = {
  name: "repro",
  summary: "run an issue reproduction (golden/repro/*.txtar) step by step; --list shows the shipped ones",
  usage: `${REPRO_USAGE}\n`,
  run(args, io) {
    // `repro 279 | head` closes stdout early: keep running (quietly) so every sandbox and child is cleaned up.
    let closed = false;
    const onError = (e: NodeJS.ErrnoException): void => {
      if (e.code !== "EPIPE") throw e;
      closed = true;
    };
    process.stdout.on("error", onError);
    return reproCommand(args, {
      out: (l) => {
        if (!closed) io.stdout(`${l}\n`);
      },
      err: (l) => io.stderr(`${l}\n`),
      cwd: io.cwd,
    }).finally(() => process.stdout.off("error", onError));
  },
};
