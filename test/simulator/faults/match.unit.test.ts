import { describe, expect, it } from "vitest";
import { matchFaults } from "../../../simulator/faults/match.ts";
import type { FaultRule } from "../../../simulator/scenario/fault-schema.ts";

describe("matchFaults", () => {
  const rules: FaultRule[] = [
    { program: "gentle-ai", fault: { kind: "delay", ms: 1 } },
    { program: "gentle-ai", verb: "capture-result", fault: { kind: "delay", ms: 2 } },
    { program: "gentle-ai", verb: "capture-result", leg: "submit", calls: [2, 3], fault: { kind: "delay", ms: 3 } },
    { program: "gentle-ai", leg: "materialize", calls: "every", fault: { kind: "delay", ms: 4 } },
    { program: "pi", fault: { kind: "delay", ms: 5 } },
  ];
  const ms = (call: Parameters<typeof matchFaults>[1]): number[] =>
    matchFaults(rules, call).map((f) => (f.kind === "delay" ? f.ms : -1));
  it("selects by program, verb, leg and call index, in rule order", () => {
    expect(ms({ program: "gentle-ai", verb: "version", callIndex: 1 })).toEqual([1]);
    expect(ms({ program: "gentle-ai", verb: "capture-result", leg: "submit", callIndex: 1 })).toEqual([1, 2]);
    expect(ms({ program: "gentle-ai", verb: "capture-result", leg: "submit", callIndex: 3 })).toEqual([1, 2, 3]);
    expect(ms({ program: "gentle-ai", verb: "capture-result", leg: "materialize", callIndex: 3 })).toEqual([1, 2, 4]);
    expect(ms({ program: "pi", callIndex: 9 })).toEqual([5]);
  });
});
