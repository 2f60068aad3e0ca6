// The CLI process's guards, shared by every command: SIGINT/SIGTERM end the command after tearing down its temp
// folders and child processes (conformance/runner/teardown.ts).
import { teardownNow } from "../runner/teardown.ts";

/** Exit codes: 128 + signal number, as shells report them. */
export const SIGNAL_EXIT = { SIGINT: 130, SIGTERM: 143 } as const;

let installed = false;
let ending = false;

type Summary = ReturnType<typeof teardownNow>;

function end(code: number, message: (done: Summary) => string): never {
  ending = true;
  const done = teardownNow();
  try {
    process.stderr.write(message(done));
  } catch {
    // stderr is gone.
  }
  process.exit(code);
}

/**
 * Installs the guards for one CLI invocation (`command` names it in the interruption line). Idempotent.
 * SIGINT / SIGTERM: teardown, one line on stderr, exit 130 / 143.
 */
export function installProcessGuards(command: string | undefined): void {
  if (installed) return;
  installed = true;
  const name = command === undefined ? "relay-conformance" : `relay-conformance ${command}`;
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, () => {
      if (ending) return;
      end(SIGNAL_EXIT[signal], (done) => {
        const processes = `${done.processes} child process${done.processes === 1 ? "" : "es"}`;
        const folders = `${done.tempDirs} temp folder${done.tempDirs === 1 ? "" : "s"}`;
        return `${name}: interrupted by ${signal}; stopped ${processes}, removed ${folders}\n`;
      });
    });
  }
}
