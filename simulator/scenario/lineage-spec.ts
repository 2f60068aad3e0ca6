import * as z from "zod/mini";

export const LENSES = ["review-risk", "review-resilience", "review-readability", "review-reliability"] as const;
export const LensSchema = z.enum(LENSES);
export type Lens = z.infer<typeof LensSchema>;

/** Where a correction lineage starts (state `correction_required`), per the provider reference §8.4. */
export const CorrectionStageSchema = z.enum([
  "plan_required", // no forecast: collect correction_plan_required
  "candidate_unavailable", // forecast recorded, corrected candidate missing: stop
  "evidence_required", // corrected candidate present, no captured evidence
  "validation_required", // evidence captured (passed): targeted_validation_required
]);
export type CorrectionStage = z.infer<typeof CorrectionStageSchema>;

/** The single review lineage a scenario holds. */
export const LineageSpecSchema = z.strictObject({
  seed: z._default(z.string().check(z.minLength(1)), "gentle-relay-conformance"),
  state: z._default(z.enum(["reviewing", "correction_required", "validating", "approved"]), "reviewing"),
  lenses: z._default(
    z.array(LensSchema).check(
      z.minLength(1),
      z.maxLength(4),
      z.refine((l) => new Set(l).size === l.length, "lenses must be unique"),
    ),
    [...LENSES],
  ),
  captured: z._default(z.array(LensSchema), []),
  correction: z.optional(
    z.strictObject({
      stage: CorrectionStageSchema,
      evidenceOutcome: z._default(z.enum(["passed", "verification_failed", "procedural_tooling_failed"]), "passed"),
    }),
  ),
  refuter: z._default(z.boolean(), false),
  rddDisabled: z._default(z.boolean(), false),
});
export type LineageSpec = z.infer<typeof LineageSpecSchema>;
