// The zod mirror of the reviewer/v1 result (the lens role's result): written from the facts of gentle-ai's
// LensResultSchema (internal/reviewerprovider/contract.go:20-35 at fb55ef7b) and the admission that enforces it
// (internal/cli/review_facade.go:447-464 facadeReviewerResult, internal/reviewtransaction/transaction.go
// canonicalLensResult). gentle-ai does not publish it under contracts/review-integration; gentle-pi mirrors it as
// contracts/review-provider-contract-mirror/v1.1.0/bundle/schemas/lens.schema.json.
import { z } from "zod";
import type { ProviderDocument } from "./provider-document.ts";

const LENS = z.enum([
  "risk",
  "resilience",
  "readability",
  "reliability",
  "review-risk",
  "review-resilience",
  "review-readability",
  "review-reliability",
]);

// The schema's "\S" plus its case-insensitive rejection of isConcreteEvidence's placeholder words.
const PLACEHOLDER = /^\s*(?:n\/a|na|none|todo|tbd|pass|passed|success|placeholder)\s*$/i;
const CONCRETE = z
  .string()
  .regex(/\S/)
  .refine((s) => !PLACEHOLDER.test(s), "a placeholder is not concrete evidence");

/** One finding: location, severity, claim and proof_refs required; BLOCKER/CRITICAL also need the causal fields. */
export const ReviewerFindingSchema = z
  .strictObject({
    id: z
      .string()
      .regex(/^R[1-4]-[A-Za-z0-9][A-Za-z0-9._-]*$/)
      .optional(),
    lens: LENS.optional(),
    location: z.string().regex(/^.+:[1-9][0-9]*(?:-[1-9][0-9]*)?$/),
    severity: z.enum(["BLOCKER", "CRITICAL", "WARNING", "SUGGESTION"]),
    claim: z.string().min(1),
    proof_refs: z.array(CONCRETE).min(1),
    evidence_class: z.enum(["deterministic", "inferential", "insufficient"]).optional(),
    causal_disposition: z
      .enum(["introduced", "behavior-activated", "worsened", "pre-existing", "base-only", "unknown"])
      .optional(),
  })
  .refine(
    (f) =>
      !(f.severity === "BLOCKER" || f.severity === "CRITICAL") ||
      (f.evidence_class !== undefined && f.causal_disposition !== undefined),
    "a BLOCKER or CRITICAL finding requires evidence_class and causal_disposition",
  );

/**
 * reviewer/v1: the subject echo, the completed inspection, explicit findings and at least one concrete evidence string.
 */
export const ReviewerResultSchema = z.strictObject({
  subject_hash: z.string().regex(/^sha256:[0-9a-f]{64}$/),
  inspection: z.strictObject({
    status: z.literal("completed"),
    paths: z
      .array(z.string().min(1))
      .refine((paths) => new Set(paths).size === paths.length, "inspection.paths must be unique"),
  }),
  lens: LENS.optional(),
  findings: z.array(ReviewerFindingSchema),
  evidence: z.array(CONCRETE).min(1),
});
// No type is exported: the simulator never builds a reviewer result (gentle-ai admits one; the fake pi echoes what
// a prompt says, valid or not), so this schema only judges documents.

export const REVIEWER_RESULT_DOCUMENTS: readonly ProviderDocument[] = [
  {
    id: "https://gentle-ai.dev/schema/review/reviewer/v1",
    upstream: undefined,
    schema: ReviewerResultSchema,
    stricter: [],
  },
];
