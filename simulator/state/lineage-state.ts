// The persisted lineage (`<stateDir>/lineage.json`): its schema and its initial value from the scenario.
import * as z from "zod/mini";
import { CorrectionStageSchema, LensSchema } from "../scenario/lineage-spec.ts";
import type { Lens } from "../scenario/lineage-spec.ts";
import type { Scenario } from "../scenario/schema.ts";

/** One captured reviewer-result slot. */
export const CapturedSlotSchema = z.strictObject({
  /** `sha256:` digest of the admitted canonical bytes (the artifact's `sha256`). */
  canonicalSha256: z.string(),
  /** Canonical (re-marshalled) reviewer result, base64. */
  canonicalBase64: z.string(),
  /** The raw submitted bytes, base64 (empty for slots pre-captured by the scenario). */
  rawBase64: z.string(),
  order: z.number(),
  /** The artifact JSON object (compact Go JSON) printed when the slot was captured. */
  artifact: z.string(),
});
export type CapturedSlot = z.infer<typeof CapturedSlotSchema>;

/** Correction sub-state. Owned by sim-correction; unknown keys are preserved so they can add fields. */
export const CorrectionStateSchema = z.looseObject({
  /** Where the correction lineage stands; null while no correction exists. */
  stage: z.nullable(CorrectionStageSchema),
  forecastLines: z.nullable(z.number()),
  /** The captured VerificationEvidenceRecord as emitted (JSON text), or null. */
  evidence: z.nullable(z.string()),
  /** Outcome of the captured (or scenario-seeded) evidence. */
  evidenceOutcome: z.nullable(z.enum(["passed", "verification_failed", "procedural_tooling_failed"])),
  validatorCaptured: z.boolean(),
  refuterCaptured: z.boolean(),
});
export type CorrectionState = z.infer<typeof CorrectionStateSchema>;

export const LINEAGE_STATE_SCHEMA = "gentle-ai-sim.lineage-state/v1";

/** The whole persisted lineage. */
export const LineageStateSchema = z.looseObject({
  schema: z.literal(LINEAGE_STATE_SCHEMA),
  seed: z.string(),
  state: z.enum(["reviewing", "correction_required", "validating", "approved"]),
  /** Authority generation (status `authority.generation`). */
  generation: z.number(),
  /** Index fed to identities.revision(); lifecycle transitions bump it, captures do not (§7.6). */
  revisionIndex: z.number(),
  lenses: z.array(LensSchema),
  captured: z.record(z.string(), CapturedSlotSchema),
  correction: CorrectionStateSchema,
  approved: z.boolean(),
  rddDisabled: z.boolean(),
});
export type LineageState = z.infer<typeof LineageStateSchema>;

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
      // The evidence record itself is sim-correction's format: null with a seeded outcome means "synthesize".
      evidence: null,
      evidenceOutcome: hasEvidence ? (spec.correction?.evidenceOutcome ?? "passed") : null,
      validatorCaptured: false,
      refuterCaptured: false,
    },
    approved: spec.state === "approved",
    rddDisabled: spec.rddDisabled,
  };
}
