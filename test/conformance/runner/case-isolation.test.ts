// Case isolation (issue #14): a harness fault is the case's `harness-error`, never a relay failure, and leaves no
// timer running; a busy or wedged adapter child fails only its own job and is killed with its tree; a run cut by
// --deadline reports what finished, the rest as `error`, and leaves nothing open.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CATALOGUE, selectClauses } from "../../../conformance/clauses/index.ts";
import type { CaseDef } from "../../../conformance/clauses/types.ts";
import { harnessPaths, packageRoot } from "../../../conformance/paths.ts";
import { RelayHost } from "../../../conformance/process/relay-host.ts";
import { runCase } from "../../../conformance/runner/run-case.ts";
import { runCatalogue } from "../../../conformance/runner/run-catalogue.ts";
import { createRunRoot } from "../../../conformance/runner/sandbox.ts";

const root = packageRoot();
const paths = harnessPaths();
const cx = mkdtempSync(join(tmpdir(), "rc-isolation-cx-"));
afterAll(() => rmSync(cx, { recursive: true, force: true }));

/** Handles and timers of this process, by kind. */
const open = (): string[] =>
  process
    .getActiveResourcesInfo()
    .filter((r) => r === "Timeout" || r === "ProcessWrap" || r === "PipeWrap")
    .sort();

/** What is open now beyond `before` (the run under test must add nothing). */
function added(before: readonly string[]): string[] {
  const left = [...before];
  return open().filter((r) => {
    const i = left.indexOf(r);
    if (i === -1) return true;
    left.splice(i, 1);
    return false;
  });
}

describe("runCase", () => {
  it("turns a harness fault in the adapter into harness-error and stops the case's watcher (the issue #14 hang)", async () => {
    const runRoot = createRunRoot();
    try {
      const before = open();
      const def: CaseDef = {
        id: "watched",
        noStatus: true,
        during: () => ({ prefix: "never-", act: () => undefined }),
      };
      const run = await runCase(def, "2.4.0", {
        paths,
        root: runRoot,
        relayModule: join(root, "relay/index.ts"),
        timeoutMs: 5000,
        runJob: () =>
          Promise.resolve({
            status: "harness",
            detail: "adapter worker is busy with job 1 (harness fault: two cases on one lane)",
          }),
      });
      expect(run.outcome).toEqual({
        type: "harness-error",
        detail: "adapter worker is busy with job 1 (harness fault: two cases on one lane)",
      });
      expect(added(before)).toEqual([]);
    } finally {
      runRoot.remove();
    }
  });
});

describe("RelayHost", () => {
  it("answers a second job while busy as the harness's fault, and a job past its bound kills the child's tree", async () => {
    const runRoot = createRunRoot();
    const worker = new RelayHost({
      tsxLoader: paths.tsxLoader,
      adapterChild: paths.adapterChild,
      cwd: runRoot.dir,
      env: { PATH: runRoot.binDir, TMPDIR: tmpdir() },
    });
    try {
      const relayModule = join(root, "test/conformance/clauses/broken-relays/hangs.ts");
      const job = {
        op: "run" as const,
        relayModule,
        cwd: runRoot.dir,
        processEnv: { PATH: runRoot.binDir },
        request: { captureArgumentTokens: ["x"] },
      };
      const loaded = await worker.run(
        { id: 1, op: "load", relayModule, cwd: runRoot.dir, processEnv: { PATH: runRoot.binDir } },
        { timeoutMs: 30_000 },
      );
      expect(loaded).toEqual({ status: "reply", reply: { type: "loaded", id: 1 } });
      const hung = worker.run({ ...job, id: 2 }, { timeoutMs: 1000 });
      expect(await worker.run({ ...job, id: 3 }, { timeoutMs: 1000 })).toEqual({
        status: "harness",
        detail: "adapter worker is busy with job 2 (harness fault: two cases on one lane)",
      });
      const ended = await hung;
      expect(ended.status).toBe("timeout");
      expect(worker.usable).toBe(false);
      expect(() => process.kill(worker.pid ?? -1, 0)).toThrow();
    } finally {
      await worker.kill();
      runRoot.remove();
    }
  }, 60_000);
});

describe("runCatalogue with a deadline", () => {
  it("stops at the deadline: finished clauses keep their verdict, unfinished ones are error, nothing stays open", async () => {
    const before = open();
    const started = Date.now();
    const report = await runCatalogue({
      relayModule: join(root, "test/conformance/clauses/broken-relays/hangs.ts"),
      clauses: selectClauses("^(PI-ARGV-FIXED|PROP-INVALID-FORM-NO-LAUNCH|API-CONSTANTS)$", CATALOGUE),
      profiles: ["2.4.0"],
      runs: 3,
      seed: 1,
      timeoutMs: 120_000,
      concurrency: 2,
      counterexampleDir: cx,
      deadlineMs: 4000,
    });
    expect(Date.now() - started).toBeLessThan(60_000);
    expect(Object.fromEntries(report.clauses.map((c) => [c.id, c.status]))).toEqual({
      "PI-ARGV-FIXED": "error",
      "PROP-INVALID-FORM-NO-LAUNCH": "error",
      "API-CONSTANTS": "pass",
    });
    expect(report.summary).toEqual({ passed: 1, failed: 0, skipped: 0, errored: 2 });
    expect(report.clauses[0]?.message).toBe("2.4.0: [happy-path] harness error: the run's deadline (4s) passed");
    expect(report.clauses[1]?.message).toMatch(
      /^2\.4\.0: harness error: \[property-invalid-form\] the run's deadline \(4s\) passed$/,
    );
    expect(added(before)).toEqual([]);
  }, 90_000);
});
