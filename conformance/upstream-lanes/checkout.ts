// A gentle-pi checkout and the linked worktree its lanes run from: pi-host-relay's second test compares
// `git rev-parse --git-common-dir` of its cwd and of a temp repository, which only differ in a linked worktree.
import { accessSync, constants, existsSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ChildResult } from "../process/child-result.ts";
import { runProgram } from "../process/run-child.ts";
import type { LaneName } from "./report-schema.ts";

/** A bad checkout: the command prints this one line and exits 2. */
export class LaneInputError extends Error {
  override readonly name = "LaneInputError";
}

/** Where each lane's tests live in a gentle-pi checkout. */
export const LANE_FILES: Readonly<Record<LaneName, { readonly dir: string; readonly suffix: string }>> = {
  devbinary: { dir: "tests/devbinary", suffix: ".devtest.ts" },
  maintainer: { dir: "tests/maintainer", suffix: ".maintest.ts" },
  positive: { dir: "scripts/maintainer", suffix: "provider-relay-matrix.mjs" },
};

/** The lane's files (relative to the checkout), sorted; refuses a checkout that lacks the lane. */
export function laneFiles(checkout: string, lane: LaneName): string[] {
  const { dir, suffix } = LANE_FILES[lane];
  const abs = join(checkout, dir);
  const files = existsSync(abs)
    ? readdirSync(abs)
        .filter((n) => n.endsWith(suffix))
        .sort()
    : [];
  if (files.length === 0)
    throw new LaneInputError(`${checkout}: no ${dir}/*${suffix} (this gentle-pi checkout has no ${lane} lane)`);
  return files.map((n) => `${dir}/${n}`);
}

/** Checks `--binary`: an executable file (the same texts as `verify --binary`). */
export function checkBinary(path: string): void {
  try {
    if (!statSync(path).isFile()) throw new LaneInputError(`--binary ${path} is not a file`);
    accessSync(path, constants.X_OK);
  } catch (error) {
    if (error instanceof LaneInputError) throw error;
    throw new LaneInputError(
      `--binary ${path} is not an executable file (${(error as NodeJS.ErrnoException).code ?? "unreadable"})`,
    );
  }
}

const GIT_TIMEOUT_MS = 60_000;

/** One git call with the caller's environment; a git that cannot start answers on stderr with a null exit. */
function git(args: readonly string[]): Promise<ChildResult> {
  return runProgram("git", args, { cwd: process.cwd(), env: process.env, timeoutMs: GIT_TIMEOUT_MS });
}

/** Checks that the path is a gentle-pi git checkout; returns its HEAD commit. */
export async function checkoutCommit(checkout: string): Promise<string> {
  if (!existsSync(checkout)) throw new LaneInputError(`${checkout}: no such directory`);
  if (!statSync(checkout).isDirectory()) throw new LaneInputError(`${checkout}: not a directory`);
  if (!existsSync(join(checkout, "lib", "review-host-relay.ts")))
    throw new LaneInputError(`${checkout}: not a gentle-pi checkout (no lib/review-host-relay.ts)`);
  const head = await git(["-C", checkout, "rev-parse", "HEAD"]);
  if (head.exitCode !== 0)
    throw new LaneInputError(
      `${checkout}: not a git checkout (git rev-parse HEAD: ${head.stderr.toString("utf8").trim()})`,
    );
  return head.stdout.toString("utf8").trim();
}

/** A linked worktree of the checkout's HEAD in a temp folder; `remove()` detaches and deletes it. */
export async function linkedWorktree(
  checkout: string,
  commit: string,
): Promise<{ path: string; remove(): Promise<void> }> {
  const parent = mkdtempSync(join(tmpdir(), "relay-conformance-lanes-"));
  const path = join(parent, "gentle-pi");
  const add = await git(["-C", checkout, "worktree", "add", "--detach", path, commit]);
  if (add.exitCode !== 0) {
    rmSync(parent, { recursive: true, force: true });
    throw new LaneInputError(
      `${checkout}: cannot add a linked worktree: ${add.stderr.toString("utf8").trim().split("\n")[0]}`,
    );
  }
  return {
    path,
    async remove() {
      await git(["-C", checkout, "worktree", "remove", "--force", path]);
      rmSync(parent, { recursive: true, force: true });
      await git(["-C", checkout, "worktree", "prune"]);
    },
  };
}
