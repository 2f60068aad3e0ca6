import { decodeReviewCollectInput } from "../status-decode.ts";
import type { ReviewCollectInputV3 } from "../types.ts";
import { CORRECTION_FINALIZE_FAILURE, CorrectionFinalizeError } from "./errors.ts";
import { isCanonicalSha256Identity } from "./identities.ts";

/** STATUS `validation_request` fields the client binds to (identities already checked canonical). */
export interface TargetedValidationRequestBinding {
  readonly requestHash: string;
  readonly correctionTargetIdentity: string;
  readonly lineageId?: string;
  readonly expectedRevision?: string;
  readonly targetIdentity?: string;
  readonly correctionCandidateTree?: string;
  readonly correctionPaths?: readonly string[];
  readonly correctionPathsDigest?: string;
}

/** The parts of a STATUS object the correction client reads. */
export interface CorrectionStatusView {
  readonly lineageId?: string;
  readonly state?: string;
  readonly revision?: string;
  readonly transitionKind?: string;
  readonly reasonCode?: string;
  readonly inputs: readonly ReviewCollectInputV3[];
}

/** Collect transition in which the provider asks for repository verification evidence. */
export const EVIDENCE_REQUIRED_REASON = "correction_repository_verification_required";
/** Collect transition after passed evidence was captured: the provider already holds the record. */
export const TARGETED_VALIDATION_REQUIRED_REASON = "targeted_validation_required";
/** Execute transition after the provider-run validator was captured (also implies captured evidence). */
export const CAPTURED_VALIDATION_READY_REASON = "captured_provider_targeted_validation_ready";

const record = (value: unknown): Record<string, unknown> | undefined =>
  typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
const text = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);

/** Reads STATUS lineage, state, revision and the next transition's collect inputs (decoded to camelCase). */
export function readCorrectionStatus(status: unknown): CorrectionStatusView {
  const top = record(status) ?? {};
  const authority = record(top["authority"]) ?? {};
  const validation = record(top["validation_request"]) ?? {};
  const next = record(top["next_transition"]) ?? {};
  const collect = record(next["collect"]) ?? {};
  const rawInputs = Array.isArray(collect["inputs"]) ? (collect["inputs"] as unknown[]) : [];
  const lineageId = text(authority["lineage_id"]) ?? text(validation["lineage_id"]);
  const state = text(authority["state"]);
  const revision = text(authority["revision"]);
  const transitionKind = text(next["kind"]);
  const reasonCode = text(next["reason_code"]);
  return {
    ...(lineageId !== undefined ? { lineageId } : {}),
    ...(state !== undefined ? { state } : {}),
    ...(revision !== undefined ? { revision } : {}),
    ...(transitionKind !== undefined ? { transitionKind } : {}),
    ...(reasonCode !== undefined ? { reasonCode } : {}),
    inputs: rawInputs.map((input) => decodeReviewCollectInput(input)),
  };
}

/** True when STATUS shows the provider already holds passed correction evidence (captured-evidence discovery). */
export function statusShowsCapturedEvidence(view: CorrectionStatusView): boolean {
  return (
    view.reasonCode === TARGETED_VALIDATION_REQUIRED_REASON || view.reasonCode === CAPTURED_VALIDATION_READY_REASON
  );
}

/** The first collect input with the given capture operation. */
export function findCollectInput(
  view: CorrectionStatusView,
  captureOperation: string,
): ReviewCollectInputV3 | undefined {
  return view.inputs.find((input) => input.captureOperation === captureOperation);
}

/**
 * Both binding identities from STATUS `validation_request`, never from caller input. Fails closed (before any launch)
 * when the object or either identity is absent, or when either is not canonical `sha256:<64 lowercase hex>`.
 */
export function readTargetedValidationBinding(status: unknown): TargetedValidationRequestBinding {
  const request = record(record(status)?.["validation_request"]);
  if (request === undefined) {
    throw new CorrectionFinalizeError(
      CORRECTION_FINALIZE_FAILURE.BINDING_MISSING,
      "preflight",
      "provider STATUS carries no validation_request to bind the targeted validation to",
    );
  }
  const requestHash = request["request_hash"];
  const correctionTargetIdentity = request["correction_target_identity"];
  if (requestHash === undefined || correctionTargetIdentity === undefined) {
    throw new CorrectionFinalizeError(
      CORRECTION_FINALIZE_FAILURE.BINDING_MISSING,
      "preflight",
      "provider validation_request lacks request_hash or correction_target_identity",
    );
  }
  if (!isCanonicalSha256Identity(requestHash) || !isCanonicalSha256Identity(correctionTargetIdentity)) {
    throw new CorrectionFinalizeError(
      CORRECTION_FINALIZE_FAILURE.BINDING_NON_CANONICAL,
      "preflight",
      "provider validation_request binding is not canonical sha256:<64 lowercase hex>",
    );
  }
  const paths =
    Array.isArray(request["correction_paths"]) && request["correction_paths"].every((p) => typeof p === "string")
      ? (request["correction_paths"] as string[])
      : undefined;
  const optional = {
    lineageId: text(request["lineage_id"]),
    expectedRevision: text(request["expected_revision"]),
    targetIdentity: text(request["target_identity"]),
    correctionCandidateTree: text(request["correction_candidate_tree"]),
    correctionPaths: paths,
    correctionPathsDigest: text(request["correction_paths_digest"]),
  };
  return {
    requestHash,
    correctionTargetIdentity,
    ...Object.fromEntries(Object.entries(optional).filter(([, value]) => value !== undefined)),
  };
}
