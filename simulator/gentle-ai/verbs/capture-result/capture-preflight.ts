// The capture preflight document (internal/cli/review_incident.go:29-41 reviewCapturePreflightResult) and the artifact
// subject it carries (internal/reviewtransaction/artifact_subject.go ArtifactSubject, schema v2): printed by
// `capture-result --preflight` without --input and embedded in every materialized prompt's GENTLE_AI_REVIEW_CONTEXT
// line.
import type { Identities, ManifestEntry } from "../../../state/identities.ts";
import type { ArtifactSubjectV2 } from "../../../contract/artifact-subject.ts";
import type { CapturePreflight } from "../../../contract/capture-result.ts";
import type { ChangedPath } from "../../../contract/changed-path.ts";

export const CAPTURE_PREFLIGHT_SCHEMA = "gentle-ai.review-capture-preflight/v1";
export const CAPTURE_PREFLIGHT_CAPABILITY = "review.native_capture_preflight";
export const ARTIFACT_SUBJECT_SCHEMA = "gentle-ai.review-artifact-subject/v2";

/**
 * One ChangedPathManifestEntry (frozen_candidate_context.go:75) in Go field order. (inferred) The simulated paths
 * are regular non-executable files: an added path goes 000000 → 100644, a modified one stays 100644, a deleted one
 * goes 100644 → 000000; none is a type change, mode-only change or intended-untracked path.
 */
export function manifestEntryJson(m: ManifestEntry): ChangedPath {
  return {
    path: m.path,
    status: m.status,
    old_mode: m.status === "A" ? "000000" : "100644",
    new_mode: m.status === "D" ? "000000" : "100644",
    deleted: m.status === "D",
    type_changed: false,
    mode_only: false,
    intended_untracked: false,
  } satisfies ChangedPath;
}

/** The changed_path_manifest array. */
export function changedPathManifest(ids: Identities): ChangedPath[] {
  return ids.manifest.map(manifestEntryJson);
}

/** The slot a capture binds: lens, selected order and the authority revision the subject is derived at. */
export interface SlotBinding {
  readonly lens: ArtifactSubjectV2["lens"];
  readonly order: number;
  readonly revision: string;
}

/**
 * The v2 ArtifactSubject of one selected lens slot, in Go field order (the omitempty candidate_diff_sha256 and
 * correction_target_identity are absent for a lens capture). (inferred) subject_hash is the simulator's derived
 * value (identities.ts), not Go's preimage hash, so it does not change with the revision or order.
 */
export function artifactSubject(ids: Identities, slot: SlotBinding): ArtifactSubjectV2 {
  return {
    schema: ARTIFACT_SUBJECT_SCHEMA,
    subject_hash: ids.subjectHash(slot.lens as never),
    lineage_id: ids.lineageId,
    authority_revision: slot.revision,
    target_identity: ids.targetIdentity,
    base_tree: ids.baseTree,
    candidate_tree: ids.candidateTree,
    changed_path_manifest_sha256: ids.manifestSha256,
    lens: slot.lens,
    selected_order: slot.order,
  } satisfies ArtifactSubjectV2;
}

/**
 * reviewCapturePreflightResult. `repositoryRoot` is only set on the --cwd route: with a repository context (and in
 * every materialized prompt) gentle-ai leaves it empty so no provider path reaches a reviewer
 * (review_artifact.go:382-385).
 */
export function capturePreflight(ids: Identities, slot: SlotBinding, repositoryRoot?: string): CapturePreflight {
  return {
    schema: CAPTURE_PREFLIGHT_SCHEMA,
    capability: CAPTURE_PREFLIGHT_CAPABILITY,
    repository_root: repositoryRoot === "" ? undefined : repositoryRoot,
    lineage_id: ids.lineageId,
    target_identity: ids.targetIdentity,
    lens: slot.lens,
    selected_order: slot.order,
    artifact_subject: artifactSubject(ids, slot),
    base_tree: ids.baseTree,
    candidate_tree: ids.candidateTree,
    changed_path_manifest: changedPathManifest(ids),
  } satisfies CapturePreflight;
}
