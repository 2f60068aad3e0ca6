import { spawn } from "node:child_process";

const CALL_TIMEOUT_MS = 60_000;

/** One finished probe call. */
export interface ProbeCall {
  readonly argv: readonly string[];
  readonly stdout: Buffer;
  readonly stderr: Buffer;
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly timedOut: boolean;
}

/** Runs the binary once (no shell, own process group killed on timeout); stdin gets `input` or is closed. */
export function runBinary(binary: string, argv: readonly string[], options: { cwd: string; env: NodeJS.ProcessEnv; input?: Buffer }): Promise<ProbeCall> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, argv, { cwd: options.cwd, env: options.env, stdio: ["pipe", "pipe", "pipe"], shell: false, detached: true });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let timedOut = false;
    child.stdout.on("data", (c: Buffer) => out.push(c));
    child.stderr.on("data", (c: Buffer) => err.push(c));
    child.stdin.on("error", () => undefined);
    child.stdin.end(options.input ?? Buffer.alloc(0));
    const killGroup = (): void => {
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        // Already gone.
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, CALL_TIMEOUT_MS);
    child.on("error", (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      killGroup();
      resolve({ argv, stdout: Buffer.concat(out), stderr: Buffer.concat(err), exitCode: code, signal, timedOut });
    });
  });
}
