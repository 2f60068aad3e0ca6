// One sandbox per test, disposed after it, and the no-leftovers check every sandboxed test ends with.
import { afterEach, expect } from "vitest";
import { createSandbox, isGone, type Sandbox } from "./sandbox.ts";

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

/** Every simulated process is gone and the private TMPDIR is empty. */
export function expectNoLeftovers(sandbox: Sandbox): void {
  for (const line of sandbox.transcript()) expect(isGone(line.pid), `pid ${line.pid} (${line.program}) still alive`).toBe(true);
  expect(sandbox.tmpLeftovers()).toEqual([]);
}
