import { spawnCollected, type CollectedSpawnResult } from "./subprocess.ts";

/** What launching one gentle-ai leg needs (the environment as given: callers add the handshake). */
export interface GentleAiLeg {
  readonly gentleAi: string;
  readonly cwd: string;
  readonly environment: NodeJS.ProcessEnv;
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
}

/** Runs `gentleAi <args>` with stdin closed and no data; rejects only when the process could not start. */
export function spawnGentleAiLeg(leg: GentleAiLeg, args: readonly string[]): Promise<CollectedSpawnResult> {
  return spawnCollected({
    file: leg.gentleAi,
    args,
    cwd: leg.cwd,
    env: leg.environment,
    stdin: null,
    timeoutMs: leg.timeoutMs,
    ...(leg.signal !== undefined ? { signal: leg.signal } : {}),
  });
}
