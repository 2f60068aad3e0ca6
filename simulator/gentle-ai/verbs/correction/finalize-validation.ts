// The targeted-validation `--validation` document (`facadeValidationResult`, provider reference §10): strict Go
// decoding and the plan checks that read it.
import { decodeStrict } from "../../../go/go-decode.ts";
import type { GoType } from "../../../go/go-decode.ts";

const STRINGS: GoType = { kind: "slice", elem: { kind: "string" } };
const CHECK: GoType = {
  kind: "struct",
  name: "facadeValidationCheck",
  fields: [
    { json: "passed", type: { kind: "bool" } },
    { json: "evidence", type: STRINGS },
  ],
};
const FOLLOW_UP: GoType = {
  kind: "struct",
  name: "facadeValidationFollowUp",
  fields: [
    { json: "observation", type: { kind: "string" } },
    { json: "proof_refs", type: STRINGS },
  ],
};

/** The five-field document type in Go struct order. */
export const VALIDATION_TYPE: GoType = {
  kind: "struct",
  name: "facadeValidationResult",
  fields: [
    { json: "targeted_validation_request_hash", type: { kind: "string" } },
    { json: "correction_target_identity", type: { kind: "string" } },
    { json: "original_criteria", type: CHECK },
    { json: "correction_regression", type: CHECK },
    { json: "follow_ups", type: { kind: "slice", elem: FOLLOW_UP } },
  ],
};

/** One decoded check. */
export interface ValidationCheck {
  readonly passed: boolean;
  readonly evidence: readonly string[];
}

/** The decoded document; missing keys hold Go zero values (empty strings, false, no evidence). */
export interface ValidationDocument {
  readonly requestHash: string;
  readonly correctionTargetIdentity: string;
  readonly originalCriteria: ValidationCheck;
  readonly correctionRegression: ValidationCheck;
}

type Raw = { [k: string]: unknown };

function check(v: unknown): ValidationCheck {
  const o = (v ?? {}) as Raw;
  return { passed: o.passed === true, evidence: Array.isArray(o.evidence) ? (o.evidence as string[]) : [] };
}

/**
 * Decodes the document like readFacadeJSON: DisallowUnknownFields, one value; errors wrapped `read targeted validation:
 * `.
 */
export function decodeValidation(bytes: Buffer): { ok: true; doc: ValidationDocument } | { ok: false; error: string } {
  const decoded = decodeStrict(bytes.toString("utf8"), VALIDATION_TYPE, { pkg: "cli" });
  if (!decoded.ok) return { ok: false, error: `read targeted validation: ${decoded.error}` };
  const o = (decoded.value ?? {}) as Raw;
  return {
    ok: true,
    doc: {
      requestHash: typeof o.targeted_validation_request_hash === "string" ? o.targeted_validation_request_hash : "",
      correctionTargetIdentity: typeof o.correction_target_identity === "string" ? o.correction_target_identity : "",
      originalCriteria: check(o.original_criteria),
      correctionRegression: check(o.correction_regression),
    },
  };
}

/** (inferred) marker: an evidence entry starting with "inconclusive" reports the candidate could not be inspected. */
export function inconclusiveCheck(doc: ValidationDocument): string | undefined {
  const marked = (c: ValidationCheck) => c.evidence.some((e) => /^\s*inconclusive\b/i.test(e));
  if (marked(doc.originalCriteria)) return "original_criteria";
  if (marked(doc.correctionRegression)) return "correction_regression";
  return undefined;
}

export const D2_TEXT = "compact correction acceptance requires captured repository verification evidence";
export const D1_TEXT = "targeted validation result does not bind the provider-owned correction request";
export const MUST_PASS_TEXT = "compact correction repository verification must pass before acceptance";
export const EMPTY_EVIDENCE_TEXT = "targeted validation requires original_criteria and correction_regression evidence";

/** The inconclusive refusal for one check. */
export function inconclusiveText(check: string): string {
  return `targeted validation is inconclusive: ${check} evidence reports the immutable candidate could not be inspected, so no verdict was produced and the correction attempt was not consumed; restore validator access to the frozen trees and run the same targeted validation again`;
}
