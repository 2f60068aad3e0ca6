// A script's repository fixture, built the same way on every machine and for every binary: the same files, the same
// author and committer, the same dates, so tree and commit ids (which gentle-ai hashes into its identities) agree.
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { execa } from "execa";
import type { RepoFixture } from "./format.ts";

/** The pinned Git identity and dates of every commit a world makes (and of any `git` step). */
export const GIT_IDENTITY_ENV = {
  GIT_AUTHOR_NAME: "Relay Conformance",
  GIT_AUTHOR_EMAIL: "conformance@example.invalid",
  GIT_AUTHOR_DATE: "2026-01-01T00:00:00Z",
  GIT_COMMITTER_NAME: "Relay Conformance",
  GIT_COMMITTER_EMAIL: "conformance@example.invalid",
  GIT_COMMITTER_DATE: "2026-01-01T00:00:00Z",
} as const;

const GIT_TIMEOUT_MS = 60_000;

/** Runs git in `cwd` with the world's environment; a failure names the command and git's stderr. */
export async function git(
  cwd: string,
  args: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): Promise<{ exitCode: number; stdout: Buffer; stderr: Buffer }> {
  const r = await execa("git", args, {
    cwd,
    env,
    extendEnv: false,
    shell: false,
    reject: false,
    encoding: "buffer",
    stdin: "ignore",
    timeout: GIT_TIMEOUT_MS,
  });
  return { exitCode: r.exitCode ?? 1, stdout: Buffer.from(r.stdout), stderr: Buffer.from(r.stderr) };
}

async function mustGit(
  cwd: string,
  args: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): Promise<void> {
  const r = await git(cwd, args, env);
  if (r.exitCode !== 0)
    throw new Error(`git ${args.join(" ")} failed in the world's repository: ${r.stderr.toString("utf8").trim()}`);
}

function writeFiles(work: string, files: RepoFixture["committed"], section: (name: string) => string): void {
  for (const f of files) {
    const path = join(work, f.path);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, section(f.section));
  }
}

/**
 * Builds `work` as a repository: the committed files in one commit on `main`, then the changed files written over it.
 */
export async function buildRepository(
  work: string,
  fixture: RepoFixture,
  section: (name: string) => string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<void> {
  await mustGit(work, ["init", "-q", "-b", "main"], env);
  writeFiles(work, fixture.committed, section);
  await mustGit(work, ["add", "-A"], env);
  await mustGit(work, ["-c", "commit.gpgsign=false", "commit", "-q", "--allow-empty", "-m", "fixture"], env);
  writeFiles(work, fixture.changed, section);
}
