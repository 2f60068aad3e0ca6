import { runInOwnGroup } from "../runner/spawn-group.ts";

/** The full answer of one child process. */
export interface ChildAnswer {
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly stdout: Buffer;
  readonly stderr: Buffer;
  readonly timedOut: boolean;
}

/** Runs one program (shell: false, own process group killed as a tree) and collects raw bytes; default bound 60 s. */
export function runChild(
  executable: string,
  argv: readonly string[],
  options: { cwd: string; env: Readonly<Record<string, string | undefined>>; stdin?: Buffer; timeoutMs?: number },
): Promise<ChildAnswer> {
  return runInOwnGroup(executable, argv, { ...options, timeoutMs: options.timeoutMs ?? 60_000 });
}
