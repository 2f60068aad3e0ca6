import type { ChildResult } from "../process/child-result.ts";
import { runChild } from "../process/run-child.ts";

const CALL_TIMEOUT_MS = 60_000;

/** One finished probe call: the argv it ran with and what the binary did. */
export interface ProbeCall extends ChildResult {
  readonly argv: readonly string[];
}

/** Runs the binary once (no shell, own process group killed on timeout); stdin gets `input` or is closed. */
export async function runBinary(
  binary: string,
  argv: readonly string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; input?: Buffer },
): Promise<ProbeCall> {
  const run = await runChild(binary, argv, {
    cwd: options.cwd,
    env: options.env,
    ...(options.input ? { stdin: options.input } : {}),
    timeoutMs: CALL_TIMEOUT_MS,
  });
  return { argv, ...run };
}
