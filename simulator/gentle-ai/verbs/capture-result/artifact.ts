// What one admitted capture publishes and prints: the immutable slot bytes (the admitted-result envelope,
// internal/reviewtransaction/compact_reviewer_capture.go CaptureAdmittedReviewerResult), their digest, and the
// gentle-ai.review-result-artifact/v2 object with its absolute slot path or rart1_ reference
// (internal/cli/review_artifact.go:445-469).
import { join } from "node:path";
import { goMarshal } from "../../../go/go-json.ts";
import type { GoJson } from "../../../go/go-json.ts";
import { sha256Hex, sha256Prefixed } from "../../../state/identities.ts";
import type { Identities } from "../../../state/identities.ts";
import type { CapturedSlot } from "../../../state/lineage-state.ts";
import type { Lens } from "../../../scenario/lineage-spec.ts";
import { boundReviewerResultBytes } from "../../../pi/reviewer-result.ts";
import { admitReviewerResult } from "./admission.ts";
import type { Admitted } from "./admission.ts";
import { artifactSubject } from "./capture-preflight.ts";
import type { SlotBinding } from "./capture-preflight.ts";
import { findingJson } from "./lens-result.ts";
import type { ResultArtifactV2 } from "../../../contract/capture-result.ts";

export const ARTIFACT_SCHEMA = "gentle-ai.review-result-artifact/v2";
export const ARTIFACT_CAPABILITY = "review.native_result_artifact";
export const ADMITTED_RESULT_SCHEMA = "gentle-ai.review-admitted-result/v2";
export const ARTIFACT_ADMISSION_SCHEMA = "gentle-ai.review-artifact-admission/v1";

/** What one admitted capture binds. */
export interface ArtifactBinding {
  readonly lineageId: string;
  readonly targetIdentity: string;
  readonly lens: Lens;
  readonly order: number;
  readonly subjectHash: string;
  /** `sha256:` digest of the slot bytes. */
  readonly sha256: string;
}

/** reviewResultReference: rart1_ + sha256(compact Marshal of the Go-field-named preimage). */
export function resultReference(b: ArtifactBinding): string {
  const preimage: GoJson = {
    Schema: ARTIFACT_SCHEMA,
    Capability: ARTIFACT_CAPABILITY,
    SHA256: b.sha256,
    LineageID: b.lineageId,
    TargetIdentity: b.targetIdentity,
    Lens: b.lens,
    SubjectHash: b.subjectHash,
    SelectedOrder: b.order,
    AdmissionDecision: "completed",
  };
  return "rart1_" + sha256Hex(goMarshal(preimage));
}

/**
 * The slot file: `<store>/reviewer-results/%02d-<lens>.json`, the store being
 * `<git common dir>/gentle-ai/review-transactions/v2/<lineage>` (compact_store.go:1113-1126, store.go:159).
 * The simulator's state directory stands in for the repository's git common directory.
 */
export function reviewerResultPath(stateDir: string, lineageId: string, order: number, lens: string): string {
  return join(
    stateDir,
    "gentle-ai",
    "review-transactions",
    "v2",
    lineageId,
    "reviewer-results",
    `${String(order).padStart(2, "0")}-${lens}.json`,
  );
}

/** The artifact object: with a repository context `reference` replaces the absolute slot `path`. */
export function artifactObject(b: ArtifactBinding, locator: { readonly path: string } | "reference"): GoJson {
  return {
    schema: ARTIFACT_SCHEMA,
    capability: ARTIFACT_CAPABILITY,
    path: locator === "reference" ? undefined : locator.path,
    reference: locator === "reference" ? resultReference(b) : undefined,
    sha256: b.sha256,
    lineage_id: b.lineageId,
    target_identity: b.targetIdentity,
    lens: b.lens,
    selected_order: b.order,
    subject_hash: b.subjectHash,
    admission_decision: "completed",
  } satisfies ResultArtifactV2;
}

/** The published slot: its bytes' digest, the canonical provider result and the admitted-result envelope. */
export interface SlotBytes {
  readonly digest: string;
  /** compactProviderReviewerResult, compact, with its trailing newline. */
  readonly canonical: Buffer;
  /** The admitted-result envelope: exactly the slot file's bytes. */
  readonly envelope: Buffer;
}

/**
 * The slot bytes CaptureAdmittedReviewerResult publishes: the canonical provider result (subject hash, sorted
 * inspection paths, selected lens, canonical findings and evidence) inside the admitted-result envelope with the
 * subject and the admission record. The raw payload's digest is part of it, so only byte-identical raw bytes replay.
 */
export function slotBytes(ids: Identities, slot: SlotBinding, admitted: Admitted, raw: Buffer): SlotBytes {
  const subjectHash = ids.subjectHash(slot.lens as never);
  const result = goMarshal({
    subject_hash: subjectHash,
    inspection: { status: admitted.inspection.status, paths: [...admitted.inspection.paths] },
    lens: slot.lens,
    findings: admitted.result.findings.map(findingJson),
    evidence: [...admitted.result.evidence],
  });
  const canonical = Buffer.from(result + "\n", "utf8");
  const admission: GoJson = {
    schema: ARTIFACT_ADMISSION_SCHEMA,
    decision: "completed",
    subject_hash: subjectHash,
    raw_sha256: sha256Prefixed(raw),
    canonical_sha256: sha256Prefixed(canonical),
    result_hash: admitted.result.resultHash,
    candidate_causal_finding_ids: [...admitted.candidateCausalFindingIds],
  };
  // The result member is the canonical payload without its newline (a json.RawMessage, already compact).
  const envelope = Buffer.from(
    `{"schema":${goMarshal(ADMITTED_RESULT_SCHEMA)},"subject":${goMarshal(artifactSubject(ids, slot))},"admission":${goMarshal(admission)},"result":${result}}\n`,
    "utf8",
  );
  return { digest: sha256Prefixed(envelope), canonical, envelope };
}

/** A slot the scenario declares as already captured: the fake pi's default result, admitted at revision 0. */
export function seededSlot(ids: Identities, lens: Lens, order: number): CapturedSlot {
  const slot: SlotBinding = { lens, order, revision: ids.revision(0) };
  const subjectHash = ids.subjectHash(lens);
  const paths = ids.manifest.map((m) => m.path);
  const raw = boundReviewerResultBytes({ subjectHash, lens, paths });
  const bytes = slotBytes(ids, slot, admitReviewerResult(raw, { lens, subjectHash, manifest: ids.manifest }), raw);
  const binding: ArtifactBinding = {
    lineageId: ids.lineageId,
    targetIdentity: ids.targetIdentity,
    lens,
    order,
    subjectHash,
    sha256: bytes.digest,
  };
  return {
    canonicalSha256: bytes.digest,
    canonicalBase64: bytes.canonical.toString("base64"),
    rawBase64: raw.toString("base64"),
    order,
    artifact: goMarshal(artifactObject(binding, "reference")),
  };
}
