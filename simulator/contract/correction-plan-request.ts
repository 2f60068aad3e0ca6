// gentle-ai.review-correction-plan-request/v1 (v1/schemas/correction-plan-request.schema.json; CorrectionPlanRequest,
// reviewtransaction/correction_plan_request.go:18): STATUS `next_transition.correction_request`.
import { z } from "zod";
import type { ProviderDocument } from "./provider-document.ts";
import { LineageId, Sha256 } from "./status-formats.ts";

const unique = <T extends z.ZodType>(item: T) =>
  z
    .array(item)
    .min(1)
    .refine((a) => new Set(a.map((x) => JSON.stringify(x))).size === a.length, "items must be unique");

export const CorrectionPlanFindingSchema = z.strictObject({
  id: z.string().min(1),
  lens: z.enum(["risk", "resilience", "readability", "reliability"]),
  location: z.string().min(1),
  severity: z.enum(["BLOCKER", "CRITICAL"]),
  claim: z.string().min(1),
  proof_refs: z.array(z.string().min(1)).min(1),
  evidence: z.string().min(1),
  evidence_class: z.enum(["deterministic", "inferential"]),
  causal_disposition: z.enum(["introduced", "behavior-activated", "worsened"]),
});

export const CorrectionPlanRequestSchema = z.strictObject({
  schema: z.literal("gentle-ai.review-correction-plan-request/v1"),
  request_hash: Sha256,
  lineage_id: LineageId,
  expected_revision: Sha256,
  target_identity: Sha256,
  correction_budget: z.number().int().min(1).max(200),
  fix_finding_ids: unique(z.string().min(1)),
  findings: unique(CorrectionPlanFindingSchema),
});
export type CorrectionPlanRequest = z.infer<typeof CorrectionPlanRequestSchema>;

export const CORRECTION_PLAN_REQUEST_DOCUMENTS: readonly ProviderDocument[] = [
  {
    id: "gentle-ai.review-correction-plan-request/v1",
    upstream: "v1/schemas/correction-plan-request.schema.json",
    schema: CorrectionPlanRequestSchema,
    stricter: [],
  },
];
