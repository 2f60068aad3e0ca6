import { describe, expect, it } from "vitest";
import { createHash } from "node:crypto";
import { findJsonSyntaxError } from "../../../simulator/scenario/json-syntax.ts";
import { jsonPath } from "../../../simulator/scenario/format-issues.ts";
import { callKey, classifyCall } from "../../../simulator/runtime/classify-call.ts";
import { planFaults, CRASH_EXIT_CODE } from "../../../simulator/faults/apply.ts";
import { matchFaults } from "../../../simulator/faults/match.ts";
import { readSimConfig, tmpDirOf } from "../../../simulator/runtime/env-config.ts";
import type { FaultRule } from "../../../simulator/faults/fault-schema.ts";

describe("findJsonSyntaxError", () => {
  it.each([
    ['{"a": 1}', null],
    ["  [1, 2.5e-3, true, null, \"\\u00e9\"]\n", null],
    ["", { line: 1, column: 1, reason: "unexpected end of input" }],
    ["{\n  'a': 1}", { line: 2, column: 3, reason: "expected a property name" }],
    ['{"a" 1}', { line: 1, column: 6, reason: "expected ':' after property name" }],
    ['[1 2]', { line: 1, column: 4, reason: "expected ',' or ']' after array element" }],
    ['{"a": 01}', { line: 1, column: 8, reason: "expected ',' or '}' after property value" }],
    ['"ab\tc"', { line: 1, column: 4, reason: "control character in string" }],
    ['"\\x"', { line: 1, column: 3, reason: "invalid escape" }],
    ['{"a": tru}', { line: 1, column: 10, reason: 'unexpected character "}"' }],
    ["{} {}", { line: 1, column: 4, reason: 'unexpected "{" after the JSON value' }],
    ["\ufeff{}", { line: 1, column: 1, reason: "byte order mark is not allowed" }],
    ['{"a":\r\n\r\n -}', { line: 3, column: 2, reason: 'unexpected character "-"' }],
  ])("%j", (text, expected) => {
    expect(findJsonSyntaxError(text)).toEqual(expected);
    // It agrees with JSON.parse on validity.
    let valid = true;
    try {
      JSON.parse(text);
    } catch {
      valid = false;
    }
    expect(expected === null).toBe(valid);
  });
});

describe("jsonPath", () => {
  it("renders identifiers, indexes and odd keys", () => {
    expect(jsonPath([])).toBe("$");
    expect(jsonPath(["lineage", "lenses", 0])).toBe("$.lineage.lenses[0]");
    expect(jsonPath(["$schema", "a b", "x.y"])).toBe('$.$schema["a b"]["x.y"]');
  });
});

describe("classifyCall", () => {
  it.each([
    [["version"], { verb: "version" }],
    [["-v"], { verb: "version" }],
    [["--version"], { verb: "version" }],
    [["review"], { verb: "review" }],
    [["review", "--help"], { verb: "review" }],
    [["review", "status", "--agent", "pi"], { verb: "status" }],
    [["review", "capture-result", "--agent=pi", "--materialize=true"], { verb: "capture-result", leg: "materialize" }],
    [["review", "capture-result", "-materialize"], { verb: "capture-result", leg: "materialize" }],
    [["review", "capture-result", "--input=/tmp/x/result.raw"], { verb: "capture-result", leg: "submit" }],
    [["review", "capture-result", "--input", "-"], { verb: "capture-result", leg: "submit" }],
    [["review", "capture-result", "--materialize", "--input=x"], { verb: "capture-result", leg: "materialize" }],
    [["review", "capture-result", "--inputs=x", "--materialized"], { verb: "capture-result" }],
    [[], {}],
  ] as const)("%j", (argv, expected) => {
    expect(classifyCall("gentle-ai", argv)).toEqual(expected);
  });

  it("pi calls have neither verb nor leg", () => {
    expect(classifyCall("pi", ["--print", "--input=x"])).toEqual({});
    expect(callKey("pi", {})).toBe("pi - -");
    expect(callKey("gentle-ai", { verb: "capture-result", leg: "submit" })).toBe("gentle-ai capture-result submit");
  });
});

describe("matchFaults", () => {
  const rules: FaultRule[] = [
    { program: "gentle-ai", fault: { kind: "delay", ms: 1 } },
    { program: "gentle-ai", verb: "capture-result", fault: { kind: "delay", ms: 2 } },
    { program: "gentle-ai", verb: "capture-result", leg: "submit", calls: [2, 3], fault: { kind: "delay", ms: 3 } },
    { program: "gentle-ai", leg: "materialize", calls: "every", fault: { kind: "delay", ms: 4 } },
    { program: "pi", fault: { kind: "delay", ms: 5 } },
  ];
  const ms = (call: Parameters<typeof matchFaults>[1]): number[] => matchFaults(rules, call).map((f) => (f.kind === "delay" ? f.ms : -1));
  it("selects by program, verb, leg and call index, in rule order", () => {
    expect(ms({ program: "gentle-ai", verb: "version", callIndex: 1 })).toEqual([1]);
    expect(ms({ program: "gentle-ai", verb: "capture-result", leg: "submit", callIndex: 1 })).toEqual([1, 2]);
    expect(ms({ program: "gentle-ai", verb: "capture-result", leg: "submit", callIndex: 3 })).toEqual([1, 2, 3]);
    expect(ms({ program: "gentle-ai", verb: "capture-result", leg: "materialize", callIndex: 3 })).toEqual([1, 2, 4]);
    expect(ms({ program: "pi", callIndex: 9 })).toEqual([5]);
  });
});

describe("planFaults", () => {
  const outcome = { stdout: Buffer.from("out"), stderr: Buffer.from("err"), exitCode: 1 };
  const bytesOf = (spec: { text: string } | { base64: string } | { file: string }): Buffer => Buffer.from("text" in spec ? spec.text : "?");
  it("no faults: the outcome unchanged", () => {
    expect(planFaults(outcome, [], bytesOf)).toEqual({ delayMs: 0, stdout: outcome.stdout, stderr: outcome.stderr, exitCode: 1, drip: null, termination: { kind: "exit" }, trapSigterm: false, applied: [] });
  });
  it("last stderr / exit-code / slow-drip wins; delays add", () => {
    const plan = planFaults(
      outcome,
      [
        { kind: "stderr", bytes: { text: "a" } },
        { kind: "exit-code", code: 5 },
        { kind: "delay", ms: 10 },
        { kind: "slow-drip", chunkBytes: 1, intervalMs: 1 },
        { kind: "stderr", bytes: { text: "b" } },
        { kind: "exit-code", code: 0 },
        { kind: "slow-drip", chunkBytes: 2, intervalMs: 3 },
        { kind: "delay", ms: 5 },
      ],
      bytesOf,
    );
    expect([plan.stderr.toString(), plan.exitCode, plan.delayMs, plan.drip]).toEqual(["b", 0, 15, { chunkBytes: 2, intervalMs: 3 }]);
    expect(plan.applied).toHaveLength(8);
  });
  it("crash-mid-write exits CRASH_EXIT_CODE unless an exit-code fault sets a non-zero code", () => {
    expect(CRASH_EXIT_CODE).toBe(2);
    expect(planFaults(outcome, [{ kind: "crash-mid-write", bytes: 1 }], bytesOf).exitCode).toBe(2);
    expect(planFaults(outcome, [{ kind: "exit-code", code: 0 }, { kind: "crash-mid-write", bytes: 1 }], bytesOf).exitCode).toBe(2);
    expect(planFaults(outcome, [{ kind: "crash-mid-write", bytes: 1 }, { kind: "exit-code", code: 7 }], bytesOf).exitCode).toBe(7);
  });
  it("only the first terminal fault applies", () => {
    const plan = planFaults(outcome, [{ kind: "signal", signal: "SIGTERM" }, { kind: "hang" }, { kind: "partial-then-hang", bytes: 1 }], bytesOf);
    expect(plan.termination).toEqual({ kind: "signal", signal: "SIGTERM" });
    expect(plan.applied).toEqual([{ kind: "signal", signal: "SIGTERM" }]);
  });
  it("oversized-output truncates when N is below the current length", () => {
    expect(planFaults(outcome, [{ kind: "oversized-output", bytes: 2 }], bytesOf).stdout.toString()).toBe("ou");
  });
});

describe("readSimConfig", () => {
  it("resolves relative paths against cwd; empty values are unset; the default state dir follows TMPDIR", () => {
    const c = readSimConfig({ GENTLE_AI_SIM_SCENARIO: "s.json", GENTLE_AI_SIM_STATE: "", GENTLE_AI_SIM_TRANSCRIPT: "t/x.jsonl", TMPDIR: "/tmpx/" }, "/w");
    expect(c).toEqual({
      scenarioPath: "/w/s.json",
      stateDir: `/tmpx/gentle-ai-sim-state/${createHash("sha256").update("/w/s.json").digest("hex").slice(0, 16)}`,
      transcriptPath: "/w/t/x.jsonl",
      inlineMax: Number.POSITIVE_INFINITY,
    });
    expect(tmpDirOf({})).toBe("/tmp");
    expect(tmpDirOf({ TMP: "/a/" })).toBe("/a");
    expect(tmpDirOf({ TMPDIR: "/" })).toBe("/");
    expect(readSimConfig({ GENTLE_AI_SIM_TRANSCRIPT_INLINE_MAX: "0" }, "/").inlineMax).toBe(0);
  });
});
