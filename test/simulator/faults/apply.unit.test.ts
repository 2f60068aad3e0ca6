import { describe, expect, it } from "vitest";
import { planFaults, CRASH_EXIT_CODE } from "../../../simulator/faults/apply.ts";

describe("planFaults", () => {
  const outcome = { stdout: Buffer.from("out"), stderr: Buffer.from("err"), exitCode: 1 };
  const bytesOf = (spec: { text: string } | { base64: string } | { file: string }): Buffer =>
    Buffer.from("text" in spec ? spec.text : "?");
  it("no faults: the outcome unchanged", () => {
    expect(planFaults(outcome, [], bytesOf)).toEqual({
      delayMs: 0,
      stdout: outcome.stdout,
      stderr: outcome.stderr,
      exitCode: 1,
      drip: null,
      termination: { kind: "exit" },
      trapSigterm: false,
      applied: [],
    });
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
    expect([plan.stderr.toString(), plan.exitCode, plan.delayMs, plan.drip]).toEqual([
      "b",
      0,
      15,
      { chunkBytes: 2, intervalMs: 3 },
    ]);
    expect(plan.applied).toHaveLength(8);
  });
  it("crash-mid-write exits CRASH_EXIT_CODE unless an exit-code fault sets a non-zero code", () => {
    expect(CRASH_EXIT_CODE).toBe(2);
    expect(planFaults(outcome, [{ kind: "crash-mid-write", bytes: 1 }], bytesOf).exitCode).toBe(2);
    expect(
      planFaults(
        outcome,
        [
          { kind: "exit-code", code: 0 },
          { kind: "crash-mid-write", bytes: 1 },
        ],
        bytesOf,
      ).exitCode,
    ).toBe(2);
    expect(
      planFaults(
        outcome,
        [
          { kind: "crash-mid-write", bytes: 1 },
          { kind: "exit-code", code: 7 },
        ],
        bytesOf,
      ).exitCode,
    ).toBe(7);
  });
  it("only the first terminal fault applies", () => {
    const plan = planFaults(
      outcome,
      [{ kind: "signal", signal: "SIGTERM" }, { kind: "hang" }, { kind: "partial-then-hang", bytes: 1 }],
      bytesOf,
    );
    expect(plan.termination).toEqual({ kind: "signal", signal: "SIGTERM" });
    expect(plan.applied).toEqual([{ kind: "signal", signal: "SIGTERM" }]);
  });
  it("oversized-output truncates when N is below the current length", () => {
    expect(planFaults(outcome, [{ kind: "oversized-output", bytes: 2 }], bytesOf).stdout.toString()).toBe("ou");
  });
});
