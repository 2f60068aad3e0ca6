import { spawn } from "node:child_process";

/** Bytes and exit of one directly-run program. */
export interface ProgramRun {
  readonly stdout: Buffer;
  readonly stderr: Buffer;
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly timedOut: boolean;
}

export interface ProgramOptions {
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  readonly stdin?: Buffer;
  readonly timeoutMs: number;
}

/** Runs a program without a shell in its own process group; a timeout SIGKILLs the whole group. */
export function runProgram(executable: string, argv: readonly string[], options: ProgramOptions): Promise<ProgramRun> {
  return new Promise((resolve) => {
    const child = spawn(executable, [...argv], { cwd: options.cwd, env: { ...options.env }, stdio: ["pipe", "pipe", "pipe"], detached: true, shell: false });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let timedOut = false;
    let spawnError: Error | null = null;
    child.stdout.on("data", (c: Buffer) => out.push(c));
    child.stderr.on("data", (c: Buffer) => err.push(c));
    child.stdin.on("error", () => {});
    child.stdin.end(options.stdin ?? Buffer.alloc(0));
    const timer = setTimeout(() => {
      timedOut = true;
      if (child.pid !== undefined) {
        try {
          process.kill(-child.pid, "SIGKILL");
        } catch {
          // gone
        }
      }
    }, options.timeoutMs);
    child.on("error", (error) => {
      spawnError = error;
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      const stderr = spawnError ? Buffer.concat([...err, Buffer.from(`spawn error: ${(spawnError as Error).message}\n`)]) : Buffer.concat(err);
      resolve({ stdout: Buffer.concat(out), stderr, code, signal, timedOut });
    });
  });
}
