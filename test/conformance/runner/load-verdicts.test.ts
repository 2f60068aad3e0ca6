// Verdicts that do not move with load: the clauses whose cases race a bound (timeouts, delays, a second host, aborts,
// cleanup sabotage) give our relay the same verdict, pass, with two busy loops competing for the cores.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CATALOGUE, selectClauses } from "../../../conformance/clauses/index.ts";
import { packageRoot } from "../../../conformance/paths.ts";
import { runCatalogue } from "../../../conformance/runner/run-catalogue.ts";

const TIMING =
  "^(MATERIALIZE-TIMEOUT|PI-TIMEOUT-ENV-OVERRIDE|SUBMIT-TIMEOUT|NO-RETRY|CLEANUP-FAILURE-TYPED|SCRATCH-CLEANUP-FAILURE|ABORT-HONOURED|TIMEOUT-HARD-KILL|NO-ORPHANS)$";
const cx = mkdtempSync(join(tmpdir(), "rc-load-cx-"));
afterAll(() => rmSync(cx, { recursive: true, force: true }));

describe("under two busy loops", () => {
  it("every timing-sensitive clause still passes on our relay", async () => {
    const loops: ChildProcess[] = [0, 1].map(() => spawn(process.execPath, ["-e", "for (;;) {}"], { stdio: "ignore" }));
    // Four lanes plus eight wait lanes each listen for the run's deadline: no "possible leak" warning on stderr.
    const warnings: string[] = [];
    const onWarning = (warning: Error): void => {
      if (warning.name === "MaxListenersExceededWarning") warnings.push(warning.message);
    };
    process.on("warning", onWarning);
    try {
      const report = await runCatalogue({
        relayModule: join(packageRoot(), "relay/index.ts"),
        clauses: selectClauses(TIMING, CATALOGUE),
        profiles: ["2.4.0"],
        runs: 1,
        seed: 1,
        timeoutMs: 20_000,
        // Most cases wait out a relay bound (1.5 s, 3 s) on idle children: four lanes wait them out side by side.
        // That adds the run's own children to the loops' load, so every verdict still holds under at least two loops.
        concurrency: 4,
        counterexampleDir: cx,
      });
      expect(report.clauses.filter((c) => c.status !== "pass").map((c) => `${c.id}: ${c.message}`)).toEqual([]);
      expect(report.clauses).toHaveLength(9);
      expect(warnings).toEqual([]);
    } finally {
      process.off("warning", onWarning);
      for (const loop of loops) loop.kill("SIGKILL");
    }
  }, 240_000);
});
