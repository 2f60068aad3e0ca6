import { runInOwnGroup } from "../runner/spawn-group.ts";

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
export async function runBinary(binary: string, argv: readonly string[], options: { cwd: string; env: NodeJS.ProcessEnv; input?: Buffer }): Promise<ProbeCall> {
  const run = await runInOwnGroup(binary, argv, {
    cwd: options.cwd,
    env: options.env,
    ...(options.input ? { stdin: options.input } : {}),
    timeoutMs: CALL_TIMEOUT_MS,
  });
  return { argv, ...run };
}
