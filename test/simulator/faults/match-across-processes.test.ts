import { afterEach, describe, expect, it } from "vitest";
import { runSim, SimWorld } from "../../support/sim-world.ts";

let world: SimWorld;
afterEach(() => world?.cleanup());

describe("fault matching across separate processes", () => {
  it("by verb and call index: only the 2nd and 4th `version` calls are faulted", async () => {
    world = new SimWorld();
    const scenario = world.writeScenario({
      faults: [
        { program: "gentle-ai", verb: "version", calls: [2, 4], fault: { kind: "exit-code", code: 7 } },
        { program: "gentle-ai", verb: "status", fault: { kind: "exit-code", code: 8 } },
        { program: "pi", fault: { kind: "exit-code", code: 9 } },
      ],
    });
    const env = world.env({ GENTLE_AI_SIM_SCENARIO: scenario });
    const codes: Array<number | null> = [];
    for (const args of [["version"], ["--version"], ["-v"], ["version"], ["version"]])
      codes.push((await runSim("gentle-ai", args, { env })).code);
    expect(codes).toEqual([0, 7, 0, 7, 0]);
    expect(world.entries().map((e) => [e.verb, e.callIndex, e.faults.length])).toEqual([
      ["version", 1, 0],
      ["version", 2, 1],
      ["version", 3, 0],
      ["version", 4, 1],
      ["version", 5, 0],
    ]);
  });

  it("by leg: materialize and submit calls are counted and faulted separately", async () => {
    world = new SimWorld();
    const scenario = world.writeScenario({
      faults: [
        {
          program: "gentle-ai",
          verb: "capture-result",
          leg: "materialize",
          calls: [2],
          fault: { kind: "stdout", bytes: { text: "M2" } },
        },
        { program: "gentle-ai", leg: "submit", calls: "every", fault: { kind: "stderr", bytes: { text: "S" } } },
      ],
    });
    const env = world.env({ GENTLE_AI_SIM_SCENARIO: scenario });
    const materialize = ["review", "capture-result", "--agent=pi", "--materialize=true"];
    const submit = ["review", "capture-result", "--input=/nonexistent/result.raw"];
    const runs = [];
    for (const args of [materialize, submit, materialize, submit, ["review", "capture-result"]])
      runs.push(await runSim("gentle-ai", args, { env }));
    expect(runs[2]!.stdout.toString()).toBe("M2");
    expect(runs[0]!.stdout.toString()).not.toBe("M2");
    expect([runs[1]!.stderr.toString(), runs[3]!.stderr.toString()]).toEqual(["S", "S"]);
    expect(runs[4]!.stderr.toString()).not.toBe("S");
    expect(world.entries().map((e) => [e.verb, e.leg ?? null, e.callIndex])).toEqual([
      ["capture-result", "materialize", 1],
      ["capture-result", "submit", 1],
      ["capture-result", "materialize", 2],
      ["capture-result", "submit", 2],
      ["capture-result", null, 1],
    ]);
  });

  it("parallel processes get distinct call indexes", async () => {
    world = new SimWorld();
    const env = world.env();
    const n = 12;
    const runs = await Promise.all(Array.from({ length: n }, () => runSim("gentle-ai", ["version"], { env })));
    expect(runs.map((r) => r.code)).toEqual(Array(n).fill(0));
    const indexes = world
      .entries()
      .map((e) => e.callIndex)
      .sort((a, b) => a - b);
    expect(indexes).toEqual(Array.from({ length: n }, (_, i) => i + 1));
  });

  it("pi rules never match gentle-ai calls and vice versa", async () => {
    world = new SimWorld();
    const scenario = world.writeScenario({ faults: [{ program: "pi", fault: { kind: "exit-code", code: 5 } }] });
    const env = world.env({ GENTLE_AI_SIM_SCENARIO: scenario });
    expect((await runSim("gentle-ai", ["version"], { env })).code).toBe(0);
    expect((await runSim("pi", [], { env })).code).toBe(5);
  });
});
