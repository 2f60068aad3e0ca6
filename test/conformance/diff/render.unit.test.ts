// The closing lines of `diff`: one verdict over everything that ran, scenarios and generated calls alike.
import { describe, expect, it } from "vitest";
import { summaryLines } from "../../../conformance/diff/render.ts";
import { DIFF_REPORT_SCHEMA_ID, type Divergence, type DiffReport } from "../../../conformance/diff/report-schema.ts";

const none = { scenarios: 0, passed: 0, diverged: 0, skipped: 0, errors: 0, calls: 0 };
const report = (over: Partial<DiffReport>): DiffReport => ({
  schema: DIFF_REPORT_SCHEMA_ID,
  binary: { path: "/b/gentle-ai", version: "gentle-ai 2.5.0" },
  profile: "2.5.0",
  scenarios: [],
  summary: none,
  ...over,
});
const divergence: Divergence = {
  phase: 1,
  index: 5,
  field: "stderr",
  offset: 7,
  call: { program: "gentle-ai", argv: ["review", "start"], handshake: null, stdin: { text: "" } },
  binary: { text: "Error: a\n" },
  simulator: { text: "Error: b\n" },
};

describe("summaryLines", () => {
  it("a generated-only run says nothing of scenarios, and its divergence fails the verdict", () => {
    const g = { runs: 3, seed: 2, calls: 61, counterexample: "/w/diff-counterexample-seed-2.txtar", divergence };
    expect(summaryLines(report({ generated: g }))).toEqual([
      "FAIL: generated: 61 calls in 3 worlds, seed 2, against gentle-ai 2.5.0 (profile 2.5.0): a divergence, shrunk and saved as /w/diff-counterexample-seed-2.txtar",
    ]);
    expect(summaryLines(report({ generated: { runs: 1, seed: 1, calls: 4 } }))).toEqual([
      "PASS: generated: 4 calls in 1 world, seed 1, against gentle-ai 2.5.0 (profile 2.5.0): no divergence",
    ]);
  });

  it("a corpus that matches does not pass a run whose generated calls diverged", () => {
    const summary = { ...none, scenarios: 2, passed: 2, calls: 30 };
    expect(
      summaryLines(
        report({ summary, generated: { runs: 2, seed: 1, calls: 40, counterexample: "/w/c.txtar", divergence } }),
      ),
    ).toEqual([
      "FAIL: 2 of 2 scenarios match (0 diverge, 0 skipped, 0 harness errors), 30 calls against gentle-ai 2.5.0 (profile 2.5.0)",
      "generated: 40 calls in 2 worlds, seed 1, against gentle-ai 2.5.0 (profile 2.5.0): a divergence, shrunk and saved as /w/c.txtar",
    ]);
    expect(summaryLines(report({ summary }))).toEqual([
      "PASS: 2 of 2 scenarios match (0 diverge, 0 skipped, 0 harness errors), 30 calls against gentle-ai 2.5.0 (profile 2.5.0)",
    ]);
  });
});
