import type { LaunchedProcessDetails } from "../errors.ts";

/** Failure codes of the correction FINALIZE client. */
export const CORRECTION_FINALIZE_FAILURE = Object.freeze({
  /** STATUS carries no usable `validation_request` (or no lineage) to bind. */
  BINDING_MISSING: "correction-binding-missing",
  /** STATUS `request_hash` / `correction_target_identity` is not `sha256:<64 lowercase hex>`. */
  BINDING_NON_CANONICAL: "correction-binding-non-canonical",
  /** The caller's compact request hash is not bare 64-hex or differs from STATUS. */
  REQUEST_HASH_MISMATCH: "correction-request-hash-mismatch",
  /** Captured-evidence discovery and a raw evidence document were both supplied. */
  EVIDENCE_SOURCE_CONFLICT: "correction-evidence-source-conflict",
  /** Neither captured evidence nor a raw evidence document is available. */
  EVIDENCE_MISSING: "correction-evidence-missing",
  /** A verification-evidence record could not be decoded. */
  EVIDENCE_INVALID: "correction-evidence-invalid",
  /** The captured record does not match the requested lineage, revision, target, tree, paths or outcome. */
  EVIDENCE_BINDING_DRIFT: "correction-evidence-binding-drift",
  /** A provider-rendered submission descriptor cannot be executed as given. */
  DESCRIPTOR_MISMATCH: "correction-descriptor-mismatch",
  /** STATUS does not offer the transition this step needs. */
  TRANSITION_UNAVAILABLE: "correction-transition-unavailable",
  /** `review status` failed or printed something that is not a STATUS object. */
  STATUS_FAILED: "correction-status-failed",
  /** `review capture-evidence` failed. */
  EVIDENCE_CAPTURE_FAILED: "correction-evidence-capture-failed",
  /** `review finalize` failed. */
  FINALIZE_FAILED: "correction-finalize-failed",
  /** A staged temp directory could not be removed after a successful call. */
  CLEANUP_FAILED: "correction-cleanup-failed",
} as const);

export type CorrectionFinalizeFailureCode =
  (typeof CORRECTION_FINALIZE_FAILURE)[keyof typeof CORRECTION_FINALIZE_FAILURE];

/** Which step failed; `preflight` means before any process launched. */
export type CorrectionFinalizeStage = "preflight" | "status" | "evidence" | "finalize";

export interface CorrectionFinalizeErrorDetails extends LaunchedProcessDetails {
  readonly stdout?: string;
  /** "none" when nothing mutating launched or the provider said `not_started`. */
  readonly mutationOutcome?: "none" | "unknown";
  /** The failure envelope's `cause`, when stdout carried one. */
  readonly providerCause?: string;
}

/** Typed failure of the correction FINALIZE client. */
export class CorrectionFinalizeError extends Error {
  override readonly name = "CorrectionFinalizeError";
  readonly code: CorrectionFinalizeFailureCode;
  readonly stage: CorrectionFinalizeStage;
  readonly exitCode: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly timedOut: boolean;
  readonly elapsedMs: number | null;
  readonly timeoutMs: number | null;
  readonly mutationOutcome: "none" | "unknown";
  readonly providerCause: string | null;

  constructor(
    code: CorrectionFinalizeFailureCode,
    stage: CorrectionFinalizeStage,
    message: string,
    details: CorrectionFinalizeErrorDetails = {},
  ) {
    super(message);
    this.code = code;
    this.stage = stage;
    this.exitCode = details.exitCode ?? null;
    this.stdout = details.stdout ?? "";
    this.stderr = details.stderr ?? "";
    this.timedOut = details.timedOut ?? false;
    this.elapsedMs = details.elapsedMs ?? null;
    this.timeoutMs = details.timeoutMs ?? null;
    // Only mutating launches (capture-evidence, finalize) can leave the outcome unknown.
    this.mutationOutcome =
      details.mutationOutcome ?? (stage === "evidence" || stage === "finalize" ? "unknown" : "none");
    this.providerCause = details.providerCause ?? null;
  }
}
