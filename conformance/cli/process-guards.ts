// The CLI process's guards, shared by every command: a closed reader (EPIPE) and SIGINT/SIGTERM end the command
// after tearing down its temp folders and child processes (conformance/process/teardown.ts).
import { teardownNow } from "../process/teardown.ts";

/** Exit codes: 128 + signal number, as shells report them. */
export const SIGNAL_EXIT = { SIGINT: 130, SIGTERM: 143, SIGPIPE: 141 } as const;

let installed = false;
let ending = false;

/** False once stderr's reader is gone. */
let stderrOpen = true;

type Summary = ReturnType<typeof teardownNow>;

function end(code: number, message: ((done: Summary) => string) | null): never {
  ending = true;
  const done = teardownNow();
  if (message !== null && stderrOpen) {
    try {
      process.stderr.write(message(done));
    } catch {
      // stderr is gone too.
    }
  }
  process.exit(code);
}

/**
 * Installs the guards for one CLI invocation (`command` names it in the interruption line). Idempotent.
 * - EPIPE on stdout (`relay-conformance run | head -3`): quiet teardown, exit 141 (like SIGPIPE).
 * - EPIPE on stderr: stderr output is dropped, the command goes on.
 * - SIGINT / SIGTERM: teardown, one line on stderr, exit 130 / 143.
 */
export function installProcessGuards(command: string | undefined): void {
  if (installed) return;
  installed = true;
  const name = command === undefined ? "relay-conformance" : `relay-conformance ${command}`;
  process.stdout.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE") throw error;
    if (!ending) end(SIGNAL_EXIT.SIGPIPE, null);
  });
  process.stderr.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE") throw error;
    stderrOpen = false;
  });
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

/** How long the process may live on after its command returned before the watchdog reports and ends it. */
export const EXIT_GRACE_MS = 1000;

/**
 * After the command returned (reports written), nothing of the harness may keep the process alive. Every handle is
 * closed by then, so this unref'd timer never fires and costs nothing; should a leak ever creep in, it names what is
 * still open on stderr and exits with the command's code instead of hanging a CI job.
 */
export function watchExit(code: number): void {
  setTimeout(() => {
    if (ending) return;
    const open = process.getActiveResourcesInfo().filter((r) => r !== "TTYWrap");
    end(
      code,
      (done) =>
        `relay-conformance: internal error: still running ${EXIT_GRACE_MS}ms after the verdict (open: ${open.join(", ") || "nothing named"}; stopped ${done.processes} child processes); exiting\n`,
    );
  }, EXIT_GRACE_MS).unref();
}
