import { join, resolve } from "node:path";
import { sha256Hex } from "../platform/sha256.ts";

export const ENV_SCENARIO = "GENTLE_AI_SIM_SCENARIO";
export const ENV_STATE = "GENTLE_AI_SIM_STATE";
export const ENV_TRANSCRIPT = "GENTLE_AI_SIM_TRANSCRIPT";
export const ENV_TRANSCRIPT_INLINE_MAX = "GENTLE_AI_SIM_TRANSCRIPT_INLINE_MAX";

/** The simulator's configuration, read only from its own GENTLE_AI_SIM_* variables. */
export interface SimConfig {
  /** Absolute scenario path, or null for the built-in default. */
  readonly scenarioPath: string | null;
  readonly stateDir: string;
  readonly transcriptPath: string | null;
  /** Blobs longer than this many bytes are recorded without base64 (digest and length only). */
  readonly inlineMax: number;
}

/** A configuration variable with an unusable value. */
export class ConfigError extends Error {
  override readonly name = "ConfigError";
}

/** os.tmpdir() on POSIX, without loading node:os: TMPDIR, TMP, TEMP or /tmp, minus a trailing slash. */
export function tmpDirOf(env: Readonly<Record<string, string | undefined>>): string {
  const dir = env.TMPDIR || env.TMP || env.TEMP || "/tmp";
  return dir.length > 1 && dir.endsWith("/") ? dir.slice(0, -1) : dir;
}

/** Default state folder: one per scenario, so unrelated scenarios never share lineage state. */
export function defaultStateDir(
  scenarioPath: string | null,
  env: Readonly<Record<string, string | undefined>> = process.env,
): string {
  return join(tmpDirOf(env), "gentle-ai-sim-state", sha256Hex(scenarioPath ?? "builtin").slice(0, 16));
}

/** Reads GENTLE_AI_SIM_* from env; relative paths resolve against cwd; empty values count as unset. */
export function readSimConfig(env: Readonly<Record<string, string | undefined>>, cwd: string): SimConfig {
  const get = (name: string): string | undefined => (env[name] === "" ? undefined : env[name]);
  const scenario = get(ENV_SCENARIO);
  const scenarioPath = scenario === undefined ? null : resolve(cwd, scenario);
  const state = get(ENV_STATE);
  const transcript = get(ENV_TRANSCRIPT);
  const inline = get(ENV_TRANSCRIPT_INLINE_MAX);
  if (inline !== undefined && !/^\d+$/.test(inline)) {
    throw new ConfigError(
      `${ENV_TRANSCRIPT_INLINE_MAX}: expected a non-negative integer byte count, got ${JSON.stringify(inline)}`,
    );
  }
  return {
    scenarioPath,
    stateDir: state === undefined ? defaultStateDir(scenarioPath, env) : resolve(cwd, state),
    transcriptPath: transcript === undefined ? null : resolve(cwd, transcript),
    inlineMax: inline === undefined ? Number.POSITIVE_INFINITY : Number(inline),
  };
}
