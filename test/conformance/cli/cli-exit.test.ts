// A CI gate exits right after its verdict: after the summary line the process is gone within 2 s (issue #14: it
// once lingered until an outer timeout), also when --deadline cut the run short (exit 3, harness error).
import { afterAll, describe, expect, it } from "vitest";
import { HARNESS_ERROR_EXIT, verdictExit } from "../../../conformance/clauses/catalogue-options.ts";
import { parseDuration } from "../../../conformance/cli/options.ts";
import { PROGRESS_LINE } from "../../../conformance/cli/progress.ts";
import { leftovers, privateTmps, timedCliRun, withoutProgress } from "../../support/cli-process.ts";
import { eventually, processesUsing } from "../../support/processes.ts";

const tmps = privateTmps();
afterAll(() => tmps.cleanup());

/** Runs the CLI; returns its exit code, output and the ms from the summary line to the exit. */
async function timedRun(args: readonly string[]): Promise<{
  code: number | null;
  stdout: string;
  stderr: string;
  progress: string[];
  afterSummaryMs: number | null;
  tmp: string;
}> {
  const tmp = tmps.make();
  const { code, stdout, stderr, afterSummaryMs } = await timedCliRun(args, tmp);
  return {
    code,
    stdout,
    stderr: withoutProgress(stderr),
    progress: stderr.split("\n").filter((l) => PROGRESS_LINE.test(l)),
    afterSummaryMs,
    tmp,
  };
}

describe("exit after the verdict", () => {
  it("a passing run exits 0 within 2 s of its summary line, leaving nothing behind", async () => {
    const r = await timedRun([
      "run",
      "--grep",
      "^(PI-ARGV-FIXED|ABORT-HONOURED|CLEANUP-FAILURE-TYPED|API-CONSTANTS)$",
      "--profile",
      "2.4.0",
      "--seed",
      "1",
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^4 passed, 0 failed, 0 skipped, 0 errored — /m);
    expect(r.afterSummaryMs).not.toBeNull();
    expect(r.afterSummaryMs).toBeLessThan(2000);
    // Not by the watchdog (cli/process-guards.ts), which would have said so: nothing was left open.
    expect(r.stderr).toBe("");
    // Off a terminal, progress is plain lines on stderr, the last one at 100%.
    expect(r.progress.at(-1)).toMatch(/^relay-conformance run: (\d+)\/\1 cases \(100%\), 0 failed, /);
    expect(leftovers(r.tmp)).toEqual([]);
    expect(await eventually(() => processesUsing(r.tmp).length === 0, 1000)).toBe(true);
  }, 120_000);

  it("--deadline stops a run whose relay never settles: unfinished clauses error, exit 3, out within 2 s", async () => {
    const started = Date.now();
    const r = await timedRun([
      "run",
      "--relay",
      "test/conformance/clauses/broken-relays/hangs.ts",
      "--grep",
      "^(PI-ARGV-FIXED|API-CONSTANTS)$",
      "--profile",
      "2.4.0",
      "--seed",
      "1",
      "--timeout-ms",
      "600000",
      "--deadline",
      "5s",
    ]);
    expect(Date.now() - started).toBeLessThan(60_000);
    expect(r.code).toBe(HARNESS_ERROR_EXIT);
    expect(r.stdout).toContain(
      "ERROR  PI-ARGV-FIXED  2.4.0: [happy-path] harness error: the run's deadline (5s) passed\n",
    );
    expect(r.stdout).toMatch(/^1 passed, 0 failed, 0 skipped, 1 errored — /m);
    expect(r.afterSummaryMs).toBeLessThan(2000);
    expect(r.stderr).toBe("");
    expect(leftovers(r.tmp)).toEqual([]);
    expect(await eventually(() => processesUsing(r.tmp).length === 0, 1000)).toBe(true);
  }, 120_000);
});

describe("exit codes and durations", () => {
  it("a failure outranks a harness error; 0 only when neither", () => {
    expect([
      verdictExit({ failed: 0, errored: 0 }),
      verdictExit({ failed: 2, errored: 1 }),
      verdictExit({ failed: 0, errored: 1 }),
    ]).toEqual([0, 1, 3]);
  });

  it("--deadline takes ms, s, m or h; a bare number is seconds", () => {
    expect(["250ms", "90s", "90", "10m", "1h"].map((v) => parseDuration("deadline", v))).toEqual([
      250, 90_000, 90_000, 600_000, 3_600_000,
    ]);
    expect(parseDuration("deadline", undefined)).toBeUndefined();
  });
});
