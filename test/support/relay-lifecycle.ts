// One sandbox per test, disposed after it, and the no-leftovers check every sandboxed test ends with.
import { afterEach, expect } from "vitest";
import { isGone } from "./processes.ts";
import { createSandbox, type Sandbox } from "./relay-sandbox.ts";

/** Returns `create(scenario)`, whose sandbox is disposed after the current test; call at a test file's top level. */
export function sandboxPerTest(): (scenario: unknown) => Sandbox {
  let box: Sandbox | undefined;
  afterEach(() => {
    box?.dispose();
    box = undefined;
  });
  return (scenario) => {
    box = createSandbox(scenario);
    return box;
  };
}

const pause = new Int32Array(new SharedArrayBuffer(4));

/** Polls until pid is gone or graceMs passed: a SIGKILLed grandchild may take a moment to die on a loaded machine. */
function goneWithin(pid: number, graceMs: number): boolean {
  const deadline = Date.now() + graceMs;
  while (!isGone(pid)) {
    if (Date.now() > deadline) return false;
    Atomics.wait(pause, 0, 0, 20);
  }
  return true;
}

/** Every simulated process is gone (within a short grace for signal delivery) and the private TMPDIR is empty. */
export function expectNoLeftovers(sandbox: Sandbox): void {
  for (const line of sandbox.transcript())
    expect(goneWithin(line.pid, 3000), `pid ${line.pid} (${line.program}) still alive`).toBe(true);
  expect(sandbox.tmpLeftovers()).toEqual([]);
}
