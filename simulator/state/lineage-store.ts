// Reads and updates `<stateDir>/lineage.json` under the cross-process lock; never a half-written file.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { withLock } from "./lock.ts";
import { writeFileAtomic } from "./atomic-file.ts";
import { initialLineage, LineageStateSchema } from "./lineage-state.ts";
import type { LineageState } from "./lineage-state.ts";
import { identitiesFor } from "./identities.ts";
import { seededSlot } from "../gentle-ai/verbs/artifact.ts";
import type { Scenario } from "../scenario/schema.ts";

export const LINEAGE_FILE = "lineage.json";

function fresh(scenario: Scenario): LineageState {
  const ids = identitiesFor(scenario.lineage.seed);
  return initialLineage(scenario, (lens, order) => seededSlot(ids, lens, order));
}

function load(stateDir: string, scenario: Scenario): LineageState {
  const path = join(stateDir, LINEAGE_FILE);
  if (!existsSync(path)) return fresh(scenario);
  const text = readFileSync(path, "utf8");
  const parsed = LineageStateSchema.safeParse(JSON.parse(text));
  if (!parsed.success) throw new Error(`gentle-ai-sim: ${path}: invalid lineage state: ${parsed.error.message}`);
  // A state dir written for another seed belongs to another lineage: start over rather than mix identities.
  if (parsed.data.seed !== scenario.lineage.seed) return fresh(scenario);
  return parsed.data;
}

/** The current lineage (initial from the scenario when nothing was persisted yet). Does not write. */
export function readLineage(stateDir: string, scenario: Scenario): LineageState {
  return load(stateDir, scenario);
}

/**
 * Runs fn on a mutable copy of the lineage under the lock and persists the copy atomically if fn changed it.
 * A throw inside fn persists nothing (refusals never consume state).
 */
export function updateLineage<T>(stateDir: string, scenario: Scenario, fn: (draft: LineageState) => T): T {
  return withLock(stateDir, "lineage", () => {
    const before = load(stateDir, scenario);
    const beforeText = JSON.stringify(before);
    const draft = JSON.parse(beforeText) as LineageState;
    const result = fn(draft);
    const afterText = JSON.stringify(LineageStateSchema.parse(draft));
    if (afterText !== beforeText || !existsSync(join(stateDir, LINEAGE_FILE)))
      writeFileAtomic(join(stateDir, LINEAGE_FILE), afterText + "\n");
    return result;
  });
}
