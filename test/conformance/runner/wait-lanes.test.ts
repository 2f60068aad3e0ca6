// Cases that wait out a prescribed time run on wait lanes beside the CPU lanes once a run has more of them than twice
// its CPU lanes, and keep their verdicts there; a run with fewer keeps them on its CPU lanes.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CATALOGUE, selectClauses } from "../../../conformance/clauses/index.ts";
import { packageRoot } from "../../../conformance/paths.ts";
import { runCatalogue } from "../../../conformance/runner/run-catalogue.ts";

const cx = mkdtempSync(join(tmpdir(), "rc-wait-lanes-cx-"));
afterAll(() => rmSync(cx, { recursive: true, force: true }));

/** One run on one CPU lane: its clause verdicts, and the lane each case ran on. */
async function lanesOf(
  grep: string,
): Promise<{ statuses: Record<string, string>; lanes: Record<string, number | undefined> }> {
  const lanes: Record<string, number | undefined> = {};
  const report = await runCatalogue({
    relayModule: join(packageRoot(), "relay/index.ts"),
    clauses: selectClauses(grep, CATALOGUE),
    profiles: ["2.4.0"],
    runs: 1,
    seed: 1,
    timeoutMs: 20_000,
    concurrency: 1,
    counterexampleDir: cx,
    observer: { caseProcesses: (c) => (lanes[c.caseId] = c.lane) },
  });
  return { statuses: Object.fromEntries(report.clauses.map((c) => [c.id, c.status])), lanes };
}

const HANGS = [
  "materialize-timeout",
  "materialize-timeout-traps-sigterm",
  "pi-timeout-traps-sigterm",
  "submit-timeout-traps-sigterm",
];

describe.concurrent("wait lanes", () => {
  it("four hanging cases on one CPU lane: they run on the two wait lanes (1 and 2), the others on lane 0", async () => {
    const { statuses, lanes } = await lanesOf("^(MATERIALIZE-TIMEOUT|TIMEOUT-HARD-KILL|FORM-MISSING)$");
    expect(statuses).toEqual({ "FORM-MISSING": "pass", "MATERIALIZE-TIMEOUT": "pass", "TIMEOUT-HARD-KILL": "pass" });
    expect(HANGS.map((id) => lanes[id] === 1 || lanes[id] === 2)).toEqual([true, true, true, true]);
    const others = Object.entries(lanes).filter(([id]) => !HANGS.includes(id));
    expect(others.length).toBeGreaterThan(0);
    expect(others.every(([, lane]) => lane === 0)).toBe(true);
  }, 60_000);

  it("one hanging case is not worth a host of its own: it stays on lane 0 with the rest", async () => {
    const { statuses, lanes } = await lanesOf("^(MATERIALIZE-TIMEOUT|FORM-MISSING)$");
    expect(statuses).toEqual({ "FORM-MISSING": "pass", "MATERIALIZE-TIMEOUT": "pass" });
    expect(lanes["materialize-timeout"]).toBe(0);
    expect(Object.values(lanes).every((lane) => lane === 0)).toBe(true);
  }, 60_000);
});
