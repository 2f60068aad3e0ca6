// A case that waits out a prescribed time runs on a wait lane, beside the CPU lanes, and keeps its verdict there.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CATALOGUE, selectClauses } from "../../../conformance/clauses/index.ts";
import { packageRoot } from "../../../conformance/paths.ts";
import { runCatalogue } from "../../../conformance/runner/run-catalogue.ts";

const cx = mkdtempSync(join(tmpdir(), "rc-wait-lanes-cx-"));
afterAll(() => rmSync(cx, { recursive: true, force: true }));

describe("wait lanes", () => {
  it("the materialize hang runs on a wait lane (numbered after the one CPU lane), the other cases on lane 0", async () => {
    const lanes: Record<string, number | undefined> = {};
    const report = await runCatalogue({
      relayModule: join(packageRoot(), "relay/index.ts"),
      clauses: selectClauses("^(MATERIALIZE-TIMEOUT|FORM-MISSING|PI-ARGV-FIXED)$", CATALOGUE),
      profiles: ["2.4.0"],
      runs: 1,
      seed: 1,
      timeoutMs: 20_000,
      concurrency: 1,
      counterexampleDir: cx,
      observer: { caseProcesses: (c) => (lanes[c.caseId] = c.lane) },
    });
    expect(report.clauses.map((c) => [c.id, c.status])).toEqual([
      ["FORM-MISSING", "pass"],
      ["MATERIALIZE-TIMEOUT", "pass"],
      ["PI-ARGV-FIXED", "pass"],
    ]);
    const { "materialize-timeout": waiting, ...others } = lanes;
    expect(waiting === 1 || waiting === 2).toBe(true);
    expect(Object.keys(others).length).toBeGreaterThan(0);
    expect(Object.values(others).every((lane) => lane === 0)).toBe(true);
  }, 60_000);
});
