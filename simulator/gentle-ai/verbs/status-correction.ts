// STATUS transitions after the lens slots (provider reference §8.4, §9, §10, §11; issue-279 §6): correction_required
// stages and validating. Argument names follow status-reviewing.ts (snake_case names, hyphenated tokens).
import type { GoJson } from "../../output/go-json.ts";
import { CONTRACT_V2 } from "../../output/envelope.ts";
import type { ProfileTraits } from "../profiles.ts";
import { argument, externalArgument, roleVector } from "./status-context.ts";
import type { StatusContext, StatusExtension } from "./status-context.ts";
import {
  authorityOf,
  capturedEvidence,
  correctionBudget,
  correctionRequestJson,
  validationRequestJson,
  VALIDATION_REQUEST_SCHEMA,
} from "./correction-authority.ts";
import type { Authority } from "./correction-authority.ts";

export const EVIDENCE_SCHEMA_V1 = "https://gentle-ai.dev/schema/review/verification-evidence/v1";
export const VALIDATOR_SCHEMA = "https://gentle-ai.dev/schema/review/validator/v1";
/** 2.2.x-era evidence input schema (issue-279 §6). */
export const EVIDENCE_RECORD_INPUT_SCHEMA_22X = "gentle-ai.review-verification-evidence/v2";

/**
 * Whether the profile renders the v2.4.0 correction shapes (repository-context arguments, submission descriptors,
 * role vectors). The 2.3.0 profile renders the 2.2.x-era shapes of issue-279 §6, per the project brief.
 */
export function modernCorrection(traits: ProfileTraits): boolean {
  return traits.roleVerbs;
}

function collect(reasonCode: string, inputs: GoJson[], extra?: { correction_request: GoJson }): GoJson {
  return { kind: "collect", reason_code: reasonCode, collect: { inputs }, correction_request: extra?.correction_request };
}

function execute(reasonCode: string, args: GoJson[]): GoJson {
  return { kind: "execute", reason_code: reasonCode, execute: { operation: "review.finalize", arguments: args } };
}

function stop(reasonCode: string): GoJson {
  return { kind: "stop", reason_code: reasonCode };
}

/** The negotiated finalize binding tokens shared by the correction submissions and executes. */
function finalizeBinding(a: Authority, target: string, requestHash: string): GoJson[] {
  return [
    argument("contract", CONTRACT_V2),
    argument("lineage", a.lineageId),
    argument("expected_revision", a.revision),
    argument("target", target),
    argument("request_hash", requestHash),
    argument("repository_context", a.repositoryContext),
  ];
}

function tokensOf(args: GoJson[]): string[] {
  return args.map((x) => (x as { token: string }).token);
}

/** The capture-evidence collect input for a target (correction target in correction_required, frozen target in validating). */
function evidenceInput(a: Authority, target: string, modern: boolean): GoJson {
  const args = [argument("lineage", a.lineageId), argument("expected_revision", a.revision), argument("target", target)];
  if (!modern) {
    return { name: "evidence", schema: EVIDENCE_RECORD_INPUT_SCHEMA_22X, capture_operation: "review.capture-evidence", arguments: args };
  }
  args.push(argument("repository_context", a.repositoryContext));
  return {
    name: "evidence",
    schema: EVIDENCE_SCHEMA_V1,
    capture_operation: "review.capture-evidence",
    arguments: args,
    submission: {
      operation_token: "capture-evidence",
      argument_tokens: [...tokensOf(args), "--outcome={{outcome}}", "--input={{input}}"],
      values: [
        {
          slot: "outcome",
          domain: "verification_outcome",
          allowed_values: ["passed", "verification_failed", "procedural_tooling_failed"],
          substitution_location: 4,
        },
        { slot: "input", domain: "artifact_path_or_stdin", schema: EVIDENCE_SCHEMA_V1, substitution_location: 5 },
      ],
    },
  };
}

/** The leading `external.*` binding arguments of a target (the repository context only in the v2.4.0 shapes). */
function externalBinding(a: Authority, target: string, modern: boolean): GoJson[] {
  return [
    externalArgument("lineage", a.lineageId),
    externalArgument("expected_revision", a.revision),
    externalArgument("target", target),
    ...(modern ? [externalArgument("repository_context", a.repositoryContext)] : []),
  ];
}

/** The external targeted-validation input (default, agent-less). */
function targetedValidationInput(a: Authority, modern: boolean): GoJson {
  const args = [
    ...externalBinding(a, a.correctionTargetIdentity, modern),
    externalArgument("purpose", "targeted-validation"),
    externalArgument("request_hash", a.requestHash),
  ];
  const binding = finalizeBinding(a, a.correctionTargetIdentity, a.requestHash);
  return {
    name: "targeted_validation",
    schema: VALIDATION_REQUEST_SCHEMA,
    capture_operation: "external.run_targeted_validation",
    arguments: args,
    submission: modern
      ? {
          operation_token: "finalize",
          argument_tokens: [...tokensOf(binding), "--validation={{value}}", "--captured-evidence=true"],
          value: { slot: "validation", domain: "artifact_path_or_stdin", schema: VALIDATOR_SCHEMA, substitution_location: 6 },
        }
      : undefined,
    validation_request: validationRequestJson(a),
  };
}

/** The `--agent pi` targeted-validator role vector: self-contained, no submission (§9). */
function validatorVector(a: Authority): GoJson {
  return {
    ...roleVector("provider_targeted_validator", VALIDATOR_SCHEMA, "review.capture-validation", [
      argument("lineage", a.lineageId),
      argument("expected_revision", a.revision),
      argument("target", a.correctionTargetIdentity),
      argument("repository_context", a.repositoryContext),
      argument("request_hash", a.requestHash),
    ]),
    validation_request: validationRequestJson(a),
  };
}

/** The correction-plan collect input (external.plan_correction) with its v2.4.0 finalize submission. */
function planInput(a: Authority, modern: boolean): GoJson {
  const args = [...externalBinding(a, a.targetIdentity, modern), externalArgument("request_hash", a.correctionRequestHash)];
  const binding = finalizeBinding(a, a.targetIdentity, a.correctionRequestHash);
  return {
    name: "correction_lines",
    schema: "gentle-ai.review-correction-plan/v1",
    capture_operation: "external.plan_correction",
    arguments: args,
    submission: modern
      ? {
          operation_token: "finalize",
          argument_tokens: [...tokensOf(binding), "--correction-lines={{value}}"],
          value: {
            slot: "correction_lines",
            domain: "positive_correction_lines",
            minimum: 1,
            maximum: correctionBudget(a.ids),
            substitution_location: 6,
          },
        }
      : undefined,
  };
}

function correctionRequired(ctx: StatusContext, a: Authority): StatusExtension {
  const modern = modernCorrection(ctx.traits);
  const c = a.lineage.correction;
  if (c.stage === null || c.stage === "plan_required") {
    return { nextTransition: collect("correction_plan_required", [planInput(a, modern)], { correction_request: correctionRequestJson(a) }) };
  }
  if (c.stage === "candidate_unavailable") return { nextTransition: stop("corrected_candidate_unavailable") };
  // From here the fix diff exists, so the provider-owned targeted validation request is published at the top level.
  const validationRequest = validationRequestJson(a);
  const record = capturedEvidence(a);
  if (record === undefined) {
    return {
      nextTransition: collect("correction_repository_verification_required", [evidenceInput(a, a.correctionTargetIdentity, modern)]),
      validationRequest,
    };
  }
  if (record.outcome === "verification_failed") return { nextTransition: stop("correction_repository_verification_failed"), validationRequest };
  if (record.outcome === "procedural_tooling_failed") {
    // (inferred) arguments: the negotiated binding plus captured evidence discovery.
    const args = [...finalizeBinding(a, a.correctionTargetIdentity, a.requestHash), argument("captured_evidence", "true")];
    return { nextTransition: execute("correction_repository_tooling_failed", args), validationRequest };
  }
  if (modern && ctx.agent === "pi") {
    if (c.validatorCaptured) {
      const args = [...finalizeBinding(a, a.correctionTargetIdentity, a.requestHash), argument("captured_evidence", "true")];
      return { nextTransition: execute("captured_provider_targeted_validation_ready", args), validationRequest };
    }
    return { nextTransition: collect("targeted_validation_required", [validatorVector(a)]), validationRequest };
  }
  return { nextTransition: collect("targeted_validation_required", [targetedValidationInput(a, modern)]), validationRequest };
}

/** (inferred) validating: final repository verification of the frozen target, then a captured-evidence finalize. */
function validating(ctx: StatusContext, a: Authority): StatusExtension {
  const record = capturedEvidence(a);
  if (record === undefined) {
    return { nextTransition: collect("repository_verification_required", [evidenceInput(a, a.targetIdentity, modernCorrection(ctx.traits))]) };
  }
  if (record.outcome === "verification_failed") return { nextTransition: stop("repository_verification_failed") };
  const args = [argument("contract", CONTRACT_V2), argument("lineage", a.lineageId), argument("captured_evidence", "true")];
  return {
    nextTransition: execute(record.outcome === "passed" ? "captured_evidence_ready" : "repository_tooling_failed", args),
  };
}

/**
 * STATUS transition for correction_required, validating and approved lineages. `validationRequest` is set only in
 * correction_required once the corrected candidate exists. Approved is terminal: stop `review_approved` (inferred).
 */
export function correctionStatus(ctx: StatusContext): StatusExtension {
  const a = authorityOf(ctx.invocation.scenario, ctx.lineage);
  if (ctx.lineage.state === "correction_required") return correctionRequired(ctx, a);
  if (ctx.lineage.state === "validating") return validating(ctx, a);
  return { nextTransition: stop("review_approved") };
}
