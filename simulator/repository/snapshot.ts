// Freezes the review candidate of a repository the way gentle-ai's SnapshotBuilder does (reviewtransaction/snapshot.go
// build, buildCurrentChanges, buildHeadWithIntended): base and candidate trees, changed paths, the intended-untracked
// proof and the target identity. The real index is never touched: a private copy takes the workspace changes.
import { copyFileSync, lstatSync, mkdtempSync, rmSync, statSync, utimesSync } from "node:fs";
import { dirname, isAbsolute, join } from "node:path";
import { git, runGit, gitText, nulRecords } from "./git.ts";
import type { RepositoryIdentity } from "./locate.ts";
import { untrackedProof } from "./digests.ts";
import { pathsDigest, snapshotIdentity } from "../state/identities.ts";
import { goQuoteStr } from "../go/go-quote.ts";

/** One frozen or live snapshot (reviewtransaction.Snapshot, the parts STATUS prints). */
export interface SnapshotFacts {
  readonly kind: "current-changes" | "base-diff";
  readonly projection: "workspace" | "staged";
  readonly baseTree: string;
  readonly candidateTree: string;
  readonly paths: readonly string[];
  readonly pathsDigest: string;
  readonly intendedUntracked: readonly string[];
  readonly intendedUntrackedProof: string;
  readonly identity: string;
}

export type Projection = SnapshotFacts["projection"];
export type TargetKind = SnapshotFacts["kind"];

/** What to freeze. */
export interface TargetSelector {
  readonly kind: TargetKind;
  readonly projection: Projection;
  /** base-diff only: the revision to compare against. */
  readonly baseRef?: string;
  /** Canonical repo-relative untracked paths to include (already validated against the inventory). */
  readonly intendedUntracked: readonly string[];
}

/** One frozen candidate (the Go Snapshot, minus ledger ids): what STATUS prints of it, and whether HEAD is unborn. */
export interface Snapshot extends SnapshotFacts {
  readonly unbornHead: boolean;
}

/** A refusal while freezing the candidate (the text is gentle-ai's, quoted with Go's %q where it quotes). */
export class SnapshotError extends Error {
  override readonly name = "SnapshotError";
}

function treeOf(repo: RepositoryIdentity, revision: string): string | undefined {
  const r = runGit(repo.root, ["rev-parse", "--verify", "--quiet", `${revision.trim()}^{tree}`]);
  return r.code === 0 ? r.stdout.toString("utf8").trim() : undefined;
}

/** The empty tree (`git mktree` of nothing). */
export function emptyTree(repo: RepositoryIdentity): string {
  return gitText(repo.root, ["mktree"], { input: "" });
}

/** resolveCurrentChangesBase: HEAD's tree, or the empty tree on an unborn branch. */
function currentChangesBase(repo: RepositoryIdentity): { tree: string; unborn: boolean } {
  const head = treeOf(repo, "HEAD");
  if (head !== undefined) return { tree: head, unborn: false };
  const ref = runGit(repo.root, ["symbolic-ref", "--quiet", "HEAD"]);
  if (ref.code !== 0) throw new SnapshotError("fatal: ambiguous argument 'HEAD': unknown revision");
  return { tree: emptyTree(repo), unborn: true };
}

function literal(path: string): string {
  return ":(literal)" + path;
}

/** The set of paths a NUL-separated git listing names. */
function pathSet(output: Buffer): Set<string> {
  return new Set(nulRecords(output));
}

function rejectIgnored(repo: RepositoryIdentity, intended: readonly string[]): void {
  if (intended.length === 0) return;
  const out = git(repo.root, ["check-ignore", "-z", "--stdin", "--no-index"], {
    input: intended.map((p) => p + "\0").join(""),
    okCodes: [1],
  });
  const ignored = pathSet(out);
  for (const p of intended)
    if (ignored.has(p)) throw new SnapshotError(`intended-untracked path ${goQuoteStr(p)} is ignored`);
}

/** ls-tree -r -t -z records of a tree by path (each record keeps its NUL, as the proof hashes it). */
function treeEntries(repo: RepositoryIdentity, tree: string): Map<string, Buffer> {
  const out = git(repo.root, ["ls-tree", "-r", "-t", "-z", tree]);
  const entries = new Map<string, Buffer>();
  let start = 0;
  for (let i = 0; i < out.length; i++) {
    if (out[i] !== 0) continue;
    const record = out.subarray(start, i);
    const tab = record.indexOf(0x09);
    if (tab >= 0) entries.set(record.subarray(tab + 1).toString("utf8"), Buffer.concat([record, Buffer.from([0])]));
    start = i + 1;
  }
  return entries;
}

function proofFor(repo: RepositoryIdentity, candidateTree: string, intended: readonly string[]): string {
  if (intended.length === 0) return untrackedProof([]);
  const entries = treeEntries(repo, candidateTree);
  return untrackedProof(
    intended.map((path) => {
      const record = entries.get(path);
      if (record === undefined)
        throw new SnapshotError(`intended-untracked path ${goQuoteStr(path)} is absent from candidate tree`);
      return { path, record };
    }),
  );
}

/** Runs fn with GIT_INDEX_FILE pointing at a private index beside the real one (removed afterwards). */
function withPrivateIndex<T>(
  repo: RepositoryIdentity,
  seed: "real" | "head",
  fn: (env: Record<string, string>) => T,
): T {
  let indexPath = gitText(repo.root, ["rev-parse", "--git-path", "index"]);
  if (!isAbsolute(indexPath)) indexPath = join(repo.root, indexPath);
  // Beside git's own control files: a restricted environment may have no usable temp dir (snapshot.go).
  const dir = mkdtempSync(join(dirname(indexPath), ".gentle-ai-review-index-"));
  const tempIndex = join(dir, "index");
  try {
    const env = { GIT_INDEX_FILE: tempIndex };
    if (seed === "head") git(repo.root, ["read-tree", "HEAD"], { env });
    else {
      let real: ReturnType<typeof statSync> | undefined;
      try {
        real = statSync(indexPath);
      } catch {
        real = undefined;
      }
      if (real === undefined) git(repo.root, ["read-tree", "--empty"], { env });
      else {
        copyFileSync(indexPath, tempIndex);
        // Keep the real index's timestamp: git's racily-clean check must see the same age (snapshot.go).
        utimesSync(tempIndex, real.atime, real.mtime);
      }
    }
    return fn(env);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function addIntended(repo: RepositoryIdentity, env: Record<string, string>, intended: readonly string[]): void {
  if (intended.length === 0) return;
  git(repo.root, ["add", "--pathspec-from-file=-", "--pathspec-file-nul"], {
    env,
    input: intended.map(literal).join("\0"),
  });
}

function checkIntendedUntracked(repo: RepositoryIdentity, intended: readonly string[]): void {
  if (intended.length === 0) return;
  const tracked = pathSet(git(repo.root, ["ls-files", "--cached", "-z", "--"]));
  for (const p of intended)
    if (tracked.has(p)) throw new SnapshotError(`intended-untracked path ${goQuoteStr(p)} is already tracked`);
  rejectIgnored(repo, intended);
  for (const p of intended) {
    let isDir: boolean;
    try {
      isDir = lstatSync(join(repo.root, p)).isDirectory();
    } catch {
      throw new SnapshotError(
        `intended-untracked path ${goQuoteStr(p)}: lstat ${join(repo.root, p)}: no such file or directory`,
      );
    }
    if (isDir)
      throw new SnapshotError(`intended-untracked path ${goQuoteStr(p)} must name a file or symlink, not a directory`);
  }
}

/** buildCurrentChanges: HEAD (or empty) against the index copy plus tracked workspace edits and intended paths. */
function currentChanges(
  repo: RepositoryIdentity,
  projection: Projection,
  intended: readonly string[],
): { base: string; candidate: string; unborn: boolean } {
  const base = currentChangesBase(repo);
  checkIntendedUntracked(repo, intended);
  const candidate = withPrivateIndex(repo, "real", (env) => {
    if (projection !== "staged") {
      if (git(repo.root, ["ls-files", "--cached", "-z"], { env }).length > 0)
        git(repo.root, ["add", "-u", "--", "."], { env });
      addIntended(repo, env, intended);
    }
    return gitText(repo.root, ["write-tree"], { env });
  });
  if (base.unborn && projection === "staged" && candidate === base.tree)
    throw new SnapshotError("unborn repository has no staged changes; stage the review candidate with git add");
  return { base: base.tree, candidate, unborn: base.unborn };
}

/** buildHeadWithIntended: HEAD's tree, plus intended-untracked paths when given. */
function headWithIntended(repo: RepositoryIdentity, intended: readonly string[]): string {
  if (intended.length === 0) {
    const head = treeOf(repo, "HEAD");
    if (head === undefined) throw new SnapshotError("fatal: ambiguous argument 'HEAD': unknown revision");
    return head;
  }
  rejectIgnored(repo, intended);
  return withPrivateIndex(repo, "head", (env) => {
    addIntended(repo, env, intended);
    return gitText(repo.root, ["write-tree"], { env });
  });
}

/** changedPaths: diff-tree between the two trees, sorted. */
export function changedPaths(repo: RepositoryIdentity, baseTree: string, candidateTree: string): string[] {
  const out = git(repo.root, [
    "diff-tree",
    "--no-commit-id",
    "--name-only",
    "-r",
    "-z",
    "--no-renames",
    "--ignore-submodules=none",
    baseTree,
    candidateTree,
  ]);
  return nulRecords(out).sort();
}

/** Freezes the selected candidate of the repository. Throws SnapshotError for the refusals gentle-ai names. */
export function buildSnapshot(repo: RepositoryIdentity, selector: TargetSelector): Snapshot {
  const intended = [...selector.intendedUntracked].sort();
  if (selector.projection === "staged" && intended.length > 0)
    throw new SnapshotError("staged projection does not accept intended-untracked paths");
  let baseTree: string;
  let candidateTree: string;
  let unborn = false;
  if (selector.kind === "base-diff") {
    const ref = (selector.baseRef ?? "").trim();
    if (ref === "") throw new SnapshotError("base-diff requires base_ref");
    if (ref.includes("..")) throw new SnapshotError("base-diff base_ref must be one revision, not a range");
    const base = treeOf(repo, ref);
    if (base === undefined)
      throw new SnapshotError(
        `fatal: ambiguous argument '${ref}^{tree}': unknown revision or path not in the working tree.`,
      );
    baseTree = base;
    candidateTree = headWithIntended(repo, intended);
  } else {
    const built = currentChanges(repo, selector.projection, intended);
    baseTree = built.base;
    candidateTree = built.candidate;
    unborn = built.unborn;
  }
  const proof = proofFor(repo, candidateTree, intended);
  const paths = changedPaths(repo, baseTree, candidateTree);
  const digest = pathsDigest(paths);
  // A base diff is always committed-only, so its staged spelling names no distinct authority (snapshot.go
  // CanonicalTarget).
  const projection = selector.kind === "base-diff" ? "workspace" : selector.projection;
  return {
    kind: selector.kind,
    projection,
    unbornHead: unborn,
    baseTree,
    candidateTree,
    pathsDigest: digest,
    intendedUntracked: intended,
    intendedUntrackedProof: proof,
    paths,
    identity: snapshotIdentity(selector.kind, projection, baseTree, candidateTree, digest),
  };
}
