// The relay tests' sandbox (test/support/relay-sandbox.ts): a test that fails before its relay call ends must not leave
// the simulator it started hanging for the rest of the run (one did: a pi that hangs by its scenario, orphaned for
// hours).
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { eventually, isGone } from "../support/processes.ts";
import { createSandbox, SIM_PI } from "../support/relay-sandbox.ts";

describe("a disposed sandbox", () => {
  it("takes every process started in its world with it, and its folder", async () => {
    const sandbox = createSandbox({ profile: "2.4.0", faults: [{ program: "pi", fault: { kind: "hang" } }] });
    // Detached, as an orphan of a failed test would be: not in this worker's process group.
    const pi = spawn(SIM_PI, ["--print"], {
      env: sandbox.env,
      cwd: sandbox.repo,
      stdio: ["pipe", "ignore", "ignore"],
      detached: true,
    });
    pi.stdin.end("a prompt\n");
    // The fault hangs pi after it has written its transcript line.
    expect(await eventually(() => sandbox.transcript().some((l) => l.program === "pi"), 10_000)).toBe(true);
    expect(isGone(pi.pid!)).toBe(false);
    sandbox.dispose();
    expect(await eventually(() => isGone(pi.pid!), 3_000)).toBe(true);
    expect(existsSync(sandbox.dir)).toBe(false);
  });
});
