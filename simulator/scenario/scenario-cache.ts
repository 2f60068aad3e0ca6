import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { LoadedScenario } from "./loaded.ts";
import type { Scenario } from "./schema.ts";
import { bytesFiles } from "./bytes-files.ts";

// A digest of every source file the scenario validator is made of (schema, defaults, zod), injected by
// scripts/build.mjs. Not defined when running from source (tsx): there no cheap key notices an edit to schema.ts, so
// the cache is off and every call validates.
declare const __SCENARIO_VALIDATOR_DIGEST__: string | undefined;
const VALIDATOR = typeof __SCENARIO_VALIDATOR_DIGEST__ === "string" ? __SCENARIO_VALIDATOR_DIGEST__ : null;

/**
 * The cache file's name for a validator build: one per validator digest, so gentle-ai and pi (one build, one digest)
 * share an entry and a relay case validates its scenario once, not once per program; null when the cache is off.
 */
export function scenarioCacheFile(validator: string | null = VALIDATOR): string | null {
  return validator === null ? null : `scenario-cache.${validator.slice(0, 16)}.json`;
}

// This build's file: null from source, where the cache is off.
const CACHE_FILE = scenarioCacheFile();

/**
 * Identity of a validation result: the validator's build digest plus the scenario's path and exact text (a rebuilt
 * validator may apply other defaults, so older entries do not count); null when the cache is off (no build digest).
 * Compared as text: no hashing needed.
 */
export function scenarioFingerprint(path: string, bytes: Buffer, validator: string | null = VALIDATOR): string | null {
  if (validator === null) return null;
  return `${validator}\n${path}\n${bytes.toString("latin1")}`;
}

/** A cache hit: the loaded scenario except whether its file pins a lineage (the caller reads that from the bytes). */
export type CachedScenario = Omit<LoadedScenario, "lineagePinned">;

/**
 * The previously validated scenario for this fingerprint, or null (a referenced bytes file that vanished also misses).
 */
export function readCachedScenario(stateDir: string, path: string, fingerprint: string): CachedScenario | null {
  try {
    if (CACHE_FILE === null) return null;
    const cached = JSON.parse(readFileSync(join(stateDir, CACHE_FILE), "utf8")) as {
      fingerprint?: unknown;
      scenario?: Scenario;
    };
    if (cached.fingerprint !== fingerprint || cached.scenario === undefined) return null;
    return loadedIfFilesExist(cached.scenario, path);
  } catch {
    return null;
  }
}

function loadedIfFilesExist(scenario: Scenario, path: string): CachedScenario | null {
  const dir = dirname(path);
  if (bytesFiles(scenario).some(([, spec]) => !existsSync(resolve(dir, spec.file)))) return null;
  return { scenario, path, dir };
}

/** Remembers a validated scenario (atomic rename; durability does not matter for a cache). */
export function writeCachedScenario(stateDir: string, fingerprint: string, scenario: Scenario): void {
  if (CACHE_FILE === null) return;
  mkdirSync(stateDir, { recursive: true });
  const file = join(stateDir, CACHE_FILE);
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify({ fingerprint, scenario })}\n`, { mode: 0o600 });
  renameSync(tmp, file);
}
