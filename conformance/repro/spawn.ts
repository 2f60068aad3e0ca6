import { spawn } from "node:child_process";

/** The full answer of one child process. */
export interface ChildAnswer {
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly stdout: Buffer;
  readonly stderr: Buffer;
  readonly timedOut: boolean;
}

/**
 * Runs one program (shell: false) and collects raw bytes. The child leads its own process group so a
 * timeout kills the whole tree, never leaving a grandchild behind.
 */
export function runChild(
  executable: string,
  argv: readonly string[],
  options: { cwd: string; env: Readonly<Record<string, string | undefined>>; stdin?: Buffer; timeoutMs?: number },
): Promise<ChildAnswer> {
  return new Promise((resolve, reject) => {
    const child = spawn(executable, [...argv], {
      cwd: options.cwd,
      env: options.env as NodeJS.ProcessEnv,
      stdio: ["pipe", "pipe", "pipe"],
      shell: false,
      detached: true,
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let timedOut = false;
    const killTree = (): void => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
      } catch {
        // Already gone.
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killTree();
    }, options.timeoutMs ?? 60_000);
    child.stdout.on("data", (b: Buffer) => out.push(b));
    child.stderr.on("data", (b: Buffer) => err.push(b));
    child.stdin.on("error", () => undefined);
    child.stdin.end(options.stdin ?? Buffer.alloc(0));
    child.on("error", (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      // A grandchild may still hold the group: reap it too.
      killTree();
      resolve({ exitCode: code, signal, stdout: Buffer.concat(out), stderr: Buffer.concat(err), timedOut });
    });
  });
}
