// The adapter child's mutant switch: what a coverage job reports, and what a job's code ran after its reply.
import { afterEach, describe, expect, it } from "vitest";
import type { AdapterJob } from "./protocol.ts";
import { switchMutant } from "./mutant-switch.ts";

interface Namespace {
  activeMutant?: string;
  currentTestId?: string;
  mutantCoverage?: { static: Record<string, number>; perTest: Record<string, Record<string, number>> };
}
const g = globalThis as { __stryker__?: Namespace };

/** What the instrumented code does when it runs mutant `id`'s place: count it under the current test, or static. */
function cover(id: string): void {
  const ns = (g.__stryker__ ??= {});
  const coverage = (ns.mutantCoverage ??= { static: {}, perTest: {} });
  const bucket = ns.currentTestId === undefined ? coverage.static : (coverage.perTest[ns.currentTestId] ??= {});
  bucket[id] = (bucket[id] ?? 0) + 1;
}

function job(op: AdapterJob["op"], active: string | null, testId: string): AdapterJob {
  return { id: 1, op, relayModule: "/relay.ts", cwd: "/", processEnv: {}, mutant: { active, testId } };
}

afterEach(() => {
  delete g.__stryker__;
});

describe("switchMutant", () => {
  it("counts load-time code as static and a job's code under its test id", () => {
    const load = switchMutant(job("load", null, "load"));
    cover("1");
    expect(load()).toEqual({ test: [], static: ["1"] });
    const run = switchMutant(job("run", null, "case-a@2.5.0"));
    cover("2");
    expect(run()).toEqual({ test: ["2"], static: ["1"] });
  });

  it("reports what a job's code ran after its reply as late, under that job's test id, with the next job", () => {
    const first = switchMutant(job("run", null, "case-a@2.5.0"));
    cover("2");
    expect(first()).toEqual({ test: ["2"], static: [] });
    // A child's close event after the reply: still under the first job's test id, not static.
    cover("3");
    expect(g.__stryker__?.mutantCoverage?.static).toEqual({});
    const second = switchMutant(job("probe", null, "flush"));
    expect(second()).toEqual({ test: [], static: [], late: { testId: "case-a@2.5.0", ids: ["3"] } });
  });

  it("keeps a mutant job's mutant active until the next job, and reports no coverage for it", () => {
    const mutant = switchMutant(job("run", "7", "case-a@2.5.0"));
    expect(mutant()).toBeUndefined();
    expect(g.__stryker__?.activeMutant).toBe("7");
    switchMutant(job("run", null, "case-b@2.5.0"));
    expect(g.__stryker__?.activeMutant).toBeUndefined();
  });
});
