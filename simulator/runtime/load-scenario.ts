import { readFileSync } from "node:fs";
import type { SimConfig } from "./env-config.ts";
import { builtinScenario, pinsLineage, type LoadedScenario } from "../scenario/loaded.ts";
import { readCachedScenario, scenarioFingerprint, writeCachedScenario } from "../scenario/scenario-cache.ts";

/**
 * The configured scenario: the built-in default, a cached validation of the same file bytes, or a fresh validation.
 * Validation (zod) is imported only on a cache miss, which keeps it off the per-call start-up path.
 * Throws ScenarioLoadError for a bad file, before anything is written.
 */
export async function loadConfiguredScenario(config: SimConfig, cwd: string): Promise<LoadedScenario> {
  if (config.scenarioPath === null) return builtinScenario(cwd);
  let fingerprint: string | null = null;
  try {
    const bytes = readFileSync(config.scenarioPath);
    fingerprint = scenarioFingerprint(config.scenarioPath, bytes);
    const hit = fingerprint === null ? null : readCachedScenario(config.stateDir, config.scenarioPath, fingerprint);
    // The bytes validated once, so they parse; whether they pin a lineage is a plain JSON question (no zod).
    if (hit) return { ...hit, lineagePinned: pinsLineage(JSON.parse(bytes.toString("utf8")) as unknown) };
  } catch {
    // unreadable: the full loader below reports it
  }
  const { loadScenarioFileWithDir } = await import("../scenario/load.ts");
  const loaded = loadScenarioFileWithDir(config.scenarioPath);
  if (fingerprint !== null) writeCachedScenario(config.stateDir, fingerprint, loaded.scenario);
  return loaded;
}
