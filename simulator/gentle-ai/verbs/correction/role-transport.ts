// The provider-owned pi reviewer transport behind `capture-refuter|capture-validation --execute` (provider reference
// §9): gentle-ai itself resolves `pi` on PATH, runs it in an empty scratch directory with the role prompt on stdin,
// bounded.
import { accessSync, constants, mkdtempSync, rmSync, statSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import { tmpDirOf } from "../../../runtime/env-config.ts";

export const PI_ARGV: readonly string[] = [
  "--print",
  "--mode",
  "text",
  "--no-session",
  "--no-tools",
  "--no-extensions",
  "--no-skills",
  "--no-prompt-templates",
  "--no-themes",
  "--no-context-files",
  "--no-approve",
];
export const PI_BOUND_MS = 600_000;
export const SCRATCH_PREFIX = "gentle-ai-pi-reviewer-";

/** How one pi reviewer run ended; `err` texts are Go's (exec.LookPath, *exec.ExitError). */
export type PiRun =
  | { readonly kind: "ok"; readonly stdout: Buffer }
  | { readonly kind: "unavailable"; readonly err: string }
  | { readonly kind: "failed"; readonly err: string; readonly stderr: string }
  | { readonly kind: "empty" };

/** exec.LookPath("pi") over the given PATH value, with Go's error texts. */
export function lookPath(
  file: string,
  pathEnv: string | undefined,
): { ok: true; path: string } | { ok: false; err: string } {
  for (const entry of (pathEnv ?? "").split(":")) {
    if (pathEnv === undefined || pathEnv === "") break;
    const candidate = join(entry === "" ? "." : entry, file);
    try {
      if (statSync(candidate).isDirectory()) continue;
      accessSync(candidate, constants.X_OK);
    } catch {
      continue;
    }
    if (!isAbsolute(candidate))
      return { ok: false, err: `exec: "${file}": cannot run executable found relative to current directory` };
    return { ok: true, path: candidate };
  }
  return { ok: false, err: `exec: "${file}": executable file not found in $PATH` };
}

const GO_SIGNALS: Readonly<Record<string, string>> = {
  SIGKILL: "killed",
  SIGTERM: "terminated",
  SIGSEGV: "segmentation fault",
  SIGABRT: "aborted",
  SIGINT: "interrupt",
  SIGHUP: "hangup",
  SIGPIPE: "broken pipe",
};

const GO_ERRNO: Readonly<Record<string, string>> = {
  ENOENT: "no such file or directory",
  EACCES: "permission denied",
  ENOEXEC: "exec format error",
};

/** Runs pi once: scratch cwd created and always removed, prompt on stdin, process group killed at the bound. */
export async function runPiReviewer(
  prompt: Buffer,
  env: Readonly<Record<string, string | undefined>>,
  boundMs = PI_BOUND_MS,
): Promise<PiRun> {
  const found = lookPath("pi", env.PATH);
  if (!found.ok) return { kind: "unavailable", err: found.err };
  // Loaded on demand: node:child_process costs several ms of start-up that every other verb would pay.
  const { spawn } = await import("node:child_process");
  // The call's TMPDIR, not this process's: the same folder when spawned, and the caller's when answered in-process.
  const scratch = mkdtempSync(join(tmpDirOf(env), SCRATCH_PREFIX));
  return new Promise<PiRun>((resolve) => {
    const child = spawn(found.path, [...PI_ARGV], {
      cwd: scratch,
      env: { ...env },
      shell: false,
      detached: true,
      stdio: ["pipe", "pipe", "pipe"],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let timedOut = false;
    let settled = false;
    const finish = (run: PiRun): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      rmSync(scratch, { recursive: true, force: true });
      resolve(run);
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child.pid);
    }, boundMs);
    child.stdout.on("data", (c: Buffer) => out.push(c));
    child.stderr.on("data", (c: Buffer) => err.push(c));
    child.stdin.on("error", () => undefined); // pi may exit without reading its prompt
    child.on("error", (e: NodeJS.ErrnoException) => {
      // Start failure (Go: `fork/exec <path>: <errno>`); no process ran, so no stderr.
      finish({ kind: "failed", err: `fork/exec ${found.path}: ${GO_ERRNO[e.code ?? ""] ?? e.message}`, stderr: "" });
    });
    child.stdin.end(prompt);
    child.on("close", (code, signal) => {
      const stderr = Buffer.concat(err).toString("utf8").trim();
      if (timedOut) return finish({ kind: "failed", err: "signal: killed", stderr });
      if (signal) return finish({ kind: "failed", err: `signal: ${GO_SIGNALS[signal] ?? signal}`, stderr });
      if (code !== 0) return finish({ kind: "failed", err: `exit status ${code}`, stderr });
      const stdout = Buffer.concat(out);
      finish(stdout.toString("utf8").trim() === "" ? { kind: "empty" } : { kind: "ok", stdout });
    });
  });
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // The group already exited.
  }
}
