// Which cases go on wait lanes: those whose scenario holds a call open for a prescribed time.
import { describe, expect, it } from "vitest";
import type { CaseDef } from "../../../conformance/clauses/types.ts";
import { MATERIALIZE_TIMEOUT, PI_SIGNAL, HAPPY } from "../../../conformance/clauses/cases.ts";
import { prescribesWait, waitLaneCount } from "../../../conformance/runner/prescribed-waits.ts";

const withFault = (kind: string, extra: Record<string, unknown> = {}): CaseDef =>
  ({ id: kind, scenario: () => ({ faults: [{ program: "pi", fault: { kind, ...extra } }] }) }) as unknown as CaseDef;

describe("prescribesWait", () => {
  it.each(["delay", "hang", "partial-then-hang", "slow-drip"])("a %s fault is a prescribed wait", (kind) => {
    expect(prescribesWait(withFault(kind, { ms: 100 }), "2.4.0")).toBe(true);
  });

  it("faults that end a call at once, no faults and no scenario are not", () => {
    expect(prescribesWait(withFault("signal", { signal: "SIGKILL" }), "2.4.0")).toBe(false);
    expect(prescribesWait(withFault("stdout", { bytes: "" }), "2.4.0")).toBe(false);
    expect(prescribesWait({ id: "plain", scenario: () => ({ pi: { exitCode: 1 } }) }, "2.4.0")).toBe(false);
    expect(prescribesWait({ id: "none" }, "2.4.0")).toBe(false);
  });

  it("reads the catalogue's own cases: a materialize hang waits, a pi SIGKILL and the happy path do not", () => {
    expect([MATERIALIZE_TIMEOUT, PI_SIGNAL, HAPPY].map((def) => prescribesWait(def, "2.4.0"))).toEqual([
      true,
      false,
      false,
    ]);
  });

  it("a scenario that needs the real sandbox cannot be read early: not a wait", () => {
    const needsSandbox: CaseDef = {
      id: "reads-files",
      scenario: (ctx) => {
        if (!ctx.sandbox.dir.startsWith("/tmp/")) throw new Error("no sandbox yet");
        return {};
      },
    };
    expect(prescribesWait(needsSandbox, "2.4.0")).toBe(false);
  });

  it("twice as many wait lanes as CPU lanes, once the run has more waiting cases than that; none before", () => {
    expect([1, 2, 4].map((concurrency) => waitLaneCount(concurrency, 100))).toEqual([2, 4, 8]);
    expect([waitLaneCount(2, 0), waitLaneCount(2, 4), waitLaneCount(2, 5)]).toEqual([0, 0, 4]);
  });
});
