// `review status` under a negotiated contract: gentle-ai.review-integration.status/v5 (review-integration/v2,
// v2/schemas/status-v5.schema.json) and status/v2 (review-integration/v1, v1/schemas/status-v2.schema.json).
// Field order is Go's (ReviewTargetStatusResult, review_status_contract.go; ReviewNextTransition and its parts,
// review_next_transition.go); the JSON Schemas' conditionals are the refinements below.
import { MANAGED_ACTIONS } from "./managed-actions.ts";
import { z } from "zod";
import type { ProviderDocument } from "./provider-document.ts";
import { ArtifactSubjectV1Schema, ArtifactSubjectV2Schema } from "./artifact-subject.ts";
import { ChangedPathSchema } from "./changed-path.ts";
import { CorrectionPlanRequestSchema } from "./correction-plan-request.ts";
import { ProjectionSchema } from "./projection.ts";
import { RepairAssessmentSchema } from "./repair-assessment.ts";
import { TargetedValidationRequestSchema } from "./targeted-validation-request.ts";
import { GitTree, LineageId, NonNegativeInt, Sha256 } from "./status-formats.ts";

const REVIEWER_SCHEMA = "https://gentle-ai.dev/schema/review/reviewer/v1";
const VALIDATOR_SCHEMA = "https://gentle-ai.dev/schema/review/validator/v1";
const EVIDENCE_SCHEMA = "https://gentle-ai.dev/schema/review/verification-evidence/v1";
const VALIDATION_REQUEST_SCHEMA = "gentle-ai.review-targeted-validation-request/v1";
const ReasonCode = z.string().regex(/^[a-z0-9_]+$/);

type Issue = (message: string) => void;
const issues =
  (ctx: z.RefinementCtx): Issue =>
  (message) =>
    ctx.addIssue({ code: "custom", message });

// --- shared parts (status-v2.schema.json $defs) -------------------------------------------------------------------

const Manifest = z
  .array(ChangedPathSchema)
  .refine((a) => new Set(a.map((x) => JSON.stringify(x))).size === a.length, "manifest entries must be unique");

/** `transition_argument`: the token is present exactly where the argument is argv (a native capture or an execute). */
export const TransitionArgumentSchema = z.strictObject({
  name: z.string().regex(/^[a-z0-9_-]+$/),
  value: z.string().min(1),
  token: z.optional(z.string().min(1)),
});

const ExecutableArgumentSchema = TransitionArgumentSchema.extend({ token: z.string().min(1) });

export const TransitionBindingSchema = z.strictObject({
  lineage_id: z.optional(LineageId),
  revision: z.optional(Sha256),
  target_identity: Sha256,
  repository_context: z.optional(z.string().regex(/^rctx1_[0-9a-f]{64}$/)),
});

export const TransitionArtifactSchema = z.strictObject({
  schema: z.literal("gentle-ai.review-result-artifact/v2"),
  capability: z.literal("review.native_result_artifact"),
  sha256: Sha256,
  lineage_id: LineageId,
  target_identity: Sha256,
  lens: z.string().min(1),
  selected_order: NonNegativeInt,
  subject_hash: Sha256,
  admission_decision: z.literal("completed"),
});

export const TransitionExecutionSchema = z.strictObject({
  operation: z.enum(["review.start", "review.finalize", "review.recover", "review.repair", "review.validate"]),
  command: z.optional(z.string().regex(/^gentle-ai review [a-z][a-z-]*/)),
  arguments: z.array(ExecutableArgumentSchema),
  selector_arguments: z.optional(z.array(TransitionArgumentSchema)),
  preconditions: z.array(TransitionArgumentSchema).min(1),
  binding: TransitionBindingSchema,
  artifacts: z.optional(z.array(TransitionArtifactSchema)),
});

const AuthoritySchema = z.strictObject({
  version: z.enum(["compact-v2", "legacy-v1"]),
  lineage_id: LineageId,
  state: z.string().min(1),
  generation: z.number().int().min(1),
  revision: Sha256,
});

const ReceiptSchema = z.strictObject({
  status: z.enum(["expected_missing", "present", "publication_pending", "not_applicable"]),
  identity: z.optional(Sha256),
});

const FrozenSchema = z.strictObject({
  tier: z.enum(["low", "medium", "high"]),
  original_changed_lines: NonNegativeInt,
  correction_budget: z.number().int().min(0).max(200),
});

const Applicability = z.enum(["current_target", "unrelated", "ambiguous", "corrupted"]);
const Action = z.enum([
  "start",
  "finalize",
  "validate",
  "recover",
  "retry_final_verification",
  "maintainer_action",
  "select_lineage",
  "repair_authority",
  "reconcile_finalize",
  "stop",
]);
const Disposition = z.enum(["scope_changed", "invalidated", "escalated", "final_verification_retry"]);
const Replayability = z.enum(["not_replayable", "exact_replay_safe", "status_required", "manual_action_required"]);
const Candidates = z.array(LineageId).refine((a) => new Set(a).size === a.length, "candidates must be unique");

const ActionEligibilitySchema = z.strictObject({
  allowed_actions: z
    .array(
      z
        .strictObject({
          action: z.enum([
            "stop",
            "review.start",
            "review.finalize",
            "review.validate",
            "review.recover",
            "review.repair",
            "review.retry_final_verification",
          ]),
          reason_code: ReasonCode,
          required_inputs: z.array(ReasonCode),
          disposition: z.optional(Disposition),
          binding: z.optional(z.strictObject({ lineage_id: LineageId, revision: Sha256, target_identity: Sha256 })),
        })
        .superRefine((a, ctx) => {
          const recovery = a.action === "review.recover" || a.action === "review.retry_final_verification";
          if (recovery !== (a.disposition !== undefined) || recovery !== (a.binding !== undefined))
            issues(ctx)("only a recovery action carries, and it must carry, a disposition and a binding");
        }),
    )
    .length(1),
  forbidden_actions: z.array(
    z.strictObject({
      action: z.enum(MANAGED_ACTIONS),
      reason_code: ReasonCode,
    }),
  ),
});

const FinalVerificationRetrySchema = z.strictObject({
  incident_schema: z.literal("gentle-ai.review-final-verification-incident/v1"),
  incident_class: z.literal("procedural_tooling_failure"),
  validating_revision: Sha256,
  target_identity: Sha256,
  failed_evidence_hash: Sha256,
  failed_evidence_record_digest: z.optional(Sha256),
  finalize_request_digest: Sha256,
});

/** The transition-kind and correction-request rules both status versions share (status-v2 next_transition allOf). */
function checkTransition(
  t: { kind: string; reason_code: string; execute?: unknown; collect?: unknown; correction_request?: unknown },
  issue: Issue,
): void {
  if (t.kind === "execute" && (t.execute === undefined || t.collect !== undefined))
    issue("an execute transition carries execute only");
  if (t.kind === "collect" && (t.collect === undefined || t.execute !== undefined))
    issue("a collect transition carries collect only");
  if (t.kind === "stop" && (t.execute !== undefined || t.collect !== undefined))
    issue("a stop transition carries neither execute nor collect");
  const needsRequest =
    t.reason_code === "correction_plan_required" || t.reason_code === "corrected_candidate_unavailable";
  if (needsRequest !== (t.correction_request !== undefined))
    issue("correction_request rides exactly correction_plan_required and corrected_candidate_unavailable");
}

// --- status/v2 (review-integration/v1) ----------------------------------------------------------------------------

const FrozenCandidateDiffSchema = z.strictObject({
  encoding: z.literal("base64"),
  data: z
    .string()
    .max(5592408)
    .regex(/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/),
  sha256: Sha256,
  byte_size: z.number().int().min(0).max(4194304),
});

export const TransitionInputV1Schema = z
  .strictObject({
    name: ReasonCode,
    schema: z.string().min(1),
    capture_operation: z.string().min(1),
    arguments: z.array(TransitionArgumentSchema).min(1),
    artifact_subject: z.optional(ArtifactSubjectV1Schema),
    candidate_diff: z.optional(FrozenCandidateDiffSchema),
    changed_path_manifest: z.optional(Manifest),
    validation_request: z.optional(TargetedValidationRequestSchema),
  })
  .superRefine((i, ctx) => {
    const issue = issues(ctx);
    if (i.capture_operation === "external.run_targeted_validation") {
      if (i.validation_request === undefined || i.schema !== VALIDATION_REQUEST_SCHEMA)
        issue("external.run_targeted_validation carries its validation_request");
    } else if (i.validation_request !== undefined)
      issue("only external.run_targeted_validation carries a validation_request");
    const capture = [i.artifact_subject, i.candidate_diff, i.changed_path_manifest];
    if (i.capture_operation === "review.capture-result") {
      if (capture.some((x) => x === undefined) || i.schema !== REVIEWER_SCHEMA)
        issue("review.capture-result carries artifact_subject, candidate_diff and changed_path_manifest");
    } else if (capture.some((x) => x !== undefined)) issue("only review.capture-result carries capture fields");
  });

export const NextTransitionV1Schema = z
  .strictObject({
    kind: z.enum(["execute", "collect", "stop"]),
    reason_code: ReasonCode,
    execute: z.optional(TransitionExecutionSchema),
    collect: z.optional(z.strictObject({ inputs: z.array(TransitionInputV1Schema).min(1) })),
    correction_request: z.optional(CorrectionPlanRequestSchema),
  })
  .superRefine((t, ctx) => checkTransition(t, issues(ctx)));

const statusFields = {
  operation: z.literal("review.status"),
  applicability: Applicability,
  authority: z.optional(AuthoritySchema),
  receipt: ReceiptSchema,
  action: Action,
  action_disposition: z.optional(Disposition),
  replayability: Replayability,
  frozen: z.optional(FrozenSchema),
  target_identity: Sha256,
  authority_target_identity: z.optional(Sha256),
  projection: ProjectionSchema,
  repair: RepairAssessmentSchema,
  candidates: Candidates,
  reconciliation: z.optional(z.strictObject({ required: z.literal(true) })),
  eligibility: z.optional(ActionEligibilitySchema),
};

/** The document-level rules both versions share (status-v2.schema.json allOf 0-6). */
function checkStatus(
  s: {
    applicability: string;
    authority?: { version: string; state: string } | undefined;
    receipt: { status: string };
    action: string;
    action_disposition?: string | undefined;
    replayability: string;
    frozen?: unknown;
    authority_target_identity?: string | undefined;
    reconciliation?: unknown;
    validation_request?: unknown;
    final_verification_retry?: unknown;
  },
  issue: Issue,
): void {
  if (s.action === "reconcile_finalize") {
    if (s.reconciliation === undefined || s.applicability !== "current_target" || s.replayability !== "status_required")
      issue("reconcile_finalize requires current-target reconciliation with status_required replay");
  } else if (s.reconciliation !== undefined) issue("only reconcile_finalize carries reconciliation");
  const recovery = s.action === "recover" || s.action === "retry_final_verification";
  if (recovery !== (s.action_disposition !== undefined))
    issue("action_disposition rides exactly recover and retry_final_verification");
  if (s.applicability === "current_target") {
    if (s.authority === undefined) issue("a current target carries its authority");
  } else if (s.authority !== undefined || s.frozen !== undefined || s.authority_target_identity !== undefined)
    issue("only a current target carries authority, frozen and authority_target_identity");
  if (s.applicability === "current_target" && s.authority?.version === "compact-v2" && s.frozen === undefined)
    issue("compact authority carries frozen");
  if (s.applicability === "current_target" && s.authority?.version === "legacy-v1") {
    if (s.frozen !== undefined || s.authority_target_identity !== undefined)
      issue("legacy authority carries no compact frozen inputs");
    if (s.receipt.status !== "expected_missing" && s.receipt.status !== "present")
      issue("legacy receipt is expected_missing or present");
  }
  if (
    s.validation_request !== undefined &&
    (s.applicability !== "current_target" || s.authority?.state !== "correction_required")
  )
    issue("validation_request rides only a current correction_required authority");
  if (s.action === "retry_final_verification") {
    if (
      s.final_verification_retry === undefined ||
      s.applicability !== "current_target" ||
      s.authority?.version !== "compact-v2" ||
      s.authority.state !== "escalated" ||
      s.action_disposition !== "final_verification_retry"
    )
      issue("retry_final_verification requires an escalated compact authority and its retry eligibility");
  } else if (s.final_verification_retry !== undefined)
    issue("only retry_final_verification carries final_verification_retry");
}

export const StatusV2Schema = z
  .strictObject({
    schema: z.literal("gentle-ai.review-integration.status/v2"),
    contract: z.literal("gentle-ai.review-integration/v1"),
    ...statusFields,
    next_transition: z.optional(NextTransitionV1Schema),
    validation_request: z.optional(TargetedValidationRequestSchema),
    final_verification_retry: z.optional(FinalVerificationRetrySchema),
  })
  .superRefine((s, ctx) => checkStatus(s, issues(ctx)));
export type StatusV2 = z.infer<typeof StatusV2Schema>;

// --- status/v5 (review-integration/v2) ----------------------------------------------------------------------------

const CONTEXT_TOKEN = /^--repository-context=rctx1_[0-9a-f]{64}$/;
const tokenRules = {
  lineage: /^--lineage=\S+$/,
  revision: /^--expected-revision=sha256:[0-9a-f]{64}$/,
  target: /^--target=sha256:[0-9a-f]{64}$/,
  requestHash: /^--request-hash=sha256:[0-9a-f]{64}$/,
};

function tokensMatch(tokens: readonly string[], rules: readonly (RegExp | string)[]): boolean {
  return (
    tokens.length === rules.length &&
    rules.every((r, i) => (typeof r === "string" ? tokens[i] === r : r.test(tokens[i]!)))
  );
}

const FINALIZE_PREFIX = [
  "--contract=gentle-ai.review-integration/v2",
  tokenRules.lineage,
  tokenRules.revision,
  tokenRules.target,
  tokenRules.requestHash,
  CONTEXT_TOKEN,
];

/** `submission_value` (the finalize descriptor's singular value). */
const SubmissionValueSchema = z
  .strictObject({
    slot: z.enum(["correction_lines", "validation"]),
    domain: z.string().min(1),
    schema: z.optional(z.string().min(1)),
    minimum: z.optional(z.number().int().min(1).max(200)),
    maximum: z.optional(z.number().int().min(1).max(200)),
    substitution_location: z.literal(6),
  })
  .superRefine((v, ctx) => {
    const issue = issues(ctx);
    if (
      v.slot === "correction_lines" &&
      (v.minimum === undefined ||
        v.maximum === undefined ||
        v.domain !== "positive_correction_lines" ||
        v.schema !== undefined)
    )
      issue("a correction_lines value is positive_correction_lines with minimum and maximum and no schema");
    if (
      v.slot === "validation" &&
      (v.schema !== VALIDATOR_SCHEMA ||
        v.domain !== "artifact_path_or_stdin" ||
        v.minimum !== undefined ||
        v.maximum !== undefined)
    )
      issue("a validation value is an artifact_path_or_stdin validator document without bounds");
  });

/** `submission_descriptor`: the finalize form of external.plan_correction and external.run_targeted_validation. */
const FinalizeSubmissionSchema = z
  .strictObject({
    operation_token: z.literal("finalize"),
    argument_tokens: z
      .array(
        z
          .string()
          .min(1)
          .regex(/^--\S+$/),
      )
      .min(7)
      .max(8),
    value: SubmissionValueSchema,
  })
  .superRefine((d, ctx) => {
    const issue = issues(ctx);
    if (
      d.value.slot === "correction_lines" &&
      !tokensMatch(d.argument_tokens, [...FINALIZE_PREFIX, "--correction-lines={{value}}"])
    )
      issue("the correction-lines descriptor is the six binding tokens plus --correction-lines={{value}}");
    if (
      d.value.slot === "validation" &&
      !tokensMatch(d.argument_tokens, [...FINALIZE_PREFIX, "--validation={{value}}", "--captured-evidence=true"])
    )
      issue("the validation descriptor is the six binding tokens plus --validation={{value}} --captured-evidence=true");
  });

const CaptureEvidenceSubmissionSchema = z.strictObject({
  operation_token: z.literal("capture-evidence"),
  argument_tokens: z
    .array(z.string())
    .refine(
      (t) =>
        tokensMatch(t, [
          tokenRules.lineage,
          tokenRules.revision,
          tokenRules.target,
          CONTEXT_TOKEN,
          "--outcome={{outcome}}",
          "--input={{input}}",
        ]),
      "capture-evidence tokens",
    ),
  values: z.tuple([
    z.strictObject({
      slot: z.literal("outcome"),
      domain: z.literal("verification_outcome"),
      allowed_values: z.tuple([
        z.literal("passed"),
        z.literal("verification_failed"),
        z.literal("procedural_tooling_failed"),
      ]),
      substitution_location: z.literal(4),
    }),
    z.strictObject({
      slot: z.literal("input"),
      domain: z.literal("artifact_path_or_stdin"),
      schema: z.literal(EVIDENCE_SCHEMA),
      substitution_location: z.literal(5),
    }),
  ]),
});

const CaptureResultSubmissionSchema = z.strictObject({
  operation_token: z.literal("capture-result"),
  argument_tokens: z
    .array(z.string())
    .refine(
      (t) =>
        tokensMatch(t, [
          tokenRules.lineage,
          tokenRules.revision,
          tokenRules.target,
          CONTEXT_TOKEN,
          /^--lens=\S+$/,
          /^--order=[0-9]+$/,
          /^--subject-hash=sha256:[0-9a-f]{64}$/,
          "--input={{value}}",
        ]),
      "capture-result tokens are the seven binding tokens plus --input={{value}}",
    ),
  value: z.strictObject({
    slot: z.literal("reviewer_result"),
    domain: z.literal("artifact_path_or_stdin"),
    schema: z.literal(REVIEWER_SCHEMA),
    substitution_location: z.literal(7),
  }),
});

/** The three descriptor forms are told apart by their operation token (the schema's `oneOf`). */
const SubmissionSchema = z.union([
  FinalizeSubmissionSchema,
  CaptureEvidenceSubmissionSchema,
  CaptureResultSubmissionSchema,
]);

const ProviderTaskSchema = z.strictObject({
  agent: z.enum(["review-refuter", "review-validator"]),
  role: z.enum(["refuter", "targeted-validator"]),
  prompt: z.string().min(1),
});

const SUBMISSION_OPERATIONS = new Set([
  "external.plan_correction",
  "external.run_targeted_validation",
  "review.capture-evidence",
  "review.capture-result",
]);

export const TransitionInputV5Schema = z
  .strictObject({
    name: ReasonCode,
    schema: z.string().min(1),
    capture_operation: z.string().min(1),
    arguments: z.array(TransitionArgumentSchema).min(1),
    provider_task: z.optional(ProviderTaskSchema),
    submission: z.optional(SubmissionSchema),
    artifact_subject: z.optional(ArtifactSubjectV2Schema),
    base_tree: z.optional(GitTree),
    candidate_tree: z.optional(GitTree),
    changed_path_manifest: z.optional(Manifest),
    validation_request: z.optional(TargetedValidationRequestSchema),
  })
  .superRefine((i, ctx) => {
    const issue = issues(ctx);
    const op = i.capture_operation;
    const opToken = i.submission?.operation_token;
    if (
      op === "external.run_targeted_validation" &&
      (i.validation_request === undefined || i.submission === undefined || i.schema !== VALIDATION_REQUEST_SCHEMA)
    )
      issue("external.run_targeted_validation carries its validation_request and submission");
    if (op === "review.capture-validation" && i.validation_request === undefined)
      issue("review.capture-validation carries its validation_request");
    if (
      op !== "external.run_targeted_validation" &&
      op !== "review.capture-validation" &&
      i.validation_request !== undefined
    )
      issue("only the targeted-validation inputs carry a validation_request");
    if (
      op === "external.plan_correction" &&
      (i.submission === undefined || i.schema !== "gentle-ai.review-correction-plan/v1")
    )
      issue("external.plan_correction carries its submission");
    if (
      op === "review.capture-evidence" &&
      (i.submission === undefined || i.schema !== EVIDENCE_SCHEMA || opToken !== "capture-evidence")
    )
      issue("review.capture-evidence carries the capture-evidence submission");
    if (!SUBMISSION_OPERATIONS.has(op) && i.submission !== undefined) issue(`${op} carries no submission`);
    const capture = [i.artifact_subject, i.base_tree, i.candidate_tree, i.changed_path_manifest];
    if (op === "review.capture-result") {
      if (
        capture.some((x) => x === undefined) ||
        i.schema !== REVIEWER_SCHEMA ||
        (i.submission !== undefined && opToken !== "capture-result")
      )
        issue("review.capture-result carries artifact_subject, base_tree, candidate_tree and changed_path_manifest");
    } else if (capture.some((x) => x !== undefined)) issue("only review.capture-result carries capture fields");
    if ((op === "external.run_provider_role") !== (i.provider_task !== undefined))
      issue("provider_task rides exactly external.run_provider_role");
  });

const oneInput = (
  inputs: readonly { capture_operation: string }[] | undefined,
  ok: (op: string, i: never) => boolean,
): boolean => inputs !== undefined && inputs.length === 1 && ok(inputs[0]!.capture_operation, inputs[0] as never);

export const NextTransitionV5Schema = z
  .strictObject({
    kind: z.enum(["execute", "collect", "stop"]),
    reason_code: ReasonCode,
    execute: z.optional(TransitionExecutionSchema),
    collect: z.optional(z.strictObject({ inputs: z.array(TransitionInputV5Schema).min(1) })),
    correction_request: z.optional(CorrectionPlanRequestSchema),
  })
  .superRefine((t, ctx) => {
    const issue = issues(ctx);
    checkTransition(t, issue);
    const inputs = t.collect?.inputs;
    if (
      t.reason_code === "correction_plan_required" &&
      (t.kind !== "collect" || !oneInput(inputs, (op) => op === "external.plan_correction"))
    )
      issue("correction_plan_required collects one external.plan_correction input");
    if (
      t.reason_code === "targeted_validation_required" &&
      (t.kind !== "collect" ||
        !oneInput(
          inputs,
          (op, i: { provider_task?: unknown; validation_request?: unknown }) =>
            op === "external.run_targeted_validation" ||
            (op === "external.run_provider_role" && i.provider_task !== undefined) ||
            (op === "review.capture-validation" && i.validation_request !== undefined),
        ))
    )
      issue("targeted_validation_required collects one targeted-validation input");
    if (
      (t.reason_code === "verification_evidence_required" ||
        t.reason_code === "correction_repository_verification_required") &&
      (t.kind !== "collect" || !oneInput(inputs, (op) => op === "review.capture-evidence"))
    )
      issue(`${t.reason_code} collects one review.capture-evidence input`);
  });

export const ForecastSchema = z
  .strictObject({
    horizon: z.enum(["partial", "terminal"]),
    steps: z
      .array(
        z.strictObject({
          step: z.literal(1),
          kind: z.enum(["execute", "collect", "stop"]),
          reason_code: ReasonCode,
          description: z.string().min(1),
        }),
      )
      .length(1),
  })
  .superRefine((f, ctx) => {
    if ((f.horizon === "terminal") !== (f.steps[0]?.kind === "stop"))
      issues(ctx)("a stop head is terminal, any other head partial");
  });

export const RepositoryContextSchema = z
  .strictObject({
    capability: z.literal("review.opaque_repository_context"),
    handle: z.string().regex(/^rctx1_[0-9a-f]{64}$/),
    revision: Sha256,
    target_identity: Sha256,
    event_id: z.optional(Sha256),
    outcome: z.optional(z.enum(["applied", "pending", "blocked_conflict", "durability_limited"])),
  })
  .superRefine((r, ctx) => {
    if ((r.event_id === undefined) !== (r.outcome === undefined)) issues(ctx)("event_id and outcome travel together");
  });

export const StatusV5Schema = z
  .strictObject({
    schema: z.literal("gentle-ai.review-integration.status/v5"),
    contract: z.literal("gentle-ai.review-integration/v2"),
    ...statusFields,
    disposition: z.optional(
      z.strictObject({
        plan_digest: Sha256,
        authority_inventory_revision: Sha256,
        seed_lineage_id: z.optional(z.string().min(1).max(128)),
        seed_expected_revision: z.optional(Sha256),
      }),
    ),
    forecast: z.optional(ForecastSchema),
    next_transition: z.optional(NextTransitionV5Schema),
    repository_context: z.optional(RepositoryContextSchema),
    validation_request: z.optional(TargetedValidationRequestSchema),
    final_verification_retry: z.optional(FinalVerificationRetrySchema),
  })
  .superRefine((s, ctx) => {
    const issue = issues(ctx);
    checkStatus(s, issue);
    if (s.forecast !== undefined && s.next_transition === undefined) issue("a forecast requires next_transition");
  });
export type StatusV5 = z.infer<typeof StatusV5Schema>;

export const STATUS_DOCUMENTS: readonly ProviderDocument[] = [
  {
    id: "gentle-ai.review-integration.status/v5",
    upstream: "v2/schemas/status-v5.schema.json",
    schema: StatusV5Schema,
    stricter: [],
  },
  {
    id: "gentle-ai.review-integration.status/v2",
    upstream: "v1/schemas/status-v2.schema.json",
    schema: StatusV2Schema,
    stricter: [],
  },
];
