// The repository-only digests gentle-ai derives (reviewtransaction/snapshot.go untrackedProof,
// cli/review_start_lineage.go). The digests both worlds share (paths, snapshot identity, untracked inventory,
// changed-path manifest) live in simulator/state/identities.ts.
import { sha256Hex } from "../platform/sha256.ts";
import { goMarshal } from "../go/go-json.ts";

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

/** Digits of the target identity a derived lineage name carries (reviewDerivedStartLineageDigits). */
const DERIVED_DIGITS = 16;
/** How far the search for a free derived name goes (reviewStartLineageSuffixLimit, 301fb2ad). */
export const DERIVED_SUFFIX_LIMIT = 64;

/**
 * reviewDerivedStartLineage (cli/review_start_lineage.go at 301fb2ad): `review-` + the first 16 hex of the target
 * identity, or "" when the identity is shorter.
 */
export function derivedStartLineage(targetIdentity: string): string {
  const digest = targetIdentity.trim().replace(/^sha256:/, "");
  return digest.length < DERIVED_DIGITS ? "" : "review-" + digest.slice(0, DERIVED_DIGITS);
}

/**
 * reviewAvailableStartLineage (301fb2ad): "" when the derived name is free, else the first free `<derived>-N`
 * (N = 2…64), else "".
 */
export function availableStartLineage(targetIdentity: string, occupied: (lineageId: string) => boolean): string {
  const derived = derivedStartLineage(targetIdentity);
  if (derived === "" || !occupied(derived)) return "";
  for (let suffix = 2; suffix <= DERIVED_SUFFIX_LIMIT; suffix++)
    if (!occupied(`${derived}-${suffix}`)) return `${derived}-${suffix}`;
  return "";
}

/**
 * reviewAtomicStartLineage: the lineage a fresh START of this worktree's target gets, `review-` + 16 hex of
 * sha256 over the worktree identity and the target identity (cli/review_start_lineage.go).
 */
export function startLineageId(repositoryRef: string, targetIdentity: string): string {
  const payload = goMarshal({ worktree_identity: repositoryRef, target_identity: targetIdentity.trim() });
  return (
    "review-" +
    sha256Hex(Buffer.from("gentle-ai.review-start-lineage/v3\0", "utf8"), Buffer.from(payload, "utf8")).slice(0, 16)
  );
}
