import type { Assertion, Check } from "./format.ts";
import type { Outcome } from "./outcome.ts";
import type { Answer } from "./steps/context.ts";
import { countCalls, type SimCall } from "./transcript.ts";

/** The verdict on one assertion line. */
export interface Verdict {
  readonly ok: boolean;
  /** `expected …, actual …` text for the report. */
  readonly detail: string;
  /** Variables from named regex groups. */
  readonly vars: Record<string, string>;
}

/** What assertions may read. */
export interface AssertionInput {
  readonly outcome: Outcome;
  readonly answer: Answer | undefined;
  readonly stepCalls: readonly SimCall[];
  readonly phaseCalls: readonly SimCall[];
  readonly expand: (word: string) => string;
  readonly section: (name: string) => string;
}

function show(v: unknown): string {
  if (v === undefined) return "(absent)";
  return typeof v === "string" ? JSON.stringify(v) : String(v);
}

function checkOne(
  c: Check,
  actual: unknown,
  input: AssertionInput,
  vars: Record<string, string>,
): { ok: boolean; detail: string } {
  const expected = c.section !== undefined ? input.section(c.section) : input.expand(c.value);
  const a = actual === undefined ? undefined : String(actual);
  switch (c.op) {
    case "=":
      return {
        ok: a === expected,
        detail: `${c.key}: expected ${c.section !== undefined ? `@${c.section} ` : ""}${JSON.stringify(expected)}, actual ${show(actual)}`,
      };
    case "!=":
      return {
        ok: a !== expected,
        detail: `${c.key}: expected not ${JSON.stringify(expected)}, actual ${show(actual)}`,
      };
    case "~": {
      const m = typeof a === "string" ? new RegExp(expected, "s").exec(a) : null;
      if (m?.groups)
        Object.assign(vars, Object.fromEntries(Object.entries(m.groups).filter(([, v]) => v !== undefined)));
      return { ok: m !== null, detail: `${c.key}: expected match /${expected}/, actual ${show(actual)}` };
    }
    case ">=":
    case "<=": {
      const n = Number(expected);
      const ok = typeof actual === "number" && (c.op === ">=" ? actual >= n : actual <= n);
      return { ok, detail: `${c.key}: expected ${c.op} ${n}, actual ${show(actual)}` };
    }
  }
}

/** Evaluates one assertion line against a finished step. */
export function evaluate(a: Assertion, input: AssertionInput): Verdict {
  const vars: Record<string, string> = {};
  const answer = input.answer;
  switch (a.kind) {
    case "exit": {
      if (!answer)
        return { ok: false, detail: "the step made no provider call of its own (e.g. FINALIZE never launched)", vars };
      const ok = a.code === "nonzero" ? answer.exitCode !== 0 : answer.exitCode === a.code;
      return {
        ok,
        detail: `exit: expected ${a.code === "nonzero" ? "non-zero" : a.code}, actual ${answer.exitCode ?? "signal"}`,
        vars,
      };
    }
    case "match": {
      const bytes = answer?.[a.stream];
      if (!bytes)
        return {
          ok: false,
          detail: answer
            ? `${a.stream} not recorded`
            : "the step made no provider call of its own (e.g. FINALIZE never launched)",
          vars,
        };
      const text = bytes.toString("utf8");
      const m = new RegExp(input.expand(a.pattern), "m").exec(text);
      if (m?.groups && !a.negate)
        Object.assign(vars, Object.fromEntries(Object.entries(m.groups).filter(([, v]) => v !== undefined)));
      const ok = a.negate ? m === null : m !== null;
      return {
        ok,
        detail: `${a.stream}: expected ${a.negate ? "no " : ""}match /${input.expand(a.pattern)}/, actual ${JSON.stringify(text.length > 400 ? text.slice(0, 400) + "…" : text)}`,
        vars,
      };
    }
    case "cmp": {
      const bytes = answer?.[a.stream];
      if (!bytes)
        return {
          ok: false,
          detail: answer
            ? `${a.stream} not recorded`
            : "the step made no provider call of its own (e.g. FINALIZE never launched)",
          vars,
        };
      const want = Buffer.from(input.section(a.section), "utf8");
      return {
        ok: bytes.equals(want),
        detail: `${a.stream}: expected the bytes of @${a.section} ${JSON.stringify(want.toString("utf8"))}, actual ${JSON.stringify(bytes.toString("utf8"))}`,
        vars,
      };
    }
    case "expect": {
      const results = a.checks.map((c) => checkOne(c, input.outcome[c.key], input, vars));
      const bad = results.filter((r) => !r.ok);
      return { ok: bad.length === 0, detail: (bad.length ? bad : results).map((r) => r.detail).join("; "), vars };
    }
    case "calls": {
      const calls = a.scope === "phase" ? input.phaseCalls : input.stepCalls;
      const results = a.checks.map((c) => checkOne(c, countCalls(calls, c.key), input, vars));
      const bad = results.filter((r) => !r.ok);
      return {
        ok: bad.length === 0,
        detail: `${a.scope} calls: ${(bad.length ? bad : results).map((r) => r.detail).join("; ")}`,
        vars,
      };
    }
  }
}
