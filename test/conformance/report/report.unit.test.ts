import { describe, expect, it } from "vitest";
import { consoleTable } from "../../../conformance/report/console.ts";
import { junitXml } from "../../../conformance/report/junit.ts";
import { markdownSummary } from "../../../conformance/report/markdown.ts";
import { mergeReports } from "../../../conformance/report/merge.ts";
import { ReportSchema, type Report } from "../../../conformance/report/report-schema.ts";

const report: Report = ReportSchema.parse({
  schema: "gentle-relay-conformance.report/v1",
  relay: "/r/relay.ts",
  profiles: ["2.4.0", "2.5.0"],
  seed: 9,
  runs: 2,
  startedAt: "2026-11-30T00:00:00.000Z",
  durationMs: 1500,
  cases: 3,
  summary: { passed: 1, failed: 1, skipped: 1, errored: 1 },
  clauses: [
    {
      id: "A-PASS",
      status: "pass",
      message: "",
      statement: "s",
      source: "x",
      profiles: [
        { profile: "2.4.0", status: "pass", message: "" },
        { profile: "2.5.0", status: "pass", message: "" },
      ],
    },
    {
      id: "B-FAIL",
      status: "fail",
      message: '2.5.0: got <&"x">',
      statement: "s",
      source: "x",
      profiles: [
        { profile: "2.4.0", status: "pass", message: "" },
        { profile: "2.5.0", status: "fail", message: 'got <&"x">' },
      ],
    },
    { id: "C-SKIP", status: "skip", message: "applies only to 2.3.0", statement: "s", source: "x", profiles: [] },
    {
      id: "D-ERROR",
      status: "error",
      message: "2.4.0: harness error: x",
      statement: "s",
      source: "x",
      profiles: [
        { profile: "2.4.0", status: "error", message: "harness error: x" },
        { profile: "2.5.0", status: "pass", message: "" },
      ],
    },
  ],
});

describe("report formats", () => {
  it("JUnit: one suite per profile, failures escaped", () => {
    expect(junitXml(report)).toBe(
      `<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="relay-conformance" tests="4" failures="1" errors="1" time="1.500">
  <testsuite name="gentle-ai 2.4.0" tests="3" failures="0" skipped="0" errors="1">
    <testcase classname="relay-conformance.2.4.0" name="A-PASS"></testcase>
    <testcase classname="relay-conformance.2.4.0" name="B-FAIL"></testcase>
    <testcase classname="relay-conformance.2.4.0" name="D-ERROR"><error message="harness error: x">harness error: x</error></testcase>
  </testsuite>
  <testsuite name="gentle-ai 2.5.0" tests="3" failures="1" skipped="0" errors="0">
    <testcase classname="relay-conformance.2.5.0" name="A-PASS"></testcase>
    <testcase classname="relay-conformance.2.5.0" name="B-FAIL"><failure message="got &lt;&amp;&quot;x&quot;&gt;">got &lt;&amp;&quot;x&quot;&gt;</failure></testcase>
    <testcase classname="relay-conformance.2.5.0" name="D-ERROR"></testcase>
  </testsuite>
</testsuites>
`,
    );
  });

  it("Markdown: verdict, totals and one row per clause", () => {
    const md = markdownSummary(report);
    expect(md.startsWith("# Relay conformance: FAIL\n")).toBe(true);
    expect(md).toContain("**1 passed, 1 failed, 1 skipped, 1 errored** (3 cases, 1.5 s).");
    expect(md).toContain("| `D-ERROR` | error | pass | **error** | 2.4.0: harness error: x |");
    const errorOnly = { ...report, summary: { ...report.summary, failed: 0 } };
    expect(markdownSummary(errorOnly).startsWith("# Relay conformance: ERROR\n")).toBe(true);
    expect(md).toContain('| `B-FAIL` | pass | fail | **fail** | 2.5.0: got <&"x"> |');
    expect(md).toContain("| `C-SKIP` | – | – | **skip** | applies only to 2.3.0 |");
  });

  it("console table: a status per profile and the summary line", () => {
    expect(consoleTable(report)).toBe(
      "\nCLAUSE   2.4.0   2.5.0   RESULT\nA-PASS   pass    pass    pass\nB-FAIL   pass    fail    fail\nC-SKIP   -       -       skip\nD-ERROR  error   pass    error\n\n1 passed, 1 failed, 1 skipped, 1 errored — 3 cases in 1.5s (seed 9)\n",
    );
  });

  it("console table: the end-of-run scan's finds after the summary, one line each", () => {
    const left = { ...report, leftBehind: [{ pid: 41, argv: ["/usr/bin/node", "/x/sleeper.cjs"] }] };
    expect(
      consoleTable(left).endsWith(
        '1 errored — 3 cases in 1.5s (seed 9)\n\nleft behind: 1 process(es) started during the run still run outside every process tree of the run (no PID namespace held the relay); not killed, since one may not be the relay\'s:\n  pid 41 argv ["/usr/bin/node","/x/sleeper.cjs"]\n',
      ),
    ).toBe(true);
    expect(ReportSchema.parse(left)).toEqual(left);
  });

  it("merge: every shard's finds are kept; none, no field", () => {
    const shard = (index: number, leftBehind?: Report["leftBehind"]): { name: string; report: Report } => ({
      name: `s${index}`,
      report: {
        ...report,
        clauses: index === 1 ? report.clauses : [],
        shard: { index, count: 2, selected: 4 },
        ...(leftBehind ? { leftBehind } : {}),
      },
    });
    const order = report.clauses.map((c) => c.id);
    expect(mergeReports([shard(1), shard(2)], order).leftBehind).toBeUndefined();
    expect(
      mergeReports([shard(1, [{ pid: 1, argv: ["a"] }]), shard(2, [{ pid: 2, argv: ["b"] }])], order).leftBehind,
    ).toEqual([
      { pid: 1, argv: ["a"] },
      { pid: 2, argv: ["b"] },
    ]);
  });

  it("the report schema rejects a clause status outside pass/fail/skip/error", () => {
    const bad = JSON.parse(JSON.stringify(report)) as { clauses: { status: string }[] };
    if (bad.clauses[0]) bad.clauses[0].status = "ok";
    expect(ReportSchema.safeParse(bad).success).toBe(false);
  });
});
