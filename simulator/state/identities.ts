// Deterministic provider identities derived from `lineage.seed` (provider reference §13). Every value is
// sha256-based so separate simulator processes agree without sharing anything but the scenario.
import { sha256Hex as digestHex } from "../runtime/sha256.ts";
import type { Lens } from "../scenario/lineage-spec.ts";

/** Lowercase hex SHA-256 of bytes or UTF-8 text. */
export function sha256Hex(data: string | Buffer): string {
  return digestHex(data);
}

/** `sha256:` + hex digest of bytes or UTF-8 text. */
export function sha256Prefixed(data: string | Buffer): string {
  return "sha256:" + sha256Hex(data);
}

/** Strips a `sha256:` prefix (the "#279 as reported" bare form). */
export function bareDigest(id: string): string {
  return id.startsWith("sha256:") ? id.slice(7) : id;
}

/** One entry of the fake changed-path manifest (git name-status letter plus numstat counts). */
export interface ManifestEntry {
  readonly path: string;
  readonly status: "A" | "M" | "D";
  readonly additions: number;
  readonly deletions: number;
}

/** Every identity of one simulated lineage. */
export interface Identities {
  readonly seed: string;
  /** `sha256:` + 64 hex. */
  readonly targetIdentity: string;
  /** `review-` + first 16 hex of the target identity (§13, inferred derivation). */
  readonly lineageId: string;
  /** `rctx1_` + 64 hex; stable for the lineage (inferred: one handle per lineage). */
  readonly repositoryContext: string;
  /** 40-hex Git tree ids. */
  readonly baseTree: string;
  readonly candidateTree: string;
  readonly manifest: readonly ManifestEntry[];
  /** `sha256:` digest of the compact manifest JSON. */
  readonly manifestSha256: string;
  /** Authority revision for a revision index (captures never advance it; lifecycle transitions do). */
  revision(index: number): string;
  /** `repository_context.event_id` for a revision index. */
  eventId(index: number): string;
  /** Artifact subject hash of one lens slot. */
  subjectHash(lens: Lens): string;
  /** Targeted-validation request hash for a revision index. */
  requestHash(index: number): string;
  /** Fix-diff identity of the correction candidate. */
  readonly correctionTargetIdentity: string;
  readonly correctionCandidateTree: string;
  readonly correctionPaths: readonly string[];
  readonly correctionPathsDigest: string;
}

const PATH_POOL = [
  "internal/review/capture.go",
  "internal/review/status.go",
  "internal/cli/review_artifact.go",
  "cmd/gentle-ai/main.go",
  "docs/review-integration.md",
  "internal/reviewtransaction/ledger.go",
  "scripts/release/check.sh",
  "README.md",
] as const;

/** Digest over a path list: `sha256:` + hex(sha256(paths joined by NUL)) (inferred encoding). */
export function pathsDigest(paths: readonly string[]): string {
  return sha256Prefixed(paths.join("\u0000"));
}

function derive(seed: string, label: string): string {
  return sha256Hex(`gentle-ai-sim\u0000${label}\u0000${seed}`);
}

function tree(seed: string, label: string): string {
  const hex = derive(seed, label).slice(0, 40);
  return /^0+$/.test(hex) ? "1" + hex.slice(1) : hex; // tree ids are never all zeros
}

function manifestFor(seed: string): ManifestEntry[] {
  const h = Buffer.from(derive(seed, "manifest"), "hex");
  const count = 2 + (h[0]! % 3);
  const picked: string[] = [];
  for (let i = 1; picked.length < count; i++) {
    const p = PATH_POOL[h[i % h.length]! % PATH_POOL.length]!;
    if (!picked.includes(p)) picked.push(p);
    if (i > 64) break;
  }
  picked.sort();
  return picked.map((path, i) => ({
    path,
    status: i === 0 && h[9]! % 2 === 0 ? "A" : "M",
    additions: 1 + (h[10 + i]! % 9),
    deletions: i === 0 && h[9]! % 2 === 0 ? 0 : h[20 + i]! % 5,
  }));
}

/** Answers the identities of a seed that names a repository-derived lineage, or undefined for any other seed. */
export type IdentitySource = (seed: string) => Identities | undefined;

let repositorySource: IdentitySource | undefined;

/**
 * Installs (or, with undefined, removes) the source of repository-derived identities for the call in progress: a
 * lineage created by `review start` on a real repository has real trees and paths, not seed-derived ones
 * (simulator/gentle-ai/repository-scope.ts installs it around one verb).
 */
export function useRepositoryIdentities(source: IdentitySource | undefined): void {
  repositorySource = source;
}

/** Derives every identity of the lineage from its seed (or, for a repository lineage, from its repository). */
export function identitiesFor(seed: string): Identities {
  const fromRepository = repositorySource?.(seed);
  if (fromRepository !== undefined) return fromRepository;
  const targetHex = derive(seed, "target");
  const manifest = manifestFor(seed);
  const manifestSha256 = sha256Prefixed(
    JSON.stringify(manifest.map((m) => ({ path: m.path, status: m.status, additions: m.additions, deletions: m.deletions }))),
  );
  const baseTree = tree(seed, "base-tree");
  const candidateTree = tree(seed, "candidate-tree");
  const correctionTargetIdentity = "sha256:" + derive(seed, "correction-target");
  const correctionPaths = manifest.slice(0, 1).map((m) => m.path);
  return {
    seed,
    targetIdentity: "sha256:" + targetHex,
    lineageId: "review-" + targetHex.slice(0, 16),
    repositoryContext: "rctx1_" + derive(seed, "repository-context"),
    baseTree,
    candidateTree,
    manifest,
    manifestSha256,
    revision: (index) => "sha256:" + derive(seed, `revision/${index}`),
    eventId: (index) => "sha256:" + derive(seed, `event/${index}`),
    subjectHash: (lens) => sha256Prefixed(`subject\u0000${lens}\u0000${baseTree}\u0000${candidateTree}\u0000${manifestSha256}`),
    requestHash: (index) => "sha256:" + derive(seed, `validation-request/${index}`),
    correctionTargetIdentity,
    correctionCandidateTree: tree(seed, "correction-candidate-tree"),
    correctionPaths,
    correctionPathsDigest: pathsDigest(correctionPaths),
  };
}
