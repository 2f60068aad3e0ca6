import { readFileSync } from "node:fs";
import type { SimConfig } from "./env-config.ts";
import { builtinScenario, type LoadedScenario } from "../scenario/loaded.ts";
import { readCachedScenario, recallScenario, scenarioFingerprint, writeCachedScenario, type ScenarioMemory } from "../scenario/scenario-cache.ts";

/**
 * The configured scenario: the built-in default, a cached validation of the same file bytes, or a fresh validation.
 * Validation (zod) is imported only on a cache miss, which keeps it off the per-call start-up path. A long-lived
 * process passes its own memory, which it consults first and fills instead of the state folder's cache file.
 * Throws ScenarioLoadError for a bad file, before anything is written.
 */
export async function loadConfiguredScenario(config: SimConfig, cwd: string, memory?: ScenarioMemory): Promise<LoadedScenario> {
  if (config.scenarioPath === null) return builtinScenario(cwd);
  let fingerprint: string | null = null;
  try {
    fingerprint = scenarioFingerprint(config.scenarioPath, readFileSync(config.scenarioPath));
    const hit = memory ? recallScenario(memory, config.scenarioPath, fingerprint) : readCachedScenario(config.stateDir, config.scenarioPath, fingerprint);
    if (hit) return hit;
  } catch {
    // unreadable: the full loader below reports it
  }
  const { loadScenarioFileWithDir } = await import("../scenario/load.ts");
  const loaded = loadScenarioFileWithDir(config.scenarioPath);
  if (fingerprint !== null) {
    const validated = { scenario: loaded.scenario, lineagePinned: loaded.lineagePinned };
    if (memory) memory.set(fingerprint, deepFreeze(validated));
    else writeCachedScenario(config.stateDir, fingerprint, validated);
  }
  return loaded;
}

/** Freezes a remembered scenario: calls share it, so a call that tried to change it would fail loudly instead. */
function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
