import { CORRECTION_FINALIZE_FAILURE, CorrectionFinalizeError } from "./errors.ts";
import { normalizeSha256Identity } from "./identities.ts";

/** Closed verification outcomes capture-evidence accepts. */
export const VERIFICATION_OUTCOMES = ["passed", "verification_failed", "procedural_tooling_failed"] as const;
export type VerificationOutcome = (typeof VERIFICATION_OUTCOMES)[number];

/** A decoded verification-evidence record with the four digest identities normalised to `sha256:<64hex>`. */
export interface VerificationEvidenceRecord {
  readonly schema: string;
  readonly version: number;
  readonly lineageId: string;
  readonly authorityRevision: string;
  readonly targetIdentity: string;
  /** A Git tree id, passed through untouched. */
  readonly candidateTree: string;
  readonly pathsDigest: string;
  readonly paths: readonly string[];
  readonly ledgerIds: readonly string[];
  readonly rawPayloadSha256: string;
  readonly rawPayloadBytes: number;
  readonly outcome: VerificationOutcome;
  readonly recordDigest: string;
}

/** What the captured record must match before FINALIZE launches. */
export interface CorrectionEvidenceExpectation {
  readonly lineageId: string;
  readonly authorityRevision?: string;
  readonly targetIdentity: string;
  readonly candidateTree?: string;
  readonly pathsDigest?: string;
  readonly paths?: readonly string[];
  readonly outcome: VerificationOutcome;
}

export const CORRECTION_EVIDENCE_DRIFT_MESSAGE =
  "captured correction evidence does not match the requested lineage, target, and outcome";

const invalid = (why: string): CorrectionFinalizeError =>
  new CorrectionFinalizeError(
    CORRECTION_FINALIZE_FAILURE.EVIDENCE_INVALID,
    "preflight",
    `verification evidence record is invalid: ${why}`,
  );

const stringArray = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((v) => typeof v === "string");

/**
 * Decodes a capture-evidence record (bytes or parsed JSON). `authority_revision`, `target_identity`, `paths_digest`
 * and `raw_payload_sha256` are accepted bare or prefixed and normalised; `candidate_tree` is left untouched.
 */
export function decodeVerificationEvidenceRecord(input: Buffer | unknown): VerificationEvidenceRecord {
  let wire: unknown = input;
  if (Buffer.isBuffer(input)) {
    try {
      wire = JSON.parse(input.toString("utf8"));
    } catch (error) {
      throw invalid(`not JSON (${error instanceof Error ? error.message : String(error)})`);
    }
  }
  if (typeof wire !== "object" || wire === null || Array.isArray(wire)) throw invalid("not an object");
  const r = wire as Record<string, unknown>;
  const digest = (field: string): string => {
    const value = normalizeSha256Identity(r[field]);
    if (value === undefined) throw invalid(`${field} is neither bare nor prefixed 64 lowercase hex`);
    return value;
  };
  const str = (field: string): string => {
    const value = r[field];
    if (typeof value !== "string" || value === "") throw invalid(`${field} must be a non-empty string`);
    return value;
  };
  const outcome = r["outcome"];
  if (!(VERIFICATION_OUTCOMES as readonly unknown[]).includes(outcome))
    throw invalid("outcome is not a closed verification outcome");
  if (typeof r["version"] !== "number") throw invalid("version must be a number");
  if (typeof r["raw_payload_bytes"] !== "number") throw invalid("raw_payload_bytes must be a number");
  if (!stringArray(r["paths"])) throw invalid("paths must be an array of strings");
  const ledgerIds = r["ledger_ids"] ?? [];
  if (!stringArray(ledgerIds)) throw invalid("ledger_ids must be an array of strings");
  return {
    schema: str("schema"),
    version: r["version"],
    lineageId: str("lineage_id"),
    authorityRevision: digest("authority_revision"),
    targetIdentity: digest("target_identity"),
    candidateTree: str("candidate_tree"),
    pathsDigest: digest("paths_digest"),
    paths: r["paths"],
    ledgerIds,
    rawPayloadSha256: digest("raw_payload_sha256"),
    rawPayloadBytes: r["raw_payload_bytes"],
    outcome: outcome as VerificationOutcome,
    recordDigest: str("record_digest"),
  };
}

const sameList = (a: readonly string[], b: readonly string[]): boolean =>
  a.length === b.length && a.every((v, i) => v === b[i]);

/**
 * Evidence-binding drift check run after capture and before FINALIZE: lineage, revision, target, tree, paths
 * (digest or list) and outcome must all match. Throws `correction-evidence-binding-drift`.
 */
export function assertCorrectionEvidenceBinding(
  evidence: VerificationEvidenceRecord,
  expected: CorrectionEvidenceExpectation,
): void {
  const drift =
    evidence.lineageId !== expected.lineageId ||
    (expected.authorityRevision !== undefined &&
      evidence.authorityRevision !== normalizeSha256Identity(expected.authorityRevision)) ||
    evidence.targetIdentity !== normalizeSha256Identity(expected.targetIdentity) ||
    (expected.candidateTree !== undefined && evidence.candidateTree !== expected.candidateTree) ||
    (expected.pathsDigest !== undefined && evidence.pathsDigest !== normalizeSha256Identity(expected.pathsDigest)) ||
    (expected.pathsDigest === undefined && expected.paths !== undefined && !sameList(evidence.paths, expected.paths)) ||
    evidence.outcome !== expected.outcome;
  if (drift) {
    throw new CorrectionFinalizeError(
      CORRECTION_FINALIZE_FAILURE.EVIDENCE_BINDING_DRIFT,
      "preflight",
      CORRECTION_EVIDENCE_DRIFT_MESSAGE,
    );
  }
}
