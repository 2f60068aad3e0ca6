// Building blocks of the correction FINALIZE client, exported separately so other clients (e.g. a 2.1.2 repro) can
// reuse them.
export { CORRECTION_FINALIZE_FAILURE, CorrectionFinalizeError } from "./errors.ts";
export type {
  CorrectionFinalizeErrorDetails,
  CorrectionFinalizeFailureCode,
  CorrectionFinalizeStage,
} from "./errors.ts";
export {
  BARE_SHA256_HEX,
  CANONICAL_SHA256_IDENTITY,
  bareSha256Hex,
  isCanonicalSha256Identity,
  normalizeSha256Identity,
} from "./identities.ts";
export {
  CORRECTION_EVIDENCE_DRIFT_MESSAGE,
  VERIFICATION_OUTCOMES,
  assertCorrectionEvidenceBinding,
  decodeVerificationEvidenceRecord,
} from "./evidence.ts";
export type { CorrectionEvidenceExpectation, VerificationEvidenceRecord, VerificationOutcome } from "./evidence.ts";
export {
  CAPTURED_VALIDATION_READY_REASON,
  EVIDENCE_REQUIRED_REASON,
  TARGETED_VALIDATION_REQUIRED_REASON,
  findCollectInput,
  readCorrectionStatus,
  readTargetedValidationBinding,
  statusShowsCapturedEvidence,
} from "./status.ts";
export type { CorrectionStatusView, TargetedValidationRequestBinding } from "./status.ts";
export {
  buildLegacyValidationProofDocument,
  buildTargetedValidationDocument,
  matchCallerRequestHash,
} from "./validation-document.ts";
export type {
  CorrectionValidationInput,
  TargetedValidationCheck,
  TargetedValidationFollowUp,
} from "./validation-document.ts";
export { SUBMISSION_PLACEHOLDERS, renderSubmissionDescriptorArgv } from "./descriptor.ts";
export {
  REVIEW_INTEGRATION_CONTRACT_V2,
  buildCaptureEvidenceArgv,
  buildCorrectionStatusArgv,
  buildNegotiatedFinalizeArgv,
} from "./argv.ts";
export type { FinalizeEvidenceSource } from "./argv.ts";
export { runGentleAiCall } from "./call.ts";
export type { GentleAiCall } from "./call.ts";
