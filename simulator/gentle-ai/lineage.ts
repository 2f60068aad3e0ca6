// The lineage as the simulated gentle-ai reads and updates it: the persisted state (state/lineage-store.ts), which
// starts from the scenario with its already-captured slots built by gentle-ai's own artifact code.
import type { LineageState } from "../state/lineage-state.ts";
import type { SeedSlot } from "../state/lineage-initial.ts";
import { identitiesFor, type IdentitySource } from "../state/identities.ts";
import { readLineage as readStored, updateLineage as updateStored } from "../state/lineage-store.ts";
import type { Scenario } from "../scenario/schema.ts";
import { seededSlot } from "./verbs/capture-result/artifact.ts";

export { LINEAGE_FILE } from "../state/lineage-store.ts";

/** The scenario's already-captured slots, bound to the lineage's identities in the call's identity world. */
function seedSlotOf(scenario: Scenario, source: IdentitySource | undefined): SeedSlot {
  return (lens, order) => seededSlot(identitiesFor(scenario.lineage.seed, source), lens, order);
}

/** The current lineage (initial from the scenario when nothing was persisted yet). Does not write. */
export function readLineage(stateDir: string, scenario: Scenario, source: IdentitySource | undefined): LineageState {
  return readStored(stateDir, scenario, seedSlotOf(scenario, source));
}

/** Runs fn on a mutable copy of the lineage under the lock; persists it if fn changed it (state/lineage-store.ts). */
export function updateLineage<T>(
  stateDir: string,
  scenario: Scenario,
  source: IdentitySource | undefined,
  fn: (draft: LineageState) => T,
): T {
  return updateStored(stateDir, scenario, seedSlotOf(scenario, source), fn);
}
