// Mirror of the negotiated operation result, operation/v1 and operation/v2, for the operations the simulator runs
// negotiated: review.finalize and review.validate. Written from the facts of v1/schemas/operation.schema.json,
// v2/schemas/operation.schema.json, v1/schemas/targeted-validation-request.schema.json, status `action_eligibility`,
// and `ReviewIntegrationFinalizeResult` (review_operation_contract.go:1566-1585) at fb55ef7b.
import { FINALIZE_MANAGED_ACTIONS } from "./managed-actions.ts";
import { z } from "zod";
import type { ProviderDocument } from "./provider-document.ts";
import { GateResultSchema } from "./gate-result.ts";

const Sha256 = z.string().regex(/^sha256:[0-9a-f]{64}$/);
const Tree = z.string().regex(/^[0-9a-f]{40}([0-9a-f]{24})?$/);
const Lineage = z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);
const Code = z.string().regex(/^[a-z0-9_]+$/);

function unique<T>(items: readonly T[]): boolean {
  return new Set(items).size === items.length;
}

/** `gentle-ai.review-targeted-validation-request/v1`. */
export const TargetedValidationRequestSchema = z.strictObject({
  schema: z.literal("gentle-ai.review-targeted-validation-request/v1"),
  request_hash: Sha256,
  lineage_id: Lineage,
  expected_revision: Sha256,
  target_identity: Sha256,
  fix_finding_ids: z.array(z.string().min(1)).min(1).refine(unique, { message: "fix_finding_ids must be unique" }),
  policy_content: z.string(),
  fix_findings: z
    .array(
      z.strictObject({
        id: z.string().min(1),
        lens: z.string().optional(),
        location: z.string().optional(),
        severity: z.string().optional(),
        claim: z.string().optional(),
        proof_refs: z.array(z.string()).optional(),
        evidence_class: z.string().optional(),
        causal_disposition: z.string().optional(),
      }),
    )
    .min(1),
  fix_classifications: z
    .array(
      z.strictObject({
        finding_id: z.string().min(1),
        severity: z.string().optional(),
        class: z.enum(["deterministic", "inferential", "insufficient"]),
        causal_disposition: z.enum([
          "introduced",
          "behavior-activated",
          "worsened",
          "pre-existing",
          "base-only",
          "unknown",
        ]),
        proof: z.string().min(1),
      }),
    )
    .min(1),
  projection: z.enum(["workspace", "staged"]),
  correction_candidate_tree: Tree,
  correction_target_identity: Sha256,
  correction_paths: z.array(z.string().min(1)).min(1).refine(unique, { message: "correction_paths must be unique" }),
  correction_paths_digest: Sha256,
});

const AllowedAction = z
  .strictObject({
    action: z.enum(["stop", "review.start", "review.finalize", "review.validate", "review.recover"]),
    reason_code: Code,
    required_inputs: z.array(Code),
    disposition: z.enum(["scope_changed", "invalidated", "escalated"]).optional(),
    binding: z.strictObject({ lineage_id: Lineage, revision: Sha256, target_identity: Sha256 }).optional(),
  })
  .refine(
    (a) =>
      a.action === "review.recover"
        ? a.disposition !== undefined && a.binding !== undefined
        : a.disposition === undefined && a.binding === undefined,
    {
      message: "review.recover carries disposition and binding; every other action carries neither",
    },
  );

/** Status `action_eligibility` (v1 status.schema.json $defs; v2 refers to the same shape). */
export const ActionEligibilitySchema = z.strictObject({
  allowed_actions: z.array(AllowedAction).length(1),
  forbidden_actions: z.array(
    z.strictObject({
      action: z.enum(FINALIZE_MANAGED_ACTIONS),
      reason_code: Code,
    }),
  ),
});

const AdvisoryFindings = z.strictObject({
  statement: z.string().min(1),
  findings: z
    .array(
      z.strictObject({
        id: z.string().min(1),
        lens: z.string().min(1).optional(),
        location: z.string().min(1).optional(),
        severity: z.enum(["BLOCKER", "CRITICAL", "WARNING", "SUGGESTION"]),
        disposition: z.enum(["informational", "follow_up", "refuted"]),
      }),
    )
    .min(1),
});

/** The negotiated FINALIZE result (`ReviewIntegrationFinalizeResult` field order). */
export const FinalizeResultSchema = z
  .strictObject({
    operation: z.literal("review/finalize"),
    lineage_id: z.string().min(1),
    state: z.string().min(1),
    action: z.string().min(1),
    escalation: z.string().min(1).optional(),
    advisory_findings: AdvisoryFindings.optional(),
    store_revision: Sha256,
    eligibility: ActionEligibilitySchema.optional(),
    validation_request: TargetedValidationRequestSchema.optional(),
  })
  .refine((r) => r.validation_request === undefined || r.state === "correction_required", {
    message: "validation_request requires state correction_required",
  })
  .refine((r) => r.advisory_findings === undefined || r.state === "approved", {
    message: "advisory_findings requires state approved",
  });
export type FinalizeResult = z.infer<typeof FinalizeResultSchema>;

const STRICTER = [
  "operation: only review.finalize and review.validate, each with its own result",
  "result: the finalize result, or for review.validate a gate result (gate-result.ts); bind_sdd and retry_final_verification results are rejected",
  "result.next_transition: absent (the simulator does not render finalize's next transition)",
];

/** One operation document version: the operation member paired with its own result (the schemas say `oneOf`). */
function operationSchema<S extends string, C extends string>(schema: S, contract: C) {
  const head = { schema: z.literal(schema), contract: z.literal(contract) };
  return z.discriminatedUnion("operation", [
    z.strictObject({ ...head, operation: z.literal("review.finalize"), result: FinalizeResultSchema }),
    z.strictObject({ ...head, operation: z.literal("review.validate"), result: GateResultSchema }),
  ]);
}

/** `gentle-ai.review-integration.operation/v1`. */
export const OperationV1Schema = operationSchema(
  "gentle-ai.review-integration.operation/v1",
  "gentle-ai.review-integration/v1",
);
export type OperationV1 = z.infer<typeof OperationV1Schema>;

/** `gentle-ai.review-integration.operation/v2`. */
export const OperationV2Schema = operationSchema(
  "gentle-ai.review-integration.operation/v2",
  "gentle-ai.review-integration/v2",
);
export type OperationV2 = z.infer<typeof OperationV2Schema>;

/** The negotiated operation results the simulator prints. */
export const OPERATION_DOCUMENTS: readonly ProviderDocument[] = [
  {
    id: "gentle-ai.review-integration.operation/v1",
    upstream: "v1/schemas/operation.schema.json",
    schema: OperationV1Schema,
    stricter: STRICTER,
  },
  {
    id: "gentle-ai.review-integration.operation/v2",
    upstream: "v2/schemas/operation.schema.json",
    schema: OperationV2Schema,
    stricter: STRICTER,
  },
];
