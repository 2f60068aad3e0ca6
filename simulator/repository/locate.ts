// Finds the Git repository a call is pointed at and its identity (root, common dir, git dir), as gentle-ai's
// repository locator does (reviewtransaction/repository_locator.go).
import { existsSync, realpathSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { sha256Hex } from "../runtime/sha256.ts";
import { goMarshal } from "../output/go-json.ts";
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

/** The path is not inside a Git working tree gentle-ai can review. */
export class RepositoryNotFoundError extends Error {
  override readonly name = "RepositoryNotFoundError";
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

/** Resolves the repository containing `path` (any directory inside it); throws RepositoryNotFoundError. */
export function resolveRepository(path: string): RepositoryIdentity {
  const start = canonical(path);
  let lines: string[];
  try {
    lines = gitText(start, ["rev-parse", "--path-format=absolute", "--show-toplevel", "--git-common-dir", "--git-dir"]).split("\n");
  } catch (error) {
    const detail = error instanceof GitError ? (error.stderr.trim().split("\n")[0] ?? "") : String(error);
    // (inferred) wording: gentle-ai wraps the git failure as "resolve review repository root: …".
    throw new RepositoryNotFoundError(`resolve review repository root: ${detail || `${start} is not a git repository`}`);
  }
  if (lines.length !== 3 || lines.some((l) => l === "")) {
    // A bare repository has no toplevel (snapshot.go ErrBareRepositoryHasNoWorkingTree).
    throw new RepositoryNotFoundError("review needs a working tree");
  }
  const [root, gitCommonDir, gitDir] = lines.map(canonical) as [string, string, string];
  const preimage = goMarshal({ repository_root: root, git_common_dir: gitCommonDir, git_dir: gitDir });
  return { root, gitCommonDir, gitDir, repositoryRef: "sha256:" + sha256Hex(preimage) };
}
