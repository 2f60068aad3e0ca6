// Deterministic provider identities derived from `lineage.seed` (provider reference §13). The trees, paths and
// revisions are synthetic (sha256 of the seed), so separate simulator processes agree without sharing anything but
// the scenario; every identity gentle-ai computes from those facts uses gentle-ai's own formula (snapshot identity,
// paths digest, changed-path manifest digest), so a consumer that recomputes one gets the value STATUS printed.
import { sha256Hex as digestHex } from "../platform/sha256.ts";
import { goMarshal } from "../go/go-json.ts";
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

/** One entry of a changed-path manifest: git raw status letter, numstat counts, the raw modes and the path flags. */
export interface ManifestEntry {
  readonly path: string;
  readonly status: "A" | "M" | "D" | "T";
  readonly additions: number;
  readonly deletions: number;
  /** Raw git modes: `000000` on the absent side of an addition or deletion. */
  readonly oldMode: string;
  readonly newMode: string;
  /** Only the mode changed (same object); absent means false (the seeded manifest never has one). */
  readonly modeOnly?: boolean;
  /** The path entered the candidate as a declared intended-untracked file; absent means false. */
  readonly intendedUntracked?: boolean;
}

/**
 * One changed_path_manifest entry as gentle-ai prints it (ChangedPathManifestEntry, frozen_candidate_context.go:75).
 */
export interface ChangedPathJson {
  readonly [key: string]: string | boolean;
  readonly path: string;
  readonly status: "A" | "D" | "M" | "T";
  readonly old_mode: string;
  readonly new_mode: string;
  readonly deleted: boolean;
  readonly type_changed: boolean;
  readonly mode_only: boolean;
  readonly intended_untracked: boolean;
}

/** The snapshot kinds the simulator derives identities for (reviewtransaction TargetKind). */
export type SnapshotKind = "current-changes" | "base-diff" | "base-workspace-overlay" | "fix-diff";

/** (inferred) the ledger id of the single seeded CRITICAL finding the correction fixes: review-risk's `R1-` prefix
 * (reviewer_envelope.go:156) and the first canonical index (transaction.go:379). */
export const FIX_FINDING_ID = "R1-001";

/** Every identity of one simulated lineage. */
export interface Identities {
  readonly seed: string;
  /** Snapshot identity of the reviewed workspace candidate (`sha256:`…). */
  readonly targetIdentity: string;
  /** `review-` + first 16 hex of the target identity (§13, the real START form for these fixtures). */
  readonly lineageId: string;
  /** `rctx1_` + 64 hex; stable for the lineage (inferred: one handle per lineage). */
  readonly repositoryContext: string;
  /** 40-hex Git tree ids. */
  readonly baseTree: string;
  readonly candidateTree: string;
  readonly manifest: readonly ManifestEntry[];
  /** The manifest's paths, sorted (the snapshot's `paths`). */
  readonly paths: readonly string[];
  /** gentle-ai's digest of `paths`. */
  readonly pathsDigest: string;
  /** gentle-ai's ChangedPathManifestDigest of the manifest. */
  readonly manifestSha256: string;
  /** Identity of the same trees under `--projection staged` (the index holds the worktree's trees, inferred). */
  readonly stagedTargetIdentity: string;
  /** Authority revision for a revision index (captures never advance it; lifecycle transitions do). */
  revision(index: number): string;
  /** `repository_context.event_id` for a revision index. */
  eventId(index: number): string;
  /** Artifact subject hash of one lens slot (inferred: gentle-ai's preimage also binds the slot order and revision). */
  subjectHash(lens: Lens): string;
  /** Targeted-validation request hash for a revision index (inferred derivation). */
  requestHash(index: number): string;
  /** Fix-diff snapshot identity of the correction candidate (kind fix-diff, ledger [FIX_FINDING_ID]). */
  readonly correctionTargetIdentity: string;
  /**
   * The corrected candidate is read live from a real workspace (a repository lineage): it exists once the workspace
   * changes a genesis path. False for the seeded lineage, whose correction stages are the scenario's.
   */
  readonly correctionFromWorkspace: boolean;
  /** Fix-diff snapshot identity of the correction candidate under the authority's own fix-finding ledger. */
  correctionIdentity(ledgerIds: readonly string[]): string;
  readonly correctionCandidateTree: string;
  readonly correctionPaths: readonly string[];
  readonly correctionPathsDigest: string;
  /** Identity of the live workspace once the correction is applied (base tree to the correction candidate tree). */
  readonly correctionLiveIdentity: string;
  /** The published approval receipt's identity (inferred derivation). */
  readonly receiptIdentity: string;
  /** The candidate's `git diff` bytes (the v1 `candidate_diff`; inferred line content). */
  readonly candidateDiff: Buffer;
  /** One manifest entry's candidate-inspection `patch` (what the reviewer prompt shows for it). */
  patch(entry: ManifestEntry): string;
  /** The opaque context handle published for a (target, revision) binding; a seeded lineage keeps one handle. */
  contextHandle(target: string, revision: string): string;
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

const NUL = Buffer.from([0]);

/** writeLengthPrefixed (snapshot.go:1555): decimal byte length, NUL, bytes, NUL. */
function lengthPrefixed(parts: Buffer[], value: string): void {
  const bytes = Buffer.from(value, "utf8");
  parts.push(Buffer.from(String(bytes.length), "utf8"), NUL, bytes, NUL);
}

/** gentle-ai's paths digest (digestPaths, snapshot.go:1484): length-prefixed paths under `gentle-ai.paths/v1`. */
export function pathsDigest(paths: readonly string[]): string {
  const parts = [Buffer.from("gentle-ai.paths/v1\u0000", "utf8")];
  for (const p of paths) lengthPrefixed(parts, p);
  return sha256Prefixed(Buffer.concat(parts));
}

/**
 * gentle-ai's snapshot identity (snapshotIdentityForProjection, snapshot.go:1524): the v3 domain for workspace
 * projections, v4 for staged, the overlay's own domain; then kind (plus the projection when staged), trees, paths
 * digest and ledger ids.
 */
export function snapshotIdentity(
  kind: SnapshotKind,
  projection: "workspace" | "staged",
  baseTree: string,
  candidateTree: string,
  digest: string,
  ledgerIds: readonly string[] = [],
): string {
  const staged = projection === "staged";
  const overlay = kind === "base-workspace-overlay";
  // The overlay has its own domain; a staged projection is spelled in the values whatever the domain
  // (snapshot.go:1524-1536).
  const domain = overlay
    ? "gentle-ai.review-snapshot/base-workspace-overlay/v2"
    : staged
      ? "gentle-ai.review-snapshot/v4"
      : "gentle-ai.review-snapshot/v3";
  const parts = [Buffer.from(domain + "\u0000", "utf8")];
  for (const v of staged
    ? [kind, projection, baseTree, candidateTree, digest]
    : [kind, baseTree, candidateTree, digest])
    lengthPrefixed(parts, v);
  for (const id of ledgerIds) lengthPrefixed(parts, id);
  return sha256Prefixed(Buffer.concat(parts));
}

/** The intended-untracked proof of a snapshot that declares no untracked paths (hashCanonical, snapshot.go:1546). */
export function emptyIntendedUntrackedProof(): string {
  return sha256Prefixed("gentle-ai.intended-untracked/v1\u0000");
}

/** gentle-ai's digest of the eligible untracked inventory (intendedUntrackedInventoryDigest, snapshot.go:722). */
export function untrackedInventoryDigest(paths: readonly string[]): string {
  const parts: Buffer[] = [];
  lengthPrefixed(parts, "gentle-ai.intended-untracked-inventory/v1");
  for (const p of paths) lengthPrefixed(parts, p);
  return sha256Prefixed(Buffer.concat(parts));
}

/** The manifest as gentle-ai prints it, in snapshot path order (frozen_candidate_context.go:205-207). */
export function changedPathManifest(entries: readonly ManifestEntry[]): ChangedPathJson[] {
  return entries.map((m) => ({
    path: m.path,
    status: m.status,
    old_mode: m.oldMode,
    new_mode: m.newMode,
    deleted: m.status === "D",
    type_changed: m.status === "T",
    mode_only: m.modeOnly === true,
    intended_untracked: m.intendedUntracked === true,
  }));
}

/** ChangedPathManifestDigest (artifact_subject.go:54): sha256 over a domain tag and the compact JSON entries. */
export function changedPathManifestDigest(entries: readonly ManifestEntry[]): string {
  return sha256Prefixed(
    Buffer.from("gentle-ai.review-changed-path-manifest/v1\u0000" + goMarshal(changedPathManifest(entries)), "utf8"),
  );
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
  return picked.map((path, i) => {
    const added = i === 0 && h[9]! % 2 === 0;
    return {
      path,
      status: added ? "A" : "M",
      additions: 1 + (h[10 + i]! % 9),
      deletions: added ? 0 : h[20 + i]! % 5,
      oldMode: added ? "000000" : "100644",
      newMode: "100644",
    };
  });
}

/** One file's `git diff` section (the same line content the materialized prompt's patches show). */
export function patchOf(seed: string, entry: ManifestEntry): string {
  const h = sha256Hex(`${seed}\u0000patch\u0000${entry.path}`);
  const lines: string[] = [`diff --git a/${entry.path} b/${entry.path}`];
  if (entry.status === "A") {
    lines.push("new file mode 100644", `index 0000000..${h.slice(0, 7)}`, "--- /dev/null", `+++ b/${entry.path}`);
    lines.push(`@@ -0,0 +1,${entry.additions} @@`);
  } else {
    lines.push(`index ${h.slice(7, 14)}..${h.slice(14, 21)} 100644`, `--- a/${entry.path}`, `+++ b/${entry.path}`);
    lines.push(`@@ -1,${entry.deletions} +1,${entry.additions} @@`);
    for (let i = 0; i < entry.deletions; i++) lines.push(`-previous line ${i + 1} ${h.slice(21 + i, 29 + i)}`);
  }
  for (let i = 0; i < entry.additions; i++) lines.push(`+candidate line ${i + 1} ${h.slice(32 + i, 40 + i)}`);
  return lines.join("\n") + "\n";
}

/** Answers the identities of a seed that names a repository-derived lineage, or undefined for any other seed. */
export type IdentitySource = (seed: string) => Identities | undefined;

/** The seed world: no seed names a repository lineage, so every lineage's identities derive from its seed. */
export const SEED_WORLD: IdentitySource = () => undefined;

// A seed's identities are a pure function of the seed, and one call reads them through several verbs' helpers (a
// materialize three times): derive them once per process.
const derived = new Map<string, Identities>();

/**
 * Derives every identity of the lineage from its seed, unless the source answers it: a lineage created by `review
 * start` on a real repository has real trees and paths (simulator/gentle-ai/repository-scope.ts builds that source).
 * Undefined is the seed world.
 */
export function identitiesFor(seed: string, source: IdentitySource | undefined): Identities {
  const fromRepository = source?.(seed);
  if (fromRepository !== undefined) return fromRepository;
  let ids = derived.get(seed);
  if (ids === undefined) derived.set(seed, (ids = deriveIdentities(seed)));
  return ids;
}

function deriveIdentities(seed: string): Identities {
  const manifest = manifestFor(seed);
  const paths = manifest.map((m) => m.path);
  const digest = pathsDigest(paths);
  const manifestSha256 = changedPathManifestDigest(manifest);
  const baseTree = tree(seed, "base-tree");
  const candidateTree = tree(seed, "candidate-tree");
  const targetIdentity = snapshotIdentity("current-changes", "workspace", baseTree, candidateTree, digest);
  const correctionCandidateTree = tree(seed, "correction-candidate-tree");
  const correctionPaths = paths.slice(0, 1);
  const correctionPathsDigest = pathsDigest(correctionPaths);
  return {
    seed,
    targetIdentity,
    lineageId: "review-" + targetIdentity.slice(7, 23),
    repositoryContext: "rctx1_" + derive(seed, "repository-context"),
    baseTree,
    candidateTree,
    manifest,
    paths,
    pathsDigest: digest,
    manifestSha256,
    stagedTargetIdentity: snapshotIdentity("current-changes", "staged", baseTree, candidateTree, digest),
    revision: (index) => "sha256:" + derive(seed, `revision/${index}`),
    eventId: (index) => "sha256:" + derive(seed, `event/${index}`),
    subjectHash: (lens) =>
      sha256Prefixed(`subject\u0000${lens}\u0000${baseTree}\u0000${candidateTree}\u0000${manifestSha256}`),
    requestHash: (index) => "sha256:" + derive(seed, `validation-request/${index}`),
    correctionTargetIdentity: snapshotIdentity(
      "fix-diff",
      "workspace",
      candidateTree,
      correctionCandidateTree,
      correctionPathsDigest,
      [FIX_FINDING_ID],
    ),
    correctionFromWorkspace: false,
    correctionIdentity: (ledger) =>
      snapshotIdentity("fix-diff", "workspace", candidateTree, correctionCandidateTree, correctionPathsDigest, ledger),
    correctionCandidateTree,
    correctionPaths,
    correctionPathsDigest,
    // The correction edits only genesis paths, so the live workspace keeps the reviewed path set.
    correctionLiveIdentity: snapshotIdentity("current-changes", "workspace", baseTree, correctionCandidateTree, digest),
    receiptIdentity: "sha256:" + derive(seed, "receipt"),
    candidateDiff: Buffer.from(manifest.map((m) => patchOf(seed, m)).join(""), "utf8"),
    patch: (entry) => patchOf(seed, entry),
    contextHandle: () => "rctx1_" + derive(seed, "repository-context"),
  };
}
