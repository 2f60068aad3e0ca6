import { asBuffer, type ChildResult } from "./child-result.ts";
import { spawnInGroup } from "./spawn-in-group.ts";

/** How to run one program to its end: its stdin gets `stdin` (or nothing) and is closed at once. */
export interface RunChildOptions {
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly stdin?: Buffer;
  readonly timeoutMs: number;
  /** Aborting it kills the child's process group, as a timeout does (timedOut stays false). */
  readonly cancelSignal?: AbortSignal;
}

/**
 * Runs a program to its end in its own process group (process/spawn-in-group.ts) and returns its bytes. A timeout or a
 * cancellation SIGKILLs the whole group. Rejects only when the program could not start.
 */
export async function runChild(
  executable: string,
  argv: readonly string[],
  options: RunChildOptions,
): Promise<ChildResult> {
  const { subprocess } = spawnInGroup(executable, argv, {
    cwd: options.cwd,
    env: options.env,
    input: options.stdin ?? Buffer.alloc(0),
    timeout: options.timeoutMs,
    maxBuffer: Number.POSITIVE_INFINITY,
    ...(options.cancelSignal ? { cancelSignal: options.cancelSignal } : {}),
  });
  const result = await subprocess;
  // No pid: the program never ran (ENOENT, EACCES, a bad cwd); execa keeps the spawn error as the cause.
  if (subprocess.pid === undefined) throw result.cause instanceof Error ? result.cause : new Error(result.message);
  return {
    exitCode: result.exitCode ?? null,
    signal: (result.signal ?? null) as NodeJS.Signals | null,
    stdout: asBuffer(result.stdout),
    stderr: asBuffer(result.stderr),
    timedOut: result.timedOut,
  };
}

/** runChild for callers that judge a program by its bytes: a program that cannot start reports it on stderr. */
export async function runProgram(
  executable: string,
  argv: readonly string[],
  options: RunChildOptions,
): Promise<ChildResult> {
  try {
    return await runChild(executable, argv, options);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return {
      exitCode: null,
      signal: null,
      stdout: Buffer.alloc(0),
      stderr: Buffer.from(`spawn error: ${message}\n`),
      timedOut: false,
    };
  }
}
