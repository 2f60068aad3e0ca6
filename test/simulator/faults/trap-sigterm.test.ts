// trap-sigterm: a simulated gentle-ai or pi that ignores SIGTERM, as real processes may, so only SIGKILL ends it.
import { existsSync, readFileSync } from "node:fs";
import { execa } from "execa";
import { afterEach, describe, expect, it } from "vitest";
import { planFaults } from "../../../simulator/faults/apply.ts";
import { BIN, SimWorld } from "../../support/sim-world.ts";

let world: SimWorld;
afterEach(() => world?.cleanup());

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe.each([
  { program: "gentle-ai" as const, args: ["version"] },
  { program: "pi" as const, args: ["--print", "--mode", "text"] },
])("trap-sigterm on $program", ({ program, args }) => {
  it("with hang: SIGTERM is ignored, SIGKILL ends it", async () => {
    world = new SimWorld();
    const scenario = world.writeScenario({
      faults: [
        { program, fault: { kind: "trap-sigterm" } },
        { program, fault: { kind: "hang" } },
      ],
    });
    // A live child the test signals itself; execa's own SIGKILL follow-up is off so only the test's kills count.
    const child = execa(BIN[program], args, {
      env: world.env({ GENTLE_AI_SIM_SCENARIO: scenario }),
      extendEnv: false,
      shell: false,
      input: "",
      stdout: "ignore",
      stderr: "ignore",
      reject: false,
      forceKillAfterDelay: false,
    });
    const exited = child.then((result) => result.signal ?? null);
    const deadline = Date.now() + 20_000;
    // The transcript line is written once the fault plan (handler included) is in place.
    while (
      !(existsSync(world.transcriptPath) && readFileSync(world.transcriptPath, "utf8").includes("\n")) &&
      Date.now() < deadline
    )
      await sleep(20);
    child.kill("SIGTERM");
    const stillAlive = await Promise.race([exited.then(() => false), sleep(700).then(() => true)]);
    expect(stillAlive).toBe(true);
    child.kill("SIGKILL");
    expect(await exited).toBe("SIGKILL");
    expect(world.entries()[0]?.faults).toEqual([{ kind: "trap-sigterm" }, { kind: "hang" }]);
  }, 30_000);
});

describe("planFaults", () => {
  it("trap-sigterm is not terminal: the call still ends as the other faults say", () => {
    const outcome = { stdout: Buffer.from("x"), stderr: Buffer.alloc(0), exitCode: 0 };
    const plan = planFaults(outcome, [{ kind: "trap-sigterm" }, { kind: "exit-code", code: 3 }], () => Buffer.alloc(0));
    expect([plan.trapSigterm, plan.termination, plan.exitCode]).toEqual([true, { kind: "exit" }, 3]);
    expect(planFaults(outcome, [], () => Buffer.alloc(0)).trapSigterm).toBe(false);
  });
});
