// The identities of a repository-derived lineage, in the shape the lifecycle verbs read (state/identities.ts
// Identities): real trees, paths and manifest from the frozen candidate, gentle-ai's own digests where they are
// published, and the correction candidate read live from the workspace.
import { sha256Hex } from "../platform/sha256.ts";
import { goMarshal } from "../go/go-json.ts";
import { changedPathManifestDigest, FIX_FINDING_ID, pathsDigest, snapshotIdentity } from "../state/identities.ts";
import type { Identities } from "../state/identities.ts";
import type { Lens } from "../scenario/lineage-spec.ts";
import type { RepositoryIdentity } from "./locate.ts";
import type { RepositoryLineageRecord } from "./lineage-store.ts";
import { buildSnapshot, changedPaths, type Snapshot } from "./snapshot.ts";
import { candidateDiff, pathPatch } from "./manifest.ts";
import { repositoryContextPayload } from "./context-registry.ts";

const CONTEXT_SCHEMA = "gentle-ai.review-repository-context/v1";

/** (inferred) derivation: gentle-ai's authority revision hashes its compact record, which is not reproduced. */
function derived(label: string, lineageId: string, targetIdentity: string, index: number): string {
  return "sha256:" + sha256Hex(`gentle-ai-sim.repository-lineage/${label}\0${lineageId}\0${targetIdentity}\0${index}`);
}

/** The authority revision of a lineage at a revision index (START is index 0). */
export function lineageRevision(lineageId: string, targetIdentity: string, index: number): string {
  return derived("revision", lineageId, targetIdentity, index);
}

/** The repository-context event id of a lineage at a revision index. */
export function lineageEventId(lineageId: string, targetIdentity: string, index: number): string {
  return derived("event", lineageId, targetIdentity, index);
}

/**
 * The event id of START's repository-context effect (reviewtransaction/compact_store.go:2341-2343): sha256 over
 * "gentle-ai.review-effect-event/v1\0" and the JSON array [lineage, binding revision, class, handle, payload hash].
 */
export function repositoryContextEventId(
  lineageId: string,
  targetIdentity: string,
  revision: string,
  handle: string,
  repo: RepositoryIdentity,
): string {
  const payloadHash =
    "sha256:" + sha256Hex(repositoryContextPayload(handle, { lineageId, targetIdentity, revision }, repo));
  const event = goMarshal([lineageId, revision, "repository_context", handle, payloadHash]);
  return "sha256:" + sha256Hex(Buffer.from("gentle-ai.review-effect-event/v1\0", "utf8"), Buffer.from(event, "utf8"));
}

/** reviewRepositoryContextHandle: `rctx1_` + sha256 of the binding and the repository identity. */
export function repositoryContextHandle(
  lineageId: string,
  targetIdentity: string,
  revision: string,
  repositoryRef: string,
): string {
  const preimage = goMarshal({
    schema: CONTEXT_SCHEMA,
    lineage_id: lineageId,
    target_identity: targetIdentity,
    revision,
    repository_identity: repositoryRef,
  });
  return "rctx1_" + sha256Hex(preimage);
}

/** artifactSubjectHash (v2): the provider-owned identity of one reviewer slot. */
export function artifactSubjectHash(subject: {
  lineageId: string;
  revision: string;
  targetIdentity: string;
  baseTree: string;
  candidateTree: string;
  manifestSha256: string;
  lens: string;
  order: number;
}): string {
  const preimage = goMarshal({
    schema: "gentle-ai.review-artifact-subject/v2",
    lineage_id: subject.lineageId,
    authority_revision: subject.revision,
    target_identity: subject.targetIdentity,
    base_tree: subject.baseTree,
    candidate_tree: subject.candidateTree,
    changed_path_manifest_sha256: subject.manifestSha256,
    lens: subject.lens,
    selected_order: subject.order,
  });
  return (
    "sha256:" + sha256Hex(Buffer.from("gentle-ai.review-artifact-subject/v2\0", "utf8"), Buffer.from(preimage, "utf8"))
  );
}

/** The live candidate under the lineage's own selectors (its projection and intended-untracked paths). */
export function liveSnapshot(repo: RepositoryIdentity, record: RepositoryLineageRecord): Snapshot {
  const s = record.snapshot;
  return buildSnapshot(repo, {
    kind: s.kind,
    projection: s.projection,
    baseRef: s.kind === "base-diff" ? s.baseTree : undefined,
    intendedUntracked: s.intendedUntracked,
  });
}

/** The correction candidate the workspace holds now: its tree, paths in genesis scope, their digest, live identity. */
interface WorkspaceCorrection {
  readonly tree: string;
  readonly paths: string[];
  readonly digest: string;
  readonly liveIdentity: string;
}

/** Reads the lineage's correction candidate from the workspace on the first call, then returns that reading. */
function workspaceCorrection(repo: RepositoryIdentity, record: RepositoryLineageRecord): () => WorkspaceCorrection {
  const s = record.snapshot;
  let correction: WorkspaceCorrection | undefined;
  return () => {
    if (correction === undefined) {
      const now = liveSnapshot(repo, record);
      // (inferred) the correction diff is the genesis candidate against the live one, kept inside genesis scope.
      const genesis = new Set(s.paths);
      const paths = changedPaths(repo, s.candidateTree, now.candidateTree).filter((p) => genesis.has(p));
      const digest = pathsDigest(paths);
      correction = {
        tree: now.candidateTree,
        paths,
        digest,
        liveIdentity: now.identity,
      };
    }
    return correction;
  };
}

/** Identities of one repository lineage; the correction candidate is read from the workspace on first use. */
export function repositoryIdentities(repo: RepositoryIdentity, record: RepositoryLineageRecord): Identities {
  const s = record.snapshot;
  const target = s.identity;
  const manifest = record.manifest;
  const manifestSha256 = changedPathManifestDigest(manifest);
  const live = workspaceCorrection(repo, record);
  let diff: Buffer | undefined;
  // START's revision is gentle-ai's own; later revisions hash a compact record the simulator does not keep.
  const revision = (index: number): string =>
    index === 0 && record.startRevision !== undefined
      ? record.startRevision
      : lineageRevision(record.lineageId, target, index);
  return {
    seed: record.lineageId,
    targetIdentity: target,
    lineageId: record.lineageId,
    repositoryContext: record.repositoryContext,
    baseTree: s.baseTree,
    candidateTree: s.candidateTree,
    manifest,
    paths: s.paths,
    pathsDigest: s.pathsDigest,
    manifestSha256,
    stagedTargetIdentity: snapshotIdentity(s.kind, "staged", s.baseTree, s.candidateTree, s.pathsDigest),
    revision,
    eventId: (index) =>
      index === 0 && record.startRevision !== undefined
        ? repositoryContextEventId(record.lineageId, target, record.startRevision, record.repositoryContext, repo)
        : lineageEventId(record.lineageId, target, index),
    // Subjects bind the START revision: captures never advance the revision (§7.6), so slots keep their subject.
    subjectHash: (lens: Lens) =>
      artifactSubjectHash({
        lineageId: record.lineageId,
        revision: revision(0),
        targetIdentity: target,
        baseTree: s.baseTree,
        candidateTree: s.candidateTree,
        manifestSha256,
        lens,
        order: record.selectedLenses.indexOf(lens),
      }),
    requestHash: (index) => derived("validation-request", record.lineageId, target, index),
    get correctionTargetIdentity() {
      return this.correctionIdentity([FIX_FINDING_ID]);
    },
    correctionFromWorkspace: true,
    correctionIdentity: (ledger) =>
      snapshotIdentity("fix-diff", s.projection, s.candidateTree, live().tree, live().digest, ledger),
    get correctionCandidateTree() {
      return live().tree;
    },
    get correctionPaths() {
      return live().paths;
    },
    get correctionPathsDigest() {
      return live().digest;
    },
    get correctionLiveIdentity() {
      return live().liveIdentity;
    },
    receiptIdentity: derived("receipt", record.lineageId, target, 0),
    get candidateDiff() {
      diff ??= candidateDiff(repo, s);
      return diff;
    },
    // The real tree diff of the path, as gentle-ai's inspector renders it (frozen_candidate_context.go:258-260).
    patch: (entry) => pathPatch(repo, s, entry.path),
    // reviewRepositoryContextHandle: every (target, revision) the authority publishes gets its own handle.
    contextHandle: (t, rev) => repositoryContextHandle(record.lineageId, t, rev, repo.repositoryRef),
  };
}
