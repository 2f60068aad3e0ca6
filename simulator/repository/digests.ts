// The domain-separated digests gentle-ai derives repository identities with (reviewtransaction/snapshot.go,
// artifact_subject.go). Each is reproduced from its published preimage; the tests pin them to captured values.
import { sha256Hex } from "../runtime/sha256.ts";
import { goMarshal } from "../output/go-json.ts";

/** Go's writeLengthPrefixed: `<decimal length>\0<bytes>\0`. */
function lengthPrefixed(value: string | Buffer): Buffer {
  const bytes = typeof value === "string" ? Buffer.from(value, "utf8") : value;
  return Buffer.concat([Buffer.from(`${bytes.length}\0`, "utf8"), bytes, Buffer.from([0])]);
}

/** `sha256:` + hex over a domain line and length-prefixed values. */
function domainDigest(domain: string, values: ReadonlyArray<string | Buffer>): string {
  return "sha256:" + sha256Hex(Buffer.from(domain, "utf8"), ...values.map(lengthPrefixed));
}

/** digestPaths: the `paths_digest` of a canonical (sorted) path list. */
export function pathsDigest(paths: readonly string[]): string {
  return domainDigest("gentle-ai.paths/v1\0", paths);
}

/** intendedUntrackedInventoryDigest: the `expected_untracked_inventory` of an untracked inventory. */
export function untrackedInventoryDigest(paths: readonly string[]): string {
  // The inventory domain is itself length-prefixed (snapshot.go intendedUntrackedInventoryDigest).
  return "sha256:" + sha256Hex(lengthPrefixed("gentle-ai.intended-untracked-inventory/v1"), ...paths.map(lengthPrefixed));
}

/** untrackedProof: binds each intended-untracked path to its exact candidate-tree entry (`ls-tree -z` record). */
export function untrackedProof(entries: ReadonlyArray<{ readonly path: string; readonly record: Buffer }>): string {
  const parts: Buffer[] = [];
  for (const e of entries) parts.push(lengthPrefixed(e.path), lengthPrefixed(e.record));
  return "sha256:" + sha256Hex(Buffer.from("gentle-ai.intended-untracked/v1\0", "utf8"), ...parts);
}

/** snapshotIdentityForProjection: the target identity of a frozen candidate (proof and intended paths excluded). */
export function snapshotIdentity(
  kind: string,
  projection: "workspace" | "staged",
  baseTree: string,
  candidateTree: string,
  digestOfPaths: string,
  ledgerIds: readonly string[] = [],
): string {
  if (kind === "base-workspace-overlay")
    return domainDigest("gentle-ai.review-snapshot/base-workspace-overlay/v2\0", [kind, baseTree, candidateTree, digestOfPaths, ...ledgerIds]);
  if (projection === "staged")
    return domainDigest("gentle-ai.review-snapshot/v4\0", [kind, projection, baseTree, candidateTree, digestOfPaths, ...ledgerIds]);
  return domainDigest("gentle-ai.review-snapshot/v3\0", [kind, baseTree, candidateTree, digestOfPaths, ...ledgerIds]);
}

/**
 * reviewAtomicStartLineage: the lineage a fresh START of this worktree's target gets, `review-` + 16 hex of
 * sha256 over the worktree identity and the target identity (cli/review_start_lineage.go).
 */
export function startLineageId(repositoryRef: string, targetIdentity: string): string {
  const payload = goMarshal({ worktree_identity: repositoryRef, target_identity: targetIdentity.trim() });
  return "review-" + sha256Hex(Buffer.from("gentle-ai.review-start-lineage/v3\0", "utf8"), Buffer.from(payload, "utf8")).slice(0, 16);
}

/** pathquote.ShellWord: a POSIX shell word, quoted only when it holds an unsafe character. */
export function shellWord(value: string): string {
  if (value !== "" && /^[A-Za-z0-9\-_=./:,+@]+$/.test(value)) return value;
  return "'" + value.replace(/'/g, "'\\''") + "'";
}
