// The repository-only digests gentle-ai derives (reviewtransaction/snapshot.go untrackedProof,
// cli/review_start_lineage.go). The digests both worlds share (paths, snapshot identity, untracked inventory,
// changed-path manifest) live in simulator/state/identities.ts.
import { sha256Hex } from "../runtime/sha256.ts";
import { goMarshal } from "../output/go-json.ts";

/** Go's writeLengthPrefixed: `<decimal length>\0<bytes>\0`. */
function lengthPrefixed(value: string | Buffer): Buffer {
  const bytes = typeof value === "string" ? Buffer.from(value, "utf8") : value;
  return Buffer.concat([Buffer.from(`${bytes.length}\0`, "utf8"), bytes, Buffer.from([0])]);
}

/** untrackedProof: binds each intended-untracked path to its exact candidate-tree entry (`ls-tree -z` record). */
export function untrackedProof(entries: ReadonlyArray<{ readonly path: string; readonly record: Buffer }>): string {
  const parts: Buffer[] = [];
  for (const e of entries) parts.push(lengthPrefixed(e.path), lengthPrefixed(e.record));
  return "sha256:" + sha256Hex(Buffer.from("gentle-ai.intended-untracked/v1\0", "utf8"), ...parts);
}

/**
 * reviewAtomicStartLineage: the lineage a fresh START of this worktree's target gets, `review-` + 16 hex of
 * sha256 over the worktree identity and the target identity (cli/review_start_lineage.go).
 */
export function startLineageId(repositoryRef: string, targetIdentity: string): string {
  const payload = goMarshal({ worktree_identity: repositoryRef, target_identity: targetIdentity.trim() });
  return "review-" + sha256Hex(Buffer.from("gentle-ai.review-start-lineage/v3\0", "utf8"), Buffer.from(payload, "utf8")).slice(0, 16);
}
