// gentle-ai.review-targeted-validation-request/v1 (v1/schemas/targeted-validation-request.schema.json;
// TargetedValidationRequest, reviewtransaction/targeted_validation_request.go:19): STATUS `validation_request`.
import { z } from "zod";
import type { ProviderDocument } from "./provider-document.ts";
import { GitTree, LineageId, Sha256 } from "./status-formats.ts";

const uniqueStrings = z
  .array(z.string().min(1))
  .min(1)
  .refine((a) => new Set(a).size === a.length, "items must be unique");

/** reviewtransaction.Finding (transaction.go:128): only `id` is required, the rest is omitempty. */
export const ValidationFindingSchema = z.strictObject({
  id: z.string().min(1),
  lens: z.optional(z.string()),
  location: z.optional(z.string()),
  severity: z.optional(z.string()),
  claim: z.optional(z.string()),
  proof_refs: z.optional(z.array(z.string())),
  evidence_class: z.optional(z.string()),
  causal_disposition: z.optional(z.string()),
});

/** reviewtransaction.FindingEvidence (transaction.go:161). */
export const FixClassificationSchema = z.strictObject({
  finding_id: z.string().min(1),
  severity: z.optional(z.string()),
  class: z.enum(["deterministic", "inferential", "insufficient"]),
  causal_disposition: z.enum(["introduced", "behavior-activated", "worsened", "pre-existing", "base-only", "unknown"]),
  proof: z.string().min(1),
});

export const TargetedValidationRequestSchema = z.strictObject({
  schema: z.literal("gentle-ai.review-targeted-validation-request/v1"),
  request_hash: Sha256,
  lineage_id: LineageId,
  expected_revision: Sha256,
  target_identity: Sha256,
  fix_finding_ids: uniqueStrings,
  // Absent at 301fb2ad (2.4.0), whose TargetedValidationRequest has neither field.
  policy_content: z.optional(z.string()),
  fix_findings: z.optional(z.array(ValidationFindingSchema).min(1)),
  fix_classifications: z.optional(z.array(FixClassificationSchema).min(1)),
  projection: z.enum(["workspace", "staged"]),
  correction_candidate_tree: GitTree,
  correction_target_identity: Sha256,
  correction_paths: uniqueStrings,
  correction_paths_digest: Sha256,
});
export type TargetedValidationRequest = z.infer<typeof TargetedValidationRequestSchema>;

export const TARGETED_VALIDATION_REQUEST_DOCUMENTS: readonly ProviderDocument[] = [
  {
    id: "gentle-ai.review-targeted-validation-request/v1",
    upstream: "v1/schemas/targeted-validation-request.schema.json",
    schema: TargetedValidationRequestSchema,
    stricter: [],
  },
];
