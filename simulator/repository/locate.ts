// Finds the Git repository a call is pointed at and its identity (root, common dir, git dir), as gentle-ai's
// repository locator does (reviewtransaction/repository_locator.go).
import { existsSync, realpathSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { sha256Hex } from "../platform/sha256.ts";
import { goMarshal } from "../go/go-json.ts";
import { GitError, gitText } from "./git.ts";

/** The resolved identity of one clone (or linked worktree). */
export interface RepositoryIdentity {
  /** Canonical (symlink-free) worktree root. */
  readonly root: string;
  /** Canonical Git common directory: where gentle-ai keeps clone-local state (`<common>/gentle-ai/…`). */
  readonly gitCommonDir: string;
  /** Canonical Git directory of this worktree. */
  readonly gitDir: string;
  /** `sha256:` over the three paths (repository_locator.go reviewRepositoryIdentityHash). */
  readonly repositoryRef: string;
}

/**
 * The path is not inside a Git working tree gentle-ai can review. `message` is `resolve review repository root: ` +
 * `detail`, Go's SnapshotBuilder.ResolveRepositoryRoot error text. `kind` says which error that is: a path that does
 * not exist (fs.ErrNotExist, which the kill switch reads as "no override"), a failed git (GitCommandError), or a bare
 * repository.
 */
export class RepositoryNotFoundError extends Error {
  override readonly name = "RepositoryNotFoundError";
  constructor(
    readonly detail: string,
    readonly kind: "missing" | "git" | "bare",
  ) {
    super(`resolve review repository root: ${detail}`);
  }

  /** The path does not exist. */
  get missing(): boolean {
    return this.kind === "missing";
  }
}

/**
 * Whether a Git working tree contains the path, judged by a `.git` entry in it or an ancestor: no process is
 * started, so calls outside repositories (the scenario-pinned world) pay nothing for the question.
 */
export function insideWorkTree(path: string): boolean {
  let dir = resolve(path);
  for (;;) {
    if (existsSync(join(dir, ".git"))) return true;
    const parent = dirname(dir);
    if (parent === dir) return false;
    dir = parent;
  }
}

function canonical(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

/** The shortest prefix of an absolute path that does not exist (what Go's EvalSymlinks names), or undefined. */
function firstMissing(absolute: string): string | undefined {
  if (existsSync(absolute)) return undefined;
  let missing = absolute;
  for (let parent = dirname(missing); parent !== missing && !existsSync(parent); parent = dirname(parent))
    missing = parent;
  return missing;
}

/** Resolves the repository containing `path` (any directory inside it); throws RepositoryNotFoundError. */
export function resolveRepository(path: string): RepositoryIdentity {
  const absolute = resolve(path);
  const missing = firstMissing(absolute);
  // canonicalRepositoryPath (snapshot.go:928): filepath.EvalSymlinks fails first on a missing path.
  if (missing !== undefined)
    throw new RepositoryNotFoundError(`lstat ${missing}: no such file or directory`, "missing");
  const start = canonical(absolute);
  let lines: string[];
  try {
    lines = gitText(start, [
      "rev-parse",
      "--path-format=absolute",
      "--show-toplevel",
      "--git-common-dir",
      "--git-dir",
    ]).split("\n");
  } catch (error) {
    // GitCommandError.Error (snapshot.go:1611) of resolveGitDirectory's `git rev-parse --show-toplevel`.
    const detail =
      error instanceof GitError
        ? `git rev-parse --show-toplevel failed with exit code ${error.exitCode ?? -1}: ${error.stderr.trim()}`
        : String(error);
    throw new RepositoryNotFoundError(detail, error instanceof GitError ? "git" : "missing");
  }
  if (lines.length !== 3 || lines.some((l) => l === "")) {
    // A bare repository has no toplevel (snapshot.go ErrBareRepositoryHasNoWorkingTree).
    throw new RepositoryNotFoundError("review needs a working tree", "bare");
  }
  const [root, gitCommonDir, gitDir] = lines.map(canonical) as [string, string, string];
  const preimage = goMarshal({ repository_root: root, git_common_dir: gitCommonDir, git_dir: gitDir });
  return { root, gitCommonDir, gitDir, repositoryRef: "sha256:" + sha256Hex(preimage) };
}
