// The lineage as the scenario describes it before any process touched it (zod-free: on the start-up path).
import type { Lens } from "../scenario/lineage-spec.ts";
import type { Scenario } from "../scenario/schema.ts";
import type { CapturedSlot, LineageState } from "./lineage-state.ts";
import { LINEAGE_STATE_SCHEMA } from "./lineage-schema-id.ts";

/** A captured slot for a lens the scenario declares as already captured (the fake pi's canonical result). */
export type SeedSlot = (lens: Lens, order: number) => CapturedSlot;

/** The lineage as the scenario's lineage spec describes it, before any process touched it. */
export function initialLineage(scenario: Scenario, seedSlot: SeedSlot): LineageState {
  const spec = scenario.lineage;
  const captured: Record<string, CapturedSlot> = {};
  for (const lens of spec.captured) {
    const order = spec.lenses.indexOf(lens);
    if (order >= 0) captured[lens] = seedSlot(lens, order);
  }
  const stage = spec.state === "correction_required" ? (spec.correction?.stage ?? "plan_required") : null;
  const hasEvidence = stage === "validation_required" || spec.state === "validating";
  return {
    schema: LINEAGE_STATE_SCHEMA,
    seed: spec.seed,
    state: spec.state,
    generation: 1,
    revisionIndex: 0,
    lenses: [...spec.lenses],
    captured,
    correction: {
      stage,
      forecastLines: stage === null || stage === "plan_required" ? null : 1,
      // The evidence record itself is capture-evidence's format: null with a seeded outcome means "synthesize".
      evidence: null,
      evidenceOutcome: hasEvidence ? (spec.correction?.evidenceOutcome ?? "passed") : null,
      validatorCaptured: false,
      refuterCaptured: false,
    },
    approved: spec.state === "approved",
    rddDisabled: spec.rddDisabled,
  };
}
