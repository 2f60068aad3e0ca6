// Helpers for tests that spawn the CLI with a private TMPDIR and look for what it left behind.
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { packageRoot } from "../../conformance/paths.ts";
import { PROGRESS_LINE } from "../../conformance/cli/progress.ts";
import { COMPILE_CACHE_NAMES, linkCompileCaches } from "./compile-cache.ts";

export const root = packageRoot();
export const launcher = join(root, "conformance/bin/relay-conformance");

/**
 * A fresh TMPDIR for one spawned CLI, with the compile caches linked in (test/support/compile-cache.ts); `cleanup`
 * removes every one made.
 */
export function privateTmps(): { make(): string; cleanup(): void } {
  const dirs: string[] = [];
  return {
    make: () => {
      const d = mkdtempSync(join(tmpdir(), "rc-process-test-"));
      dirs.push(d);
      linkCompileCaches(d);
      return d;
    },
    cleanup: () => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })),
  };
}

/** What the harness left in TMPDIR (but the links to the compile caches, which the test made). */
export function leftovers(tmp: string): string[] {
  return readdirSync(tmp).filter((n) => !COMPILE_CACHE_NAMES.includes(n));
}

/** A spawned command's stderr without its progress lines (off a terminal it prints one every 10% or 10 s). */
export function withoutProgress(stderr: string): string {
  return stderr
    .split("\n")
    .filter((l) => !PROGRESS_LINE.test(l))
    .join("\n");
}

/** How a CLI process ended: exit code, raw output, and the ms from its summary line to its exit (null: no summary). */
export interface TimedCliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly afterSummaryMs: number | null;
}

/**
 * Runs the CLI launcher with `tmp` as its TMPDIR (and `env` added), timing its exit after the summary line (the
 * verdict).
 */
export async function timedCliRun(
  args: readonly string[],
  tmp: string,
  env: Readonly<Record<string, string>> = {},
): Promise<TimedCliRun> {
  const child = spawn(launcher, [...args], {
    cwd: root,
    env: { ...process.env, ...env, TMPDIR: tmp },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let summaryAt: number | null = null;
  child.stdout.on("data", (c: Buffer) => {
    stdout += c.toString("utf8");
    if (summaryAt === null && / errored — \d+ cases in /.test(stdout)) summaryAt = Date.now();
  });
  let stderr = "";
  child.stderr.on("data", (c: Buffer) => (stderr += c.toString("utf8")));
  const code = await new Promise<number | null>((resolve) => child.on("close", (c) => resolve(c)));
  return { code, stdout, stderr, afterSummaryMs: summaryAt === null ? null : Date.now() - summaryAt };
}
