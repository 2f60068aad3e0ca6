// Git for test fixtures: real repositories, run with a fixed locale so messages and output are stable.
import { execaSync } from "execa";

/** Runs git in a repository; trimmed stdout. */
export function git(repo: string, ...args: string[]): string {
  return execaSync("git", args, { cwd: repo, shell: false, env: { ...process.env, LC_ALL: "C" } }).stdout.trim();
}

/** The tree of a revision. */
export function treeOf(repo: string, revision = "HEAD"): string {
  return git(repo, "rev-parse", `${revision}^{tree}`);
}

/**
 * The tree of the index plus these working-tree paths, as gentle-ai freezes a candidate; the real index is restored.
 */
export function candidateTreeOf(repo: string, paths: readonly string[]): string {
  git(repo, "add", ...paths);
  const tree = git(repo, "write-tree");
  git(repo, "reset", "-q");
  return tree;
}
