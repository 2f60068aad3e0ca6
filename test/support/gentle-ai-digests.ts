// Oracles of gentle-ai's published digests, written from the Go source, not from the simulator
// (reviewtransaction/snapshot.go, artifact_subject.go, repository_locator.go, cli/review_start_lineage.go).
// Each is pinned to captured gentle-pi fixture values in gentle-ai-digests.unit.test.ts.
import { createHash } from "node:crypto";
import { realpathSync } from "node:fs";
import { candidateTreeOf, git, treeOf } from "./git.ts";

function lengthPrefixed(value: string | Buffer): Buffer {
  const bytes = typeof value === "string" ? Buffer.from(value) : value;
  return Buffer.concat([Buffer.from(`${bytes.length}\0`), bytes, Buffer.from([0])]);
}

function sha(...parts: Array<string | Buffer>): string {
  const h = createHash("sha256");
  for (const p of parts) h.update(p);
  return h.digest("hex");
}

/** digestPaths. */
export function oraclePathsDigest(paths: readonly string[]): string {
  return "sha256:" + sha("gentle-ai.paths/v1\0", ...paths.map(lengthPrefixed));
}

/** snapshotIdentityForProjection for a workspace current-changes target. */
export function oracleIdentity(baseTree: string, candidateTree: string, paths: readonly string[]): string {
  return (
    "sha256:" +
    sha(
      "gentle-ai.review-snapshot/v3\0",
      ...["current-changes", baseTree, candidateTree, oraclePathsDigest(paths)].map(lengthPrefixed),
    )
  );
}

/** snapshotIdentityForProjection for a workspace fix-diff snapshot with its ledger ids. */
export function oracleFixDiffIdentity(
  frozenTree: string,
  correctedTree: string,
  paths: readonly string[],
  ledger: readonly string[],
): string {
  return (
    "sha256:" +
    sha(
      "gentle-ai.review-snapshot/v3\0",
      ...["fix-diff", frozenTree, correctedTree, oraclePathsDigest(paths), ...ledger].map(lengthPrefixed),
    )
  );
}

/** intendedUntrackedInventoryDigest. */
export function oracleInventoryDigest(paths: readonly string[]): string {
  return "sha256:" + sha(lengthPrefixed("gentle-ai.intended-untracked-inventory/v1"), ...paths.map(lengthPrefixed));
}

/** reviewRepositoryIdentityHash over a repository's canonical root, common dir and git dir. */
export function oracleRepositoryRef(root: string): string {
  const common = realpathSync(git(root, "rev-parse", "--path-format=absolute", "--git-common-dir"));
  const gitDir = realpathSync(git(root, "rev-parse", "--path-format=absolute", "--git-dir"));
  return (
    "sha256:" + sha(JSON.stringify({ repository_root: realpathSync(root), git_common_dir: common, git_dir: gitDir }))
  );
}

/** reviewAtomicStartLineage. */
export function oracleStartLineage(repositoryRef: string, targetIdentity: string): string {
  return (
    "review-" +
    sha(
      "gentle-ai.review-start-lineage/v3\0",
      JSON.stringify({ worktree_identity: repositoryRef, target_identity: targetIdentity }),
    ).slice(0, 16)
  );
}

/** ChangedPathManifestDigest over manifest entries (Go json.Marshal of plain ASCII values equals JSON.stringify). */
export function oracleManifestDigest(entries: readonly object[]): string {
  return "sha256:" + sha("gentle-ai.review-changed-path-manifest/v1\0", JSON.stringify(entries));
}

/** artifactSubjectHash (v2). */
export function oracleSubjectHash(s: {
  lineage_id: string;
  authority_revision: string;
  target_identity: string;
  base_tree: string;
  candidate_tree: string;
  changed_path_manifest_sha256: string;
  lens: string;
  selected_order: number;
}): string {
  const preimage = {
    schema: "gentle-ai.review-artifact-subject/v2",
    lineage_id: s.lineage_id,
    authority_revision: s.authority_revision,
    target_identity: s.target_identity,
    base_tree: s.base_tree,
    candidate_tree: s.candidate_tree,
    changed_path_manifest_sha256: s.changed_path_manifest_sha256,
    lens: s.lens,
    selected_order: s.selected_order,
  };
  return "sha256:" + sha("gentle-ai.review-artifact-subject/v2\0", JSON.stringify(preimage));
}

/** reviewRepositoryContextHandle. */
export function oracleContextHandle(
  lineageId: string,
  targetIdentity: string,
  revision: string,
  repositoryRef: string,
): string {
  return (
    "rctx1_" +
    sha(
      JSON.stringify({
        schema: "gentle-ai.review-repository-context/v1",
        lineage_id: lineageId,
        target_identity: targetIdentity,
        revision,
        repository_identity: repositoryRef,
      }),
    )
  );
}

/** rddModeOverrideDigest over a published generation record (its revision blanked). */
export function oracleOverrideRevision(record: Record<string, unknown>): string {
  const blank: Record<string, unknown> = {
    schema: record["schema"],
    generation: record["generation"],
    ...(record["previous_revision"] ? { previous_revision: record["previous_revision"] } : {}),
    mode: record["mode"],
    recorded_at: record["recorded_at"],
    revision: "",
  };
  return "sha256:" + sha("gentle-ai.rdd-mode-override-digest/v1\0", JSON.stringify(blank));
}

/** A repository's fresh target over edited `paths`: its base and candidate trees, identity and START lineage id. */
export function oracleFreshTarget(
  repo: string,
  paths: readonly string[],
): { base: string; candidate: string; identity: string; lineage: string } {
  const base = treeOf(repo);
  const candidate = candidateTreeOf(repo, paths);
  const identity = oracleIdentity(base, candidate, paths);
  return { base, candidate, identity, lineage: oracleStartLineage(oracleRepositoryRef(repo), identity) };
}
