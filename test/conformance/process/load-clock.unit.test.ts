// Load-scaled bounds: wall time divided by the load factor (runnable tasks per core, at least 1), capped at
// MAX_STRETCH times the bound. A fixed load source makes the stretch observable; lower bounds are deterministic.
import { describe, expect, it } from "vitest";
import { LoadClock, loadFactor, MAX_STRETCH, sampleLoad } from "../../../conformance/process/load-clock.ts";

/** Wall ms until a 200 ms bound fires under a fixed load. */
function fireAfter(load: number | null): Promise<number> {
  const clock = new LoadClock(() => load);
  const started = performance.now();
  return new Promise((resolve) => clock.timeout(200, () => resolve(performance.now() - started)));
}

describe("LoadClock", () => {
  it("an idle machine (load below 1, or unknown) sees the bound as given", async () => {
    for (const load of [0, 0.5, null]) {
      const ms = await fireAfter(load);
      expect(ms).toBeGreaterThanOrEqual(195);
      expect(ms).toBeLessThan(200 * 2.5);
    }
  });

  it("a load of 3 runnable tasks per core stretches the bound threefold", async () => {
    expect(await fireAfter(3)).toBeGreaterThanOrEqual(590);
  });

  it(`never stretches past ${MAX_STRETCH}× the bound`, async () => {
    const ms = await fireAfter(1000);
    expect(ms).toBeGreaterThanOrEqual(200 * MAX_STRETCH - 5);
    expect(ms).toBeLessThan(200 * MAX_STRETCH + 600);
  });

  it("a cancelled timer never fires and leaves no timer behind", async () => {
    const clock = new LoadClock(() => 0);
    const timers = (): number => process.getActiveResourcesInfo().filter((r) => r === "Timeout").length;
    const before = timers();
    let fired = false;
    const timer = clock.timeout(50, () => (fired = true));
    expect(timers()).toBe(before + 1);
    timer.cancel();
    expect(timers()).toBe(before);
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(fired).toBe(false);
  });

  it("the factor is the load, at least 1; the sample is runnable tasks per core", () => {
    expect([loadFactor(null), loadFactor(0.3), loadFactor(2.5)]).toEqual([1, 1, 2.5]);
    const load = sampleLoad();
    if (load !== null) expect(load).toBeGreaterThanOrEqual(0);
  });
});
