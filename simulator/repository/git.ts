// Runs git for the repository reader: bytes in, bytes out, synchronously (every simulated call is one short process).
import { loadBuiltin } from "../platform/load-builtin.ts";

// node:child_process costs a few ms to load, so only calls that read a repository pay for it.
let childProcess: typeof import("node:child_process") | undefined;

/** A git command that exited non-zero (or could not start). */
export class GitError extends Error {
  override readonly name = "GitError";
  constructor(
    readonly args: readonly string[],
    /** The exit code, or null when git could not start or died by a signal. */
    readonly exitCode: number | null,
    readonly stderr: string,
  ) {
    super(`git ${args.join(" ")} failed${exitCode === null ? "" : ` (exit ${exitCode})`}: ${stderr.trim()}`);
  }
}

/** Options of one git run. */
export interface GitOptions {
  /** Bytes fed to stdin (none when absent). */
  readonly input?: Buffer | string;
  /** Extra environment entries (e.g. GIT_INDEX_FILE), applied over the sanitized environment. */
  readonly env?: Readonly<Record<string, string>>;
  /** Exit codes that count as success besides 0 (git grep and check-ignore answer 1 for "nothing"). */
  readonly okCodes?: readonly number[];
}

// Repository selectors a caller may have inherited: gentle-ai strips them so --cwd alone decides the repository
// (reviewtransaction/snapshot.go sanitizedGitEnvironment); so does the simulator.
const INHERITED_SELECTORS = [
  "GIT_DIR",
  "GIT_WORK_TREE",
  "GIT_INDEX_FILE",
  "GIT_COMMON_DIR",
  "GIT_OBJECT_DIRECTORY",
  "GIT_ALTERNATE_OBJECT_DIRECTORIES",
  "GIT_NAMESPACE",
  "GIT_PREFIX",
  "GIT_CEILING_DIRECTORIES",
];

function environment(extra: Readonly<Record<string, string>> | undefined): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of INHERITED_SELECTORS) delete env[name];
  // Deterministic output whatever the caller's locale and pager settings.
  env.LC_ALL = "C";
  env.GIT_PAGER = "cat";
  env.GIT_TERMINAL_PROMPT = "0";
  return { ...env, ...extra };
}

/** One finished git run. */
export interface GitRun {
  readonly stdout: Buffer;
  readonly stderr: string;
  /** The exit code, or null when git could not start or died by a signal. */
  readonly code: number | null;
}

/** Runs `git --no-replace-objects -C <repo> <args>` and reports how it ended, whatever the exit code. */
export function runGit(repo: string, args: readonly string[], options: GitOptions = {}): GitRun {
  childProcess ??= loadBuiltin<typeof import("node:child_process")>("node:child_process");
  const run = childProcess.spawnSync("git", ["--no-replace-objects", "-C", repo, ...args], {
    input: options.input,
    env: environment(options.env),
    maxBuffer: 256 * 1024 * 1024,
    stdio: ["pipe", "pipe", "pipe"],
  });
  if (run.error) return { stdout: Buffer.alloc(0), stderr: run.error.message, code: null };
  return { stdout: run.stdout, stderr: String(run.stderr ?? ""), code: run.status };
}

/** Runs git and returns stdout; throws GitError unless it exits 0 (or with one of options.okCodes). */
export function git(repo: string, args: readonly string[], options: GitOptions = {}): Buffer {
  const run = runGit(repo, args, options);
  if (run.code === 0 || (run.code !== null && (options.okCodes ?? []).includes(run.code))) return run.stdout;
  throw new GitError(args, run.code, run.stderr);
}

/** Trimmed UTF-8 stdout of a git command. */
export function gitText(repo: string, args: readonly string[], options: GitOptions = {}): string {
  return git(repo, args, options).toString("utf8").trim();
}

/** Splits NUL-terminated git output into its non-empty records. */
export function nulRecords(output: Buffer): string[] {
  return output
    .toString("utf8")
    .split("\0")
    .filter((r) => r.length > 0);
}
