import { CORRECTION_FINALIZE_FAILURE, CorrectionFinalizeError } from "./errors.ts";
import { BARE_SHA256_HEX, bareSha256Hex } from "./identities.ts";
import type { TargetedValidationRequestBinding } from "./status.ts";

/** One targeted-validation check: verdict plus its evidence lines. */
export interface TargetedValidationCheck {
  readonly passed: boolean;
  readonly evidence: readonly string[];
}

/** A follow-up observation with its proof references. */
export interface TargetedValidationFollowUp {
  readonly observation: string;
  readonly proofRefs: readonly string[];
}

/** The caller's compact targeted validation; `requestHash` is bare 64-hex and used only for matching. */
export interface CorrectionValidationInput {
  readonly requestHash: string;
  readonly originalCriteria: TargetedValidationCheck;
  readonly correctionRegression: TargetedValidationCheck;
  readonly followUps?: readonly TargetedValidationFollowUp[];
}

const check = (value: TargetedValidationCheck): { passed: boolean; evidence: string[] } => ({
  passed: value.passed,
  evidence: [...value.evidence],
});
const followUps = (
  values: readonly TargetedValidationFollowUp[] | undefined,
): { observation: string; proof_refs: string[] }[] =>
  (values ?? []).map((f) => ({ observation: f.observation, proof_refs: [...f.proofRefs] }));

/** Fails closed unless the caller's bare request hash equals STATUS `request_hash` with `sha256:` removed. */
export function matchCallerRequestHash(binding: TargetedValidationRequestBinding, callerRequestHash: string): void {
  if (!BARE_SHA256_HEX.test(callerRequestHash) || callerRequestHash !== bareSha256Hex(binding.requestHash)) {
    throw new CorrectionFinalizeError(
      CORRECTION_FINALIZE_FAILURE.REQUEST_HASH_MISMATCH,
      "preflight",
      "targeted validation request hash does not match the provider-owned validation_request",
    );
  }
}

/**
 * The strict five-field `--validation` document, keys in provider order, both identities from STATUS. Compact JSON
 * with one trailing newline, as UTF-8 bytes.
 */
export function buildTargetedValidationDocument(
  binding: TargetedValidationRequestBinding,
  validation: CorrectionValidationInput,
): Buffer {
  const document = {
    targeted_validation_request_hash: binding.requestHash,
    correction_target_identity: binding.correctionTargetIdentity,
    original_criteria: check(validation.originalCriteria),
    correction_regression: check(validation.correctionRegression),
    follow_ups: followUps(validation.followUps),
  };
  return Buffer.from(`${JSON.stringify(document)}\n`, "utf8");
}

/** The legacy three-field `validation_proof` body (gentle-pi 2.1.2's shape; kept for the legacy path and repro). */
export function buildLegacyValidationProofDocument(validation: CorrectionValidationInput): Buffer {
  const document = {
    original_criteria: check(validation.originalCriteria),
    correction_regression: check(validation.correctionRegression),
    follow_ups: followUps(validation.followUps),
  };
  return Buffer.from(`${JSON.stringify(document)}\n`, "utf8");
}
