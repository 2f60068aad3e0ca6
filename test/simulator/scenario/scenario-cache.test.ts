// The scenario validation cache's key: the validator's build digest, so a changed schema never serves an old entry,
// and no cache at all when running from source (tsx), where no cheap key would notice an edit to schema.ts.
import { afterEach, describe, expect, it } from "vitest";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { ROOT, runSim, SimWorld } from "../../support/sim-world.ts";
import { scenarioValidatorDigest } from "../../../scripts/validator-digest.mjs";
import { scenarioCacheFile, scenarioFingerprint } from "../../../simulator/scenario/scenario-cache.ts";
import { loadConfiguredScenario } from "../../../simulator/runtime/load-scenario.ts";
import { readSimConfig } from "../../../simulator/runtime/env-config.ts";
import { DEFAULT_SCENARIO } from "../../../simulator/scenario/default.ts";

let world: SimWorld;
afterEach(() => world?.cleanup());

// This tree's validator digest (an esbuild pass over the validator's sources): computed once for the file's tests.
let treeDigest: Promise<string> | undefined;
const builtDigest = (): Promise<string> => (treeDigest ??= scenarioValidatorDigest(ROOT));

/**
 * Writes the built bundles' cache file (named for `build`, their digest) as if a validator with digest `validator`
 * had validated `file` to a scenario whose pi exits `exitCode`.
 */
function plantPiEntry(file: string, build: string, validator: string, exitCode: number): void {
  mkdirSync(world.stateDir, { recursive: true });
  const fingerprint = scenarioFingerprint(resolve(file), readFileSync(file), validator);
  const scenario = { ...DEFAULT_SCENARIO, pi: { ...DEFAULT_SCENARIO.pi, exitCode } };
  writeFileSync(join(world.stateDir, scenarioCacheFile(build) ?? ""), `${JSON.stringify({ fingerprint, scenario })}\n`);
}

describe("scenario validation cache key", () => {
  it("the digest covers the scenario schema: one changed byte of schema.ts gives another key", async () => {
    const schema = join(ROOT, "simulator/scenario/schema.ts");
    const digest = await builtDigest();
    const edited = await scenarioValidatorDigest(ROOT, (path) => {
      const bytes = readFileSync(path);
      return resolve(path) === schema ? Buffer.concat([bytes, Buffer.from(" ")]) : bytes;
    });
    expect(digest).toMatch(/^[0-9a-f]{64}$/);
    expect(edited).not.toBe(digest);
  });

  it("the bundle serves an entry keyed on its own build digest and ignores one from another build", async () => {
    world = new SimWorld();
    const file = world.writeScenario({ pi: { exitCode: 4 } });
    const env = world.env({ GENTLE_AI_SIM_SCENARIO: file });
    // Keyed on this build's digest: served without validation (the planted exit code proves the file was not read).
    const digest = await builtDigest();
    plantPiEntry(file, digest, digest, 5);
    expect((await runSim("pi", [], { env })).code).toBe(5);
    // Keyed on any other digest (an older validator): validated afresh.
    plantPiEntry(file, digest, "0".repeat(64), 5);
    expect((await runSim("pi", [], { env })).code).toBe(4);
  });

  it("from source (no build digest) the cache is off: nothing is read or written, every call validates", async () => {
    world = new SimWorld();
    const file = world.writeScenario({ pi: { exitCode: 4 } });
    expect(scenarioFingerprint(file, readFileSync(file))).toBeNull();
    expect(scenarioCacheFile()).toBeNull();
    mkdirSync(world.stateDir, { recursive: true });
    // An entry under the name the built bundles use, matching any key: never consulted.
    const built = scenarioCacheFile(await builtDigest()) ?? "";
    writeFileSync(
      join(world.stateDir, built),
      JSON.stringify({
        fingerprint: null,
        scenario: { ...DEFAULT_SCENARIO, pi: { ...DEFAULT_SCENARIO.pi, exitCode: 5 } },
      }),
    );
    const config = readSimConfig({ GENTLE_AI_SIM_SCENARIO: file, GENTLE_AI_SIM_STATE: world.stateDir }, world.dir);
    const loaded = await loadConfiguredScenario(config, world.dir);
    expect(loaded.scenario.pi.exitCode).toBe(4);
    expect(readdirSync(world.stateDir)).toEqual([built]);
  });
});
