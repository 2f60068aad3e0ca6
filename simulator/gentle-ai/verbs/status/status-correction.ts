// STATUS next_transition after the lens slots (review_next_transition.go: newReviewNextTransition's
// StateCorrectionRequired, StateValidating and StateApproved branches, reviewCaptureEvidenceInput, the correction-plan
// and targeted-validation collections and their finalize submission descriptors).
import type { TargetedValidationRequest } from "../../../contract/targeted-validation-request.ts";
import type { ProfileTraits } from "../../profiles.ts";
import {
  arg,
  bindingArguments,
  collectTransition,
  EVIDENCE_RECORD_SCHEMA,
  EVIDENCE_SCHEMA_V1,
  executeTransition,
  providerRoleTransition,
  stopTransition,
  SUBMISSION_VALUE,
  tokenOf,
  VALIDATOR_SCHEMA,
} from "./status-context.ts";
import type { Binding, NextTransition, TransitionContext, TransitionInput } from "./status-context.ts";
import type { AuthorityFacts } from "./status-model.ts";
import { CONTRACT_V2 } from "../../../output/envelope.ts";

const VALIDATION_REQUEST_SCHEMA = "gentle-ai.review-targeted-validation-request/v1";

/**
 * Whether the profile renders the review-integration/v2 correction shapes (repository-context arguments,
 * submission descriptors, role vectors). Profile 2.3.0 renders the 2.2.x-era shapes of issue-279 §6, which are
 * the shapes gentle-ai renders for review-integration/v1.
 */
export function modernCorrection(traits: ProfileTraits): boolean {
  return traits.roleVerbs;
}

/** The six negotiated finalize binding tokens a correction submission descriptor starts with. */
function finalizeBindingTokens(contract: string, b: Binding, requestHash: string): string[] {
  return [
    arg("contract", contract),
    arg("lineage", b.lineageId),
    arg("expected-revision", b.revision),
    arg("target", b.targetIdentity),
    arg("request-hash", requestHash),
    arg("repository-context", b.repositoryContext),
  ].map(tokenOf);
}

/** reviewCaptureEvidenceInput (review_next_transition.go:728) with its capture-evidence submission. */
function evidenceInput(contract: string, b: Binding): TransitionInput {
  const args = bindingArguments(b);
  if (contract !== CONTRACT_V2)
    return {
      name: "evidence",
      schema: EVIDENCE_RECORD_SCHEMA,
      capture_operation: "review.capture-evidence",
      arguments: args,
    };
  args.push(arg("repository-context", b.repositoryContext));
  return {
    name: "evidence",
    schema: EVIDENCE_SCHEMA_V1,
    capture_operation: "review.capture-evidence",
    arguments: args,
    submission:
      b.repositoryContext === ""
        ? undefined
        : {
            operation_token: "capture-evidence",
            argument_tokens: [...bindingArguments(b), arg("repository-context", b.repositoryContext)]
              .map(tokenOf)
              .concat("--outcome={{outcome}}", "--input={{input}}"),
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
  } as TransitionInput;
}

/** reviewTargetedValidationCollection: the external validation input and its `--validation` finalize descriptor. */
function targetedValidationCollection(
  reason: string,
  contract: string,
  b: Binding,
  request: TargetedValidationRequest,
): NextTransition {
  const args = bindingArguments(b);
  if (contract === CONTRACT_V2)
    args.push(
      arg("repository-context", b.repositoryContext),
      arg("purpose", "targeted-validation"),
      arg("request-hash", request.request_hash),
    );
  const submission =
    contract !== CONTRACT_V2 || b.repositoryContext === ""
      ? undefined
      : {
          operation_token: "finalize" as const,
          argument_tokens: [
            ...finalizeBindingTokens(contract, b, request.request_hash),
            `--validation=${SUBMISSION_VALUE}`,
            "--captured-evidence=true",
          ],
          value: {
            slot: "validation" as const,
            domain: "artifact_path_or_stdin",
            schema: VALIDATOR_SCHEMA,
            substitution_location: 6 as const,
          },
        };
  return collectTransition(reason, {
    name: "targeted_validation",
    schema: VALIDATION_REQUEST_SCHEMA,
    capture_operation: "external.run_targeted_validation",
    arguments: args,
    submission,
    validation_request: request,
  });
}

/**
 * The correction-plan collection with its `--correction-lines` finalize descriptor (reviewCorrectionPlanSubmission).
 */
function correctionPlanTransition(a: AuthorityFacts, contract: string, b: Binding): NextTransition {
  const request = a.correction!.correctionRequest!;
  const submission =
    contract !== CONTRACT_V2 || b.repositoryContext === ""
      ? undefined
      : {
          operation_token: "finalize" as const,
          argument_tokens: [
            ...finalizeBindingTokens(contract, b, request.request_hash),
            `--correction-lines=${SUBMISSION_VALUE}`,
          ],
          value: {
            slot: "correction_lines" as const,
            domain: "positive_correction_lines",
            minimum: 1,
            maximum: request.correction_budget,
            substitution_location: 6 as const,
          },
        };
  const t = collectTransition("correction_plan_required", {
    name: "correction_lines",
    schema: "gentle-ai.review-correction-plan/v1",
    capture_operation: "external.plan_correction",
    arguments: bindingArguments(b),
    submission,
  });
  return { ...t, correction_request: request };
}

/** newReviewNextTransition's StateCorrectionRequired branch (without recovery, which the simulator never reaches). */
function correctionRequired(a: AuthorityFacts, b: Binding, ctx: TransitionContext): NextTransition {
  const c = a.correction!;
  const request = ctx.validationRequest;
  const contract = ctx.correctionContract;
  if (request !== undefined) {
    const vb: Binding = { ...b, targetIdentity: request.correction_target_identity };
    if (ctx.capturedEvidenceOutcome === undefined)
      return collectTransition("correction_repository_verification_required", evidenceInput(contract, vb));
    if (ctx.providerRole === "targeted-validator")
      return providerRoleTransition("targeted_validation_required", vb, "targeted-validator", ctx, request);
    if (ctx.capturedProviderTargetedValidator) {
      if (contract !== CONTRACT_V2 || vb.repositoryContext === "")
        return stopTransition("captured_artifacts_unverifiable");
      return executeTransition(
        "captured_provider_targeted_validation_ready",
        "review.finalize",
        [
          arg("contract", contract),
          arg("lineage", vb.lineageId),
          arg("expected-revision", vb.revision),
          arg("target", vb.targetIdentity),
          arg("request-hash", request.request_hash),
          arg("repository-context", vb.repositoryContext),
          arg("captured-evidence", "true"),
        ],
        [
          arg("state", "correction_required"),
          arg("verification_outcome", "passed"),
          arg("provider_targeted_validator", "captured"),
        ],
        vb,
      );
    }
    switch (ctx.capturedEvidenceOutcome) {
      case "verification_failed":
        return stopTransition("correction_repository_verification_failed");
      case "procedural_tooling_failed":
        return executeTransition(
          "correction_repository_tooling_failed",
          "review.finalize",
          [arg("lineage", b.lineageId), arg("captured_evidence", "true")],
          [arg("state", "correction_required"), arg("verification_outcome", "procedural_tooling_failed")],
          vb,
        );
      case "passed":
        return targetedValidationCollection("targeted_validation_required", contract, vb, request);
      default:
        return stopTransition("captured_verification_evidence_invalid");
    }
  }
  if (c.correctionRequest === undefined) return stopTransition("corrupted_or_unverifiable_authority");
  if (ctx.correctionForecasted)
    return { ...stopTransition("corrected_candidate_unavailable"), correction_request: c.correctionRequest };
  return correctionPlanTransition(a, contract, b);
}

/**
 * StateValidating: captured evidence decides the finalize, a low tier verifies natively, else evidence is collected.
 */
function validating(a: AuthorityFacts, b: Binding, ctx: TransitionContext): NextTransition {
  const outcome = ctx.capturedEvidenceOutcome;
  if (outcome !== undefined) {
    const reason =
      outcome === "passed"
        ? "captured_verification_evidence_passed"
        : outcome === "verification_failed"
          ? "captured_verification_failed"
          : outcome === "procedural_tooling_failed"
            ? "captured_verification_tooling_failed"
            : undefined;
    if (reason === undefined) return stopTransition("captured_verification_evidence_invalid");
    return executeTransition(
      reason,
      "review.finalize",
      [arg("lineage", b.lineageId), arg("captured_evidence", "true")],
      [arg("state", "validating"), arg("verification_outcome", outcome)],
      b,
    );
  }
  if (a.tier === "low")
    return executeTransition(
      "native_low_risk_verification",
      "review.finalize",
      [arg("lineage", b.lineageId)],
      [arg("state", "validating"), arg("risk_level", "low")],
      b,
    );
  return collectTransition("verification_evidence_required", evidenceInput(ctx.correctionContract, b));
}

/** StateApproved with its receipt published: the exact FINALIZE retry that burns the compact authority. */
function approved(b: Binding): NextTransition {
  return executeTransition(
    "approved_compact_burn_required",
    "review.finalize",
    [arg("lineage", b.lineageId)],
    [arg("state", "approved"), arg("receipt", "published")],
    b,
  );
}

/**
 * StateApproved with its receipt present, before the burn (301fb2ad review_next_transition.go:341-373): the deciding
 * gate, once at pre-commit the staged candidate is the approved one (`stagedExact`, AssessCompactGateTarget; undefined
 * at any other gate, which is not assessed). (inferred scope limit) pre-push and pre-pr base selectors are not carried.
 */
export function approvedGateTransition(b: Binding, gate: string, stagedExact: boolean | undefined): NextTransition {
  if (gate === "pre-commit" && stagedExact === false) return stopTransition("staged_delivery_candidate_required");
  const preconditions = [arg("state", "approved"), arg("receipt", "present")];
  return executeTransition(
    "approved_receipt_ready",
    "review.validate",
    [arg("lineage", b.lineageId), arg("gate", gate)],
    preconditions,
    b,
    [],
    [],
  );
}

/** The transition of a correction_required, validating or approved authority. */
export function correctionTransition(a: AuthorityFacts, b: Binding, ctx: TransitionContext): NextTransition {
  if (a.state === "correction_required") return correctionRequired(a, b, ctx);
  if (a.state === "validating") return validating(a, b, ctx);
  return approved(b);
}
