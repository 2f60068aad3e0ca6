// The persisted lineage (`<stateDir>/lineage.json`): the zod schema that defines the state file format.
// Kept off the simulator's start-up path: lineage-store checks the shape structurally, tests validate with this schema.
import * as z from "zod/mini";
import { LINEAGE_STATE_SCHEMA } from "./lineage-schema-id.ts";
import { CorrectionStageSchema, LensSchema } from "../scenario/lineage-spec.ts";

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

/** One finding a correction fixes (reviewtransaction.Finding with its FindingEvidence proof). */
export const FixFindingSchema = z.strictObject({
  id: z.string(),
  lens: z.string(),
  location: z.string(),
  severity: z.string(),
  claim: z.string(),
  proof_refs: z.array(z.string()),
  evidence_class: z.string(),
  causal_disposition: z.string(),
});
export type FixFinding = z.infer<typeof FixFindingSchema>;

/** Correction sub-state. Owned by the correction verbs; unknown keys are preserved so they can add fields. */
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
  /**
   * The corroborated findings the correction must fix, as FINALIZE classified the captured reviewer results
   * (CompactState.FixFindingIDs with their findings and classifications). Absent: the scenario's seeded finding.
   */
  fixFindings: z.optional(z.array(FixFindingSchema)),
});
export type CorrectionState = z.infer<typeof CorrectionStateSchema>;

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
  // Which mode source keeps review off (the repository world knows it; a seeded lineage models a clone-local disable).
  rddDisabledSource: z.optional(z.enum(["default", "global", "clone_local"])),
});
export type LineageState = z.infer<typeof LineageStateSchema>;
