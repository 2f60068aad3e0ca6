import { spawn } from "node:child_process";
import { killGroup as killProcessGroup } from "./process-tree.ts";
import { trackProcessGroup } from "./teardown.ts";

/** Bytes and exit of one finished child process. */
export interface GroupRun {
  readonly stdout: Buffer;
  readonly stderr: Buffer;
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly timedOut: boolean;
}

/** How to run one program: its stdin gets `stdin` (or nothing) and is closed at once. */
export interface GroupOptions {
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly stdin?: Buffer;
  readonly timeoutMs: number;
}

/**
 * Runs a program without a shell as the leader of its own process group, collecting raw bytes. A timeout SIGKILLs
 * the whole group, and so does the end of the leader, so no grandchild outlives the call; an interruption of the
 * command kills it too (runner/teardown.ts). Rejects only when the program could not start.
 */
export function runInOwnGroup(executable: string, argv: readonly string[], options: GroupOptions): Promise<GroupRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(executable, [...argv], {
      cwd: options.cwd,
      env: options.env as NodeJS.ProcessEnv,
      stdio: ["pipe", "pipe", "pipe"],
      shell: false,
      detached: true,
    });
    const untrack = trackProcessGroup(child.pid);
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let timedOut = false;
    const killGroup = (): void => void killProcessGroup(child.pid);
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, options.timeoutMs);
    child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => err.push(chunk));
    // A child that exits without reading its stdin must not turn into an EPIPE here.
    child.stdin.on("error", () => undefined);
    child.stdin.end(options.stdin ?? Buffer.alloc(0));
    child.on("error", (error) => {
      clearTimeout(timer);
      untrack();
      reject(error);
    });
    child.on("close", (exitCode, signal) => {
      clearTimeout(timer);
      killGroup();
      untrack();
      resolve({ stdout: Buffer.concat(out), stderr: Buffer.concat(err), exitCode, signal, timedOut });
    });
  });
}
