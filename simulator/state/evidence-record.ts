// VerificationEvidenceRecord (provider reference §11, gentle-ai `internal/reviewtransaction/verification_evidence.go`):
// field order, digests, and the prefixed vs "#279 as reported" bare identity modes (issue-279 §8).
import { goMarshal } from "../go/go-json.ts";
import type { GoJson } from "../go/go-json.ts";
import { bareDigest, sha256Hex, sha256Prefixed } from "./identities.ts";
import type { VerificationEvidenceRecordDocument } from "../contract/verification-evidence.ts";

export const EVIDENCE_RECORD_SCHEMA = "gentle-ai.review-verification-evidence/v2";
export const EVIDENCE_RECORD_DIGEST_DOMAIN = "gentle-ai.review-verification-evidence-record/v2";
/** raw_payload_bytes is between 1 byte and 4 MiB. */
export const MAX_EVIDENCE_BYTES = 4 * 1024 * 1024;

export const VERIFICATION_OUTCOMES = ["passed", "verification_failed", "procedural_tooling_failed"] as const;
export type VerificationOutcome = (typeof VERIFICATION_OUTCOMES)[number];
export type IdentityMode = "prefixed" | "bare";

/**
 * The record in Go struct field order, typed by the zod mirror. In the "#279 as reported" mode the four evidence
 * identities are bare hex, which the published schema (and the mirror) rejects on purpose.
 */
export type VerificationEvidenceRecord = Readonly<VerificationEvidenceRecordDocument>;

/** What the authority binds a record to; identities are given `sha256:`-prefixed (as STATUS carries them). */
export interface EvidenceBinding {
  readonly lineageId: string;
  readonly authorityRevision: string;
  readonly targetIdentity: string;
  readonly candidateTree: string;
  readonly pathsDigest: string;
  readonly paths: readonly string[];
  readonly ledgerIds: readonly string[];
}

/** Whether a string is a closed verification outcome. */
export function isVerificationOutcome(value: string): value is VerificationOutcome {
  return (VERIFICATION_OUTCOMES as readonly string[]).includes(value);
}

/** The record as a Go JSON value (field order of the struct). */
export function recordJson(r: VerificationEvidenceRecord): GoJson {
  return {
    schema: r.schema,
    version: r.version,
    lineage_id: r.lineage_id,
    authority_revision: r.authority_revision,
    target_identity: r.target_identity,
    candidate_tree: r.candidate_tree,
    paths_digest: r.paths_digest,
    paths: [...r.paths],
    ledger_ids: [...r.ledger_ids],
    raw_payload_sha256: r.raw_payload_sha256,
    raw_payload_bytes: r.raw_payload_bytes,
    outcome: r.outcome,
    record_digest: r.record_digest,
  };
}

/** `sha256:` + hex(sha256(domain + 0x00 + compact JSON with record_digest "")); computed over the values as emitted. */
export function computeRecordDigest(r: VerificationEvidenceRecord): string {
  const body = goMarshal(recordJson({ ...r, record_digest: "" }));
  return (
    "sha256:" +
    sha256Hex(
      Buffer.concat([Buffer.from(EVIDENCE_RECORD_DIGEST_DOMAIN, "utf8"), Buffer.from([0]), Buffer.from(body, "utf8")]),
    )
  );
}

/**
 * Builds the record for payload bytes. In `bare` mode (#279 as reported, counterfactual) the four evidence
 * identities lose their prefix; candidate_tree is a Git tree id either way and record_digest stays prefixed.
 */
export function buildEvidenceRecord(
  binding: EvidenceBinding,
  payload: Buffer,
  outcome: VerificationOutcome,
  mode: IdentityMode,
): VerificationEvidenceRecord {
  const id = (v: string): string => (mode === "bare" ? bareDigest(v) : v);
  const draft: VerificationEvidenceRecord = {
    schema: EVIDENCE_RECORD_SCHEMA,
    version: 2,
    lineage_id: binding.lineageId,
    authority_revision: id(binding.authorityRevision),
    target_identity: id(binding.targetIdentity),
    candidate_tree: binding.candidateTree,
    paths_digest: id(binding.pathsDigest),
    paths: [...binding.paths],
    ledger_ids: [...binding.ledgerIds],
    raw_payload_sha256: id(sha256Prefixed(payload)),
    raw_payload_bytes: payload.length,
    outcome,
    record_digest: "",
  };
  return { ...draft, record_digest: computeRecordDigest(draft) };
}

/** The record's printed bytes: indented Go JSON with one trailing newline (encodeReviewJSON). */
export function recordText(r: VerificationEvidenceRecord): string {
  return goMarshal(recordJson(r));
}

const PREFIXED = /^sha256:[0-9a-f]{64}$/;
const BARE = /^[0-9a-f]{64}$/;
const TREE = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/**
 * Validate(): the first problem with a record, or undefined. `bare` mode admits bare values for the four identities.
 */
export function validateEvidenceRecord(r: VerificationEvidenceRecord, mode: IdentityMode): string | undefined {
  const idOk = (v: string): boolean => PREFIXED.test(v) || (mode === "bare" && BARE.test(v));
  if (r.schema !== EVIDENCE_RECORD_SCHEMA || r.version !== 2) return "verification evidence record schema is invalid";
  if (r.lineage_id === "") return "verification evidence record lineage is required";
  for (const [name, v] of [
    ["authority_revision", r.authority_revision],
    ["target_identity", r.target_identity],
    ["paths_digest", r.paths_digest],
    ["raw_payload_sha256", r.raw_payload_sha256],
  ] as const) {
    if (!idOk(v)) return `verification evidence record ${name} is invalid`;
  }
  if (!TREE.test(r.candidate_tree) || /^0+$/.test(r.candidate_tree))
    return "verification evidence record candidate_tree is invalid";
  if (r.raw_payload_bytes < 1 || r.raw_payload_bytes > MAX_EVIDENCE_BYTES)
    return "verification evidence record raw_payload_bytes is invalid";
  if (!isVerificationOutcome(r.outcome)) return "verification evidence record outcome is invalid";
  if (!PREFIXED.test(r.record_digest) || r.record_digest !== computeRecordDigest(r))
    return "verification evidence record digest is invalid";
  return undefined;
}

/** Parses a stored record (compact JSON text written by recordText). */
export function parseEvidenceRecord(text: string): VerificationEvidenceRecord {
  return JSON.parse(text) as VerificationEvidenceRecord;
}

/** Whether two records carry the same payload digest and outcome, whatever their identity mode. */
export function sameEvidenceContent(
  a: VerificationEvidenceRecord,
  b: { rawPayloadSha256: string; outcome: VerificationOutcome },
): boolean {
  return bareDigest(a.raw_payload_sha256) === bareDigest(b.rawPayloadSha256) && a.outcome === b.outcome;
}
