import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import type { LoadedScenario } from "./loaded.ts";
import type { Scenario } from "./schema.ts";
import { bytesFiles } from "./bytes-files.ts";

// The running build (dist/gentle-ai.cjs, dist/pi.cjs, or this source file under tsx).
const SELF = decodeURIComponent(new URL(import.meta.url).pathname);
// One cache file per build, so gentle-ai and pi sharing a state folder never evict each other's entry.
const CACHE_FILE = `scenario-cache.${basename(SELF).replace(/[^A-Za-z0-9_.-]/g, "_")}.json`;

/**
 * Identity of a validation result: the scenario's path and exact text plus the simulator build that validated it
 * (a rebuilt simulator may apply other defaults, so older entries do not count). Compared as text: no hashing needed.
 */
export function scenarioFingerprint(path: string, bytes: Buffer): string {
  let build = "unknown";
  try {
    const self = statSync(SELF);
    build = `${self.size}:${self.mtimeMs}`;
  } catch {
    // not loaded from a file: the text alone identifies it
  }
  return `${build}\n${path}\n${bytes.toString("latin1")}`;
}

/** The previously validated scenario for this fingerprint, or null (a referenced bytes file that vanished also misses). */
export function readCachedScenario(stateDir: string, path: string, fingerprint: string): LoadedScenario | null {
  try {
    const cached = JSON.parse(readFileSync(join(stateDir, CACHE_FILE), "utf8")) as { fingerprint?: unknown; scenario?: Scenario; lineagePinned?: unknown };
    if (cached.fingerprint !== fingerprint || cached.scenario === undefined || typeof cached.lineagePinned !== "boolean") return null;
    return loadedIfFilesExist({ scenario: cached.scenario, lineagePinned: cached.lineagePinned }, path);
  } catch {
    return null;
  }
}

/** A validated scenario and whether its file pins a lineage. */
export interface ValidatedScenario {
  readonly scenario: Scenario;
  readonly lineagePinned: boolean;
}

/** Validated scenarios by fingerprint, for the life of one process (the warm server's; a simulator process has none). */
export type ScenarioMemory = Map<string, ValidatedScenario>;

/** The remembered scenario for this fingerprint, or null; as for the state cache, a vanished bytes file misses. */
export function recallScenario(memory: ScenarioMemory, path: string, fingerprint: string): LoadedScenario | null {
  const validated = memory.get(fingerprint);
  return validated === undefined ? null : loadedIfFilesExist(validated, path);
}

function loadedIfFilesExist(validated: ValidatedScenario, path: string): LoadedScenario | null {
  const dir = dirname(path);
  if (bytesFiles(validated.scenario).some(([, spec]) => !existsSync(resolve(dir, spec.file)))) return null;
  return { scenario: validated.scenario, path, dir, lineagePinned: validated.lineagePinned };
}

/** Remembers a validated scenario (atomic rename; durability does not matter for a cache). */
export function writeCachedScenario(stateDir: string, fingerprint: string, validated: ValidatedScenario): void {
  mkdirSync(stateDir, { recursive: true });
  const file = join(stateDir, CACHE_FILE);
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify({ fingerprint, scenario: validated.scenario, lineagePinned: validated.lineagePinned })}\n`, { mode: 0o600 });
  renameSync(tmp, file);
}
