import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseReproductionFile } from "../../../conformance/repro/parse.ts";
import { runReproduction } from "../../../conformance/repro/run.ts";

// The whole issue-279 §5 table, written as a reproduction file and run against the 2.1.2 variant:
// the order in which errors surface as defects are fixed is data (the `defects=` option), not code.
type First = "drift" | "D2" | "D1" | "receipt";
const TABLE: readonly [defects: string, bare: First, prefixed: First][] = [
  ["D1,D2,D3", "drift", "D2"],
  ["D1,D2", "D2", "D2"],
  ["D1,D3", "drift", "D1"],
  ["D2,D3", "drift", "D2"],
  ["D1", "D1", "D1"],
  ["D2", "D2", "D2"],
  ["D3", "drift", "receipt"],
  ["none", "receipt", "receipt"],
];

const EXPECT: Record<First, string> = {
  drift: "expect code=correction-evidence-binding-drift\ncalls finalize=0",
  D2: "expect code=invalid_request message='compact correction acceptance requires captured repository verification evidence'\ncalls finalize=1",
  D1: "expect code=invalid_request message='targeted validation result does not bind the provider-owned correction request'\ncalls finalize=1",
  receipt:
    "expect ok receipt.result.state=approved\ncalls phase pi=0 capture-result=0 capture-refuter=0 capture-validation=0 capture-evidence=1 finalize=1",
};

function tableFile(): string {
  const phases = TABLE.flatMap(([defects, bare, prefixed]) =>
    (["bare", "prefixed"] as const).map((ids) =>
      [
        `phase defects ${defects}, ${ids} evidence ids: first ${ids === "bare" ? bare : prefixed}`,
        `scenario correction.json identities=${ids}`,
        "status",
        `capture-evidence client=gentle-pi-2.1.2 defects=${defects}`,
        "expect ok",
        `finalize client=gentle-pi-2.1.2 defects=${defects} validation=validation.json`,
        EXPECT[ids === "bare" ? bare : prefixed],
      ].join("\n"),
    ),
  );
  return [
    "# issue-279 reference §5: first error per defect set, as reported (bare) and source-faithful (prefixed)",
    "title #279 order of appearance",
    "",
    phases.join("\n\n"),
    "-- correction.json --",
    '{ "profile": "2.3.0", "lineage": { "state": "correction_required", "correction": { "stage": "evidence_required" } } }',
    "-- validation.json --",
    '{ "request_hash": "$REQUEST_HASH_BARE", "original_criteria": { "passed": true, "evidence": ["fixed"] }, "correction_regression": { "passed": true, "evidence": ["no regression"] }, "follow_ups": [] }',
    "",
  ].join("\n");
}

describe("issue-279 §5 order of appearance", () => {
  it("every defect set surfaces the documented first error in both identity modes", { timeout: 240_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), "repro-table-"));
    try {
      const file = join(dir, "279-table.txtar");
      writeFileSync(file, tableFile());
      const lines: string[] = [];
      const summary = await runReproduction(parseReproductionFile(file), { out: (l) => lines.push(l) });
      expect(lines.filter((l) => l.includes("MISMATCH"))).toEqual([]);
      expect(summary).toEqual({
        ok: true,
        mismatches: 0,
        checks: 16 * 3,
        steps: 16 * 3,
        skipped: 0,
        harnessErrors: [],
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
