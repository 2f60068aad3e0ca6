// Mirror of the negotiated failure envelope, failure/v1 and failure/v2, written from the facts of the published schemas
// (v1/schemas/failure.schema.json, v2/schemas/failure.schema.json) and `ReviewIntegrationFailure.Validate`
// (review_operation_contract.go:1375-1471) at fb55ef7b.
import { z } from "zod";
import type { ProviderDocument } from "./provider-document.ts";

const Sha256 = z.string().regex(/^sha256:[0-9a-f]{64}$/);
const Tree = z.string().regex(/^[0-9a-f]{40}(?:[0-9a-f]{24})?$/);
const Lineage = z
  .string()
  .max(128)
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);
const SingleLine = z.string().regex(/^[^\r\n]+$/);

/** The eight negotiated operations: the whole v1 enum. */
export const NEGOTIATED_FAILURE_OPERATIONS = [
  "review.capabilities",
  "review.start",
  "review.status",
  "review.finalize",
  "review.repair",
  "review.retry_final_verification",
  "review.validate",
  "review.bind_sdd",
] as const;

/** v2 adds the four collect-capture verbs. */
export const CAPTURE_FAILURE_OPERATIONS = [
  "review.capture-result",
  "review.capture-evidence",
  "review.capture-refuter",
  "review.capture-validation",
] as const;

const TargetEvidence = z.strictObject({ candidate_tree: Tree, paths_digest: Sha256 });

const ScopeChange = z.strictObject({
  expected: TargetEvidence,
  actual: TargetEvidence,
  differing_path_count: z.int().min(0).max(1_000_000),
  differing_paths_digest: Sha256,
  predecessor_lineage_id: Lineage,
  predecessor_revision: Sha256,
  recovery_operation: z.literal("review.recover"),
  recovery_required_inputs: z.tuple([
    z.literal("predecessor_lineage_id"),
    z.literal("expected_predecessor_revision"),
    z.literal("successor_lineage_id"),
    z.literal("disposition"),
    z.literal("reason"),
    z.literal("actor"),
  ]),
});

const OptionalSha256 = z.union([z.literal(""), Sha256]);

const GateContext = z
  .strictObject({
    scope_change: ScopeChange.optional(),
    binding_revision: z.strictObject({ expected: OptionalSha256, current: OptionalSha256 }).optional(),
  })
  .refine((c) => (c.scope_change === undefined) !== (c.binding_revision === undefined), {
    message: "context selects exactly one diagnostic",
  });

/** The members both versions share, in `ReviewIntegrationFailure` field order. */
function failureFields<S extends string, C extends string>(
  schema: S,
  contract: C,
  operations: readonly [string, ...string[]],
) {
  return {
    schema: z.literal(schema),
    contract: z.literal(contract),
    operation: z.enum(operations),
    phase: z.enum(["preflight", "pre_native", "native_running", "native_committed", "reconciliation"]),
    code: z.string().regex(/^[a-z0-9]+(?:_[a-z0-9]+)*$/),
    message: SingleLine.min(1).max(240),
    mutation_outcome: z.enum(["not_started", "unknown", "committed"]),
    authority_applicability: z.enum(["current_target", "unrelated", "ambiguous", "corrupted", "not_evaluated"]),
    retry_safe: z.boolean(),
    replayability: z.enum(["not_replayable", "exact_replay_safe", "status_required", "manual_action_required"]),
    lineage_id: Lineage.optional(),
    target_identity: Sha256.optional(),
    request_digest: Sha256.optional(),
    progress_identity: Sha256.optional(),
    required_inputs: z
      .array(
        z.enum([
          "lineage_id",
          "change",
          "expected_binding_revision",
          "predecessor_lineage_id",
          "expected_predecessor_revision",
          "successor_lineage_id",
          "disposition",
          "reason",
          "actor",
          "incident",
          "maintainer_authorization",
          "base_ref",
        ]),
      )
      .refine((items) => new Set(items).size === items.length, { message: "required_inputs must be unique" }),
    // review.start: gentle-ai 2.4.0 (301fb2ad) names it for a gate's receipt_missing
    // (review_operation_contract.go:1016-1021, real bytes), though its published schema's enum omits it.
    next_action: z.enum([
      "correct_request",
      "retry",
      "retry_with_bounded_backoff",
      "review.start",
      "review.status",
      "review.finalize",
      "review.repair",
      "review.bind_sdd",
      "explicit-maintainer-action",
      "stop",
    ]),
    cause_category: z
      .enum([
        "inventory_io_or_layout",
        "lock_ambiguous",
        "reset_residue",
        "record_or_graph_invalid",
        "inventory_incomplete",
      ])
      .optional(),
    cause: SingleLine.min(1).max(4000).optional(),
    context: GateContext.optional(),
  };
}

interface FailureShape {
  readonly operation: string;
  readonly phase: string;
  readonly code: string;
  readonly mutation_outcome: string;
  readonly authority_applicability: string;
  readonly retry_safe: boolean;
  readonly replayability: string;
  readonly lineage_id?: string | undefined;
  readonly target_identity?: string | undefined;
  readonly request_digest?: string | undefined;
  readonly progress_identity?: string | undefined;
  readonly required_inputs: readonly string[];
  readonly next_action: string;
}

/** The schema's three `allOf` conditionals: repair replay identity and the receipt-publication reconciliation shape. */
function conditionalsHold(f: FailureShape): boolean {
  if (
    f.progress_identity !== undefined &&
    (f.lineage_id === undefined || f.request_digest === undefined || f.operation !== "review.repair")
  )
    return false;
  if (f.request_digest !== undefined && f.operation === "review.repair" && f.progress_identity === undefined)
    return false;
  if (f.code === "receipt_publication_pending") {
    return (
      f.lineage_id !== undefined &&
      f.target_identity !== undefined &&
      f.request_digest !== undefined &&
      f.operation === "review.finalize" &&
      f.phase === "native_committed" &&
      f.mutation_outcome === "committed" &&
      f.authority_applicability === "current_target" &&
      !f.retry_safe &&
      f.replayability === "status_required" &&
      f.required_inputs.length === 1 &&
      f.required_inputs[0] === "lineage_id" &&
      f.next_action === "review.status"
    );
  }
  return true;
}

const CONDITIONALS = { message: "failure violates the schema's replay-identity or reconciliation conditionals" };

/** `gentle-ai.review-integration.failure/v1`: the negotiated operations on the v1 contract. */
export const FailureV1Schema = z
  .strictObject(
    failureFields(
      "gentle-ai.review-integration.failure/v1",
      "gentle-ai.review-integration/v1",
      NEGOTIATED_FAILURE_OPERATIONS,
    ),
  )
  .refine(conditionalsHold, CONDITIONALS);
export type FailureV1 = z.infer<typeof FailureV1Schema>;

/** `gentle-ai.review-integration.failure/v2`: the v2 contract, including the collect-capture verbs. */
export const FailureV2Schema = z
  .strictObject(
    failureFields("gentle-ai.review-integration.failure/v2", "gentle-ai.review-integration/v2", [
      ...NEGOTIATED_FAILURE_OPERATIONS,
      ...CAPTURE_FAILURE_OPERATIONS,
    ]),
  )
  .refine(conditionalsHold, CONDITIONALS);
export type FailureV2 = z.infer<typeof FailureV2Schema>;

/** The failure envelopes the simulator prints. */
export const FAILURE_DOCUMENTS: readonly ProviderDocument[] = [
  {
    id: "gentle-ai.review-integration.failure/v1",
    upstream: "v1/schemas/failure.schema.json",
    schema: FailureV1Schema,
    stricter: [],
  },
  {
    id: "gentle-ai.review-integration.failure/v2",
    upstream: "v2/schemas/failure.schema.json",
    schema: FailureV2Schema,
    stricter: [],
  },
];
