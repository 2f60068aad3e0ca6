// Reads and updates `<stateDir>/lineage.json` under the cross-process lock; never a half-written file.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { withLock } from "./lock.ts";
import { writeFileAtomic } from "./atomic-file.ts";
import { initialLineage, type SeedSlot } from "./lineage-initial.ts";
import { LINEAGE_STATE_SCHEMA } from "./lineage-schema-id.ts";
import type { LineageState } from "./lineage-state.ts";
import type { Scenario } from "../scenario/schema.ts";

export const LINEAGE_FILE = "lineage.json";

const STATES = new Set(["reviewing", "correction_required", "validating", "approved"]);

/**
 * Structural check of a state file (the zod LineageStateSchema defines the format; importing zod here would put it
 * on every simulated call's start-up path, so tests validate written files against the schema instead).
 */
function isLineageState(v: unknown): v is LineageState {
  if (v === null || typeof v !== "object") return false;
  const o = v as Record<string, unknown>;
  const c = o["correction"] as Record<string, unknown> | null | undefined;
  return (
    o["schema"] === LINEAGE_STATE_SCHEMA &&
    typeof o["seed"] === "string" &&
    STATES.has(o["state"] as string) &&
    Number.isInteger(o["generation"]) &&
    Number.isInteger(o["revisionIndex"]) &&
    Array.isArray(o["lenses"]) &&
    o["captured"] !== null &&
    typeof o["captured"] === "object" &&
    c !== null &&
    typeof c === "object" &&
    typeof c["validatorCaptured"] === "boolean" &&
    typeof c["refuterCaptured"] === "boolean" &&
    typeof o["approved"] === "boolean" &&
    typeof o["rddDisabled"] === "boolean"
  );
}

/**
 * The persisted lineage, else the scenario's initial one. seedSlot builds a slot the scenario declares as already
 * captured: gentle-ai's own artifact bytes through the call's identity world (gentle-ai/lineage.ts passes its
 * builder), so the store below the verbs takes it as a value.
 */
function load(stateDir: string, scenario: Scenario, seedSlot: SeedSlot): LineageState {
  const path = join(stateDir, LINEAGE_FILE);
  if (!existsSync(path)) return initialLineage(scenario, seedSlot);
  const parsed: unknown = JSON.parse(readFileSync(path, "utf8"));
  if (!isLineageState(parsed)) throw new Error(`gentle-ai-sim: ${path}: invalid lineage state`);
  // A state dir written for another seed belongs to another lineage: start over rather than mix identities.
  if (parsed.seed !== scenario.lineage.seed) return initialLineage(scenario, seedSlot);
  return parsed;
}

/** The current lineage (initial from the scenario when nothing was persisted yet). Does not write. */
export function readLineage(stateDir: string, scenario: Scenario, seedSlot: SeedSlot): LineageState {
  return load(stateDir, scenario, seedSlot);
}

/**
 * Runs fn on a mutable copy of the lineage under the lock and persists the copy atomically if fn changed it.
 * A throw inside fn persists nothing (refusals never consume state).
 */
export function updateLineage<T>(
  stateDir: string,
  scenario: Scenario,
  seedSlot: SeedSlot,
  fn: (draft: LineageState) => T,
): T {
  return withLock(stateDir, "lineage", () => {
    const before = load(stateDir, scenario, seedSlot);
    const beforeText = JSON.stringify(before);
    const draft = JSON.parse(beforeText) as LineageState;
    const result = fn(draft);
    if (!isLineageState(draft)) throw new Error("gentle-ai-sim: refusing to persist an invalid lineage state");
    const afterText = JSON.stringify(draft);
    if (afterText !== beforeText || !existsSync(join(stateDir, LINEAGE_FILE)))
      writeFileAtomic(join(stateDir, LINEAGE_FILE), afterText + "\n");
    return result;
  });
}
