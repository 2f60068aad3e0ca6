import { runInOwnGroup } from "./spawn-group.ts";

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

/** Runs a program in its own process group; a program that cannot start reports it on stderr instead of throwing. */
export async function runProgram(executable: string, argv: readonly string[], options: ProgramOptions): Promise<ProgramRun> {
  try {
    const run = await runInOwnGroup(executable, argv, options);
    return { stdout: run.stdout, stderr: run.stderr, code: run.exitCode, signal: run.signal, timedOut: run.timedOut };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { stdout: Buffer.alloc(0), stderr: Buffer.from(`spawn error: ${message}\n`), code: null, signal: null, timedOut: false };
  }
}
