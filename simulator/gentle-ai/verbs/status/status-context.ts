// The transition vocabulary of STATUS (review_next_transition.go): arguments and their argv tokens, the binding, the
// execute / collect / stop forms with their command line, the forecast, and what a transition renderer is handed.
// Pure functions of their inputs; where the facts come from is status-facts.ts's business.
import type { z } from "zod";
import { goMarshal } from "../../../go/go-json.ts";
import type {
  ForecastSchema,
  NextTransitionV1Schema,
  NextTransitionV5Schema,
  TransitionArtifactSchema,
  TransitionInputV1Schema,
  TransitionInputV5Schema,
} from "../../../contract/status.ts";
import type { CorrectionPlanRequest } from "../../../contract/correction-plan-request.ts";
import type { TargetedValidationRequest } from "../../../contract/targeted-validation-request.ts";

export type NextTransition = z.infer<typeof NextTransitionV5Schema> | z.infer<typeof NextTransitionV1Schema>;
export type TransitionInputV5 = z.infer<typeof TransitionInputV5Schema>;
export type TransitionInput = TransitionInputV5 | z.infer<typeof TransitionInputV1Schema>;
export type TransitionArtifact = z.infer<typeof TransitionArtifactSchema>;
export type Forecast = z.infer<typeof ForecastSchema>;

/** ReviewTransitionArgument: `token` only where the argument is argv. */
export interface TransitionArgument {
  readonly [key: string]: string | undefined;
  readonly name: string;
  readonly value: string;
  readonly token?: string;
}

/** ReviewTransitionBinding; empty strings are omitted when rendered (omitempty). */
export interface Binding {
  readonly lineageId: string;
  readonly revision: string;
  readonly targetIdentity: string;
  readonly repositoryContext: string;
}

export const REVIEWER_SCHEMA = "https://gentle-ai.dev/schema/review/reviewer/v1";
export const REFUTER_SCHEMA = "https://gentle-ai.dev/schema/review/refuter/v1";
export const VALIDATOR_SCHEMA = "https://gentle-ai.dev/schema/review/validator/v1";
export const EVIDENCE_SCHEMA_V1 = "https://gentle-ai.dev/schema/review/verification-evidence/v1";
/** reviewtransaction.VerificationEvidenceRecordSchema: the evidence input's schema outside review-integration/v2. */
export const EVIDENCE_RECORD_SCHEMA = "gentle-ai.review-verification-evidence/v2";
export const SUBMISSION_VALUE = "{{value}}";

/** An untokenized argument (preconditions, external.* inputs). */
export function arg(name: string, value: string): TransitionArgument {
  return { name, value };
}

/** reviewTransitionArgumentToken: `--` + name with `_`→`-` + `=` + value. */
export function tokenOf(a: TransitionArgument): string {
  return `--${a.name.replace(/_/g, "-")}=${a.value}`;
}

/** reviewTokenizedTransitionArguments: every argument with its token. */
export function tokenized(args: readonly TransitionArgument[]): TransitionArgument[] {
  return args.map((a) => ({ name: a.name, value: a.value, token: tokenOf(a) }));
}

/** reviewBindingArguments: lineage, expected-revision, target. */
export function bindingArguments(b: Binding): TransitionArgument[] {
  return [arg("lineage", b.lineageId), arg("expected-revision", b.revision), arg("target", b.targetIdentity)];
}

/** The binding as printed: lineage_id, revision, target_identity, repository_context (omitempty). */
export function bindingJson(b: Binding): { [key: string]: string | undefined } {
  return {
    lineage_id: b.lineageId || undefined,
    revision: b.revision || undefined,
    target_identity: b.targetIdentity,
    repository_context: b.repositoryContext || undefined,
  };
}

/** The runnable verb of a transition operation (reviewIntegrationOperationRegistry's Command). */
const OPERATION_VERBS: Readonly<Record<string, string>> = {
  "review.start": "start",
  "review.finalize": "finalize",
  "review.validate": "validate",
  "review.recover": "recover",
  "review.repair": "repair",
};

/** pathquote.ShellWord: safe words stay bare, anything else is POSIX single-quoted. */
export function shellWord(value: string): string {
  if (value !== "" && /^[A-Za-z0-9\-_=./:,+@]+$/.test(value)) return value;
  return "'" + value.replace(/'/g, "'\\''") + "'";
}

/** reviewTransitionCommandLine: `gentle-ai review <verb>` plus every token, shell-quoted where needed. */
export function commandLine(operation: string, args: readonly TransitionArgument[]): string | undefined {
  const verb = OPERATION_VERBS[operation];
  if (verb === undefined || args.some((a) => a.token === undefined)) return undefined;
  return ["gentle-ai", "review", verb, ...args.map((a) => shellWord(a.token!))].join(" ");
}

/**
 * reviewExecuteTransition: tokenized arguments, command, the selector arguments (only where the caller sets them),
 * preconditions, binding, artifacts (omitempty).
 */
export function executeTransition(
  reason: string,
  operation: "review.start" | "review.finalize" | "review.validate",
  args: readonly TransitionArgument[],
  preconditions: readonly TransitionArgument[],
  binding: Binding,
  artifacts: readonly TransitionArtifact[] = [],
  selectors?: readonly TransitionArgument[],
): NextTransition {
  const argv = tokenized(args);
  return {
    kind: "execute",
    reason_code: reason,
    execute: {
      operation,
      command: commandLine(operation, argv),
      arguments: argv as { name: string; value: string; token: string }[],
      selector_arguments: selectors?.map((p) => ({ name: p.name, value: p.value })),
      preconditions: preconditions.map((p) => ({ name: p.name, value: p.value })),
      binding: bindingJson(binding) as { target_identity: string },
      artifacts: artifacts.length === 0 ? undefined : [...artifacts],
    },
  };
}

/** reviewCollectTransition: arguments of a native (`review.*`) capture are tokenized, `external.*` ones are not. */
export function collectTransition(reason: string, ...inputs: TransitionInput[]): NextTransition {
  const collected = inputs.map((i) =>
    i.capture_operation.startsWith("review.") ? { ...i, arguments: tokenized(i.arguments) } : i,
  );
  return { kind: "collect", reason_code: reason, collect: { inputs: collected } } as NextTransition;
}

/** reviewStopTransition: no command-shaped data. */
export function stopTransition(reason: string): NextTransition {
  return { kind: "stop", reason_code: reason };
}

/** reviewReasonDescription (review_next_transition.go:1215-1271). */
const REASON_DESCRIPTIONS: Readonly<Record<string, string>> = {
  fresh_target_ready: "Target is unreviewed and ready for initial review start",
  captured_results_ready: "Captured reviewer results are complete and ready for finalization",
  native_low_risk_verification: "Low risk candidate eligible for native verification",
  approved_receipt_ready: "Review is approved and receipt is ready for gate validation",
  exact_receipt_replay: "Exact receipt replay safe for finalization",
  lineage_selection_required: "Multiple lineages match target; select an explicit lineage",
  reviewer_results_required: "Reviewer lens artifacts required for current revision",
  targeted_validation_required: "Targeted validation run required for correction plan",
  targeted_validation_inconclusive_recapture_required:
    "Captured targeted validation produced no verdict and consumed no correction attempt; restore validator access to the frozen candidate and run it again",
  correction_plan_required: "Correction plan required to resolve review findings",
  verification_evidence_required: "Verification evidence required prior to finalization",
  delivery_gate_required: "Delivery gate selection required before validation",
  staged_delivery_candidate_required: "The staged delivery candidate must exactly match the approved review",
  staged_workspace_overlay_recovery_unavailable: "Staged workspace overlay recovery is unavailable",
  empty_base_diff_bootstrap_required: "Committed base-diff has no paths; empty-root bootstrap is required",
  lens_context_budget_exceeded: "Frozen reviewer context exceeds the native evidence budget",
  corrupted_or_unverifiable_authority: "Review authority is corrupted or unverifiable",
  missing_authority_binding: "Target authority binding is missing",
  original_finalize_request_required: "Original finalize request is required to reconcile",
  unchanged_or_unverified_authority: "Authority requires a changed or verified candidate",
  native_stop_required: "Native stop transition required by authority",
  captured_artifacts_unverifiable: "Captured artifacts failed verification or are missing",
  corrected_candidate_unavailable: "Corrected candidate is unavailable for forecasted correction",
  pre_pr_selector_unrepresentable: "Selected base-ref cannot be represented for pre-PR gate",
  manual_intervention_required: "Manual intervention is required to proceed",
};

/** newReviewForecast: one step, terminal for a stop head, partial otherwise. */
export function forecastOf(t: NextTransition): Forecast {
  return {
    horizon: t.kind === "stop" ? "terminal" : "partial",
    steps: [
      {
        step: 1,
        kind: t.kind,
        reason_code: t.reason_code,
        description: REASON_DESCRIPTIONS[t.reason_code] ?? t.reason_code.replace(/_/g, " "),
      },
    ],
  };
}

/** A provider role of the non-lens vectors (reviewerprovider roles). */
export type ProviderRole = "refuter" | "targeted-validator";

/** What the transition renderers are handed (reviewNextTransitionInput, reduced to what the simulator models). */
export interface TransitionContext {
  /** `--contract`: review-integration/v1 or /v2. */
  readonly contract: string;
  /** The admitted `--agent` runtime ("" when none, always "" on review-integration/v1). */
  readonly runtime: string;
  /** The runtime's transport is the Pi host relay (pi admitted under the handshake). */
  readonly hostRelay: boolean;
  /** The published repository-context handle ("" when none was published). */
  readonly repositoryContext: string;
  /**
   * The contract the correction inputs are rendered for: review-integration/v1 renders the record-schema evidence
   * input and binding-only arguments without submissions, which is also what profile 2.3.0 renders (the 2.2.x-era
   * shapes of issue-279 §6).
   */
  readonly correctionContract: string;
  readonly providerRole: ProviderRole | "";
  readonly capturedProviderTargetedValidator: boolean;
  readonly validationRequest: TargetedValidationRequest | undefined;
  readonly correctionRequest: CorrectionPlanRequest | undefined;
  readonly correctionForecasted: boolean;
  /** Outcome of the captured verification evidence, when one is recorded. */
  readonly capturedEvidenceOutcome: string | undefined;
  /** START's lineage for a fresh target ("" when none). */
  readonly startLineage: string;
  readonly intendedUntracked: {
    readonly declared: boolean;
    readonly intended: readonly string[];
    readonly digest: string;
  };
  readonly rddEnabled: boolean;
  /** The repository root START's `--cwd` names. */
  readonly repositoryRoot: string;
}

/** reviewProviderRoleInputName: `provider_` + the role with `-`→`_`. */
export function providerRoleInputName(role: ProviderRole): string {
  return "provider_" + role.replace(/-/g, "_");
}

/** reviewProviderTask (review_provider_roles.go:45): the opaque OpenCode task over the binding. */
export function providerTask(
  role: ProviderRole,
  b: Binding,
): { agent: "review-refuter" | "review-validator"; role: ProviderRole; prompt: string } {
  const payload = goMarshal({
    lineage_id: b.lineageId,
    revision: b.revision,
    target_identity: b.targetIdentity,
    repository_context: b.repositoryContext,
    role,
  });
  return {
    agent: role === "refuter" ? "review-refuter" : "review-validator",
    role,
    prompt: `GENTLE_AI_REVIEW_PROVIDER_TASK ${payload}`,
  };
}

/**
 * reviewProviderRoleTransition: the Pi host relay gets the self-contained `--agent=pi --execute=true` vector (no
 * submission); other role hosts (OpenCode) get the external.run_provider_role task. Either needs the repository
 * context, else the transition stops at captured_artifacts_unverifiable.
 */
export function providerRoleTransition(
  reason: string,
  b: Binding,
  role: ProviderRole,
  ctx: TransitionContext,
  validation: TargetedValidationRequest | undefined,
): NextTransition {
  if (b.repositoryContext === "" || b.lineageId === "") return stopTransition("captured_artifacts_unverifiable");
  const base = [...bindingArguments(b), arg("repository-context", b.repositoryContext)];
  if (ctx.hostRelay) {
    if (role === "refuter") {
      return collectTransition(reason, {
        name: providerRoleInputName(role),
        schema: REFUTER_SCHEMA,
        capture_operation: "review.capture-refuter",
        arguments: [...base, arg("agent", ctx.runtime), arg("execute", "true")],
      });
    }
    if (validation === undefined) return stopTransition("captured_artifacts_unverifiable");
    return collectTransition(reason, {
      name: providerRoleInputName(role),
      schema: VALIDATOR_SCHEMA,
      capture_operation: "review.capture-validation",
      arguments: [
        ...base,
        arg("request-hash", validation.request_hash),
        arg("agent", ctx.runtime),
        arg("execute", "true"),
      ],
      validation_request: validation,
    });
  }
  return collectTransition(reason, {
    name: providerRoleInputName(role),
    schema: role === "refuter" ? REFUTER_SCHEMA : VALIDATOR_SCHEMA,
    capture_operation: "external.run_provider_role",
    arguments: [...base, arg("agent", "opencode"), arg("role", role)],
    provider_task: providerTask(role, b),
  });
}
