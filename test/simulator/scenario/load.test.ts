import { afterEach, describe, expect, it } from "vitest";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createHash } from "node:crypto";
import { ROOT, runSim, SimWorld } from "../../support/sim-world.ts";
import { loadScenarioFile, ScenarioLoadError } from "../../../simulator/scenario/load.ts";
import { ScenarioSchema } from "../../../simulator/scenario/schema.ts";
import { DEFAULT_SCENARIO_INPUT } from "../../../simulator/scenario/default.ts";

let world: SimWorld;
afterEach(() => world?.cleanup());

// Each bad file: content and the exact stderr lines after `gentle-ai-sim: <file>: `.
const BAD: ReadonlyArray<readonly [string, string, readonly string[]]> = [
  ["invalid JSON", '{\n  "profile": }\n', ['invalid JSON at line 2, column 14: unexpected character "}"']],
  ["truncated JSON", '{"faults": [', ["invalid JSON at line 1, column 13: unexpected end of input"]],
  ["trailing comma", '{"name": "x",}', ["invalid JSON at line 1, column 14: expected a property name"]],
  ["wrong type", '{"name": 3}', ["$.name: Invalid input: expected string, received number"]],
  ["unknown key", '{"lineage": {"lenz": []}}', ['$.lineage.lenz: Unrecognized key: "lenz"']],
  ["bad enum", '{"profile": "2.6.0"}', ['$.profile: Invalid option: expected one of "2.3.0"|"2.4.0"|"2.5.0"']],
  [
    "several issues, one line each",
    '{"lineage": {"lenses": ["review-risk", "review-x"]}, "faults": [{"program": "pi", "fault": {"kind": "delay"}}], "pi": {"result": {"kind": "bytes", "bytes": {"text": 1}}}}',
    [
      '$.lineage.lenses[1]: Invalid option: expected one of "review-risk"|"review-resilience"|"review-readability"|"review-reliability"',
      "$.pi.result.bytes.text: Invalid input: expected string, received number",
      "$.faults[0].fault.ms: Invalid input: expected number, received undefined",
    ],
  ],
  [
    "unknown fault kind",
    '{"faults": [{"program": "pi", "fault": {"kind": "explode"}}]}',
    [
      "$.faults[0].fault.kind: Invalid discriminator value. Expected 'delay' | 'hang' | 'exit-code' | 'stdout' | 'stderr' | 'partial-then-hang' | 'crash-mid-write' | 'signal' | 'empty-output' | 'oversized-output' | 'slow-drip' | 'trap-sigterm'",
    ],
  ],
  ["not an object", "[]", ["$: Invalid input: expected object, received array"]],
  [
    "pi rule with a verb or leg (could never match)",
    '{"faults": [{"program": "pi", "verb": "status", "leg": "submit", "fault": {"kind": "hang"}}]}',
    ["$.faults[0].verb: pi calls have no verb", "$.faults[0].leg: pi calls have no leg"],
  ],
  [
    "missing bytes file",
    '{"pi": {"result": {"kind": "bytes", "bytes": {"file": "nope.bin"}}}}',
    ["$.pi.result.bytes.file: file not found: <dir>/nope.bin"],
  ],
];

describe("bad scenario files", () => {
  it.each(BAD)("%s: exact one-line messages, exit 2, nothing ran", async (_name, content, reasons) => {
    world = new SimWorld();
    const file = world.writeScenario(content);
    const expected = reasons.map((r) => `gentle-ai-sim: ${file}: ${r.replace("<dir>", world.dir)}\n`).join("");
    for (const program of ["gentle-ai", "pi"] as const) {
      const r = await runSim(program, ["version"], {
        env: world.env({ GENTLE_AI_SIM_SCENARIO: file }),
        input: Buffer.from("prompt"),
      });
      expect([r.stdout.toString(), r.stderr.toString(), r.code]).toEqual(["", expected, 2]);
    }
    // Nothing ran: no transcript line, no state written.
    expect(existsSync(world.transcriptPath)).toBe(false);
    expect(existsSync(world.stateDir)).toBe(false);
    // The harness gets the same text from loadScenarioFile.
    let thrown: unknown;
    try {
      loadScenarioFile(file);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ScenarioLoadError);
    expect(`${(thrown as ScenarioLoadError).message}\n`).toBe(expected);
    expect((thrown as ScenarioLoadError).file).toBe(file);
  });

  it("an unreadable scenario path", async () => {
    world = new SimWorld();
    const file = join(world.dir, "missing.json");
    const r = await runSim("gentle-ai", ["version"], {
      env: world.env({ GENTLE_AI_SIM_SCENARIO: "missing.json" }),
      cwd: world.dir,
    });
    expect([r.stderr.toString(), r.code]).toEqual([`gentle-ai-sim: ${file}: cannot read scenario: ENOENT\n`, 2]);
    expect(existsSync(world.stateDir)).toBe(false);
  });
});

describe("default scenario", () => {
  it("golden/scenarios/default.json is the built-in default", () => {
    const { $schema, ...golden } = JSON.parse(readFileSync(join(ROOT, "golden/scenarios/default.json"), "utf8"));
    expect($schema).toBe("../../schemas/scenario.schema.json");
    expect(golden).toEqual(DEFAULT_SCENARIO_INPUT);
    const parsed = ScenarioSchema.parse(DEFAULT_SCENARIO_INPUT);
    expect(parsed.lineage).toMatchObject({
      state: "reviewing",
      lenses: ["review-risk", "review-resilience", "review-readability", "review-reliability"],
      captured: [],
    });
    expect(parsed.profile).toBe("2.4.0");
    expect(parsed.pi.result).toEqual({ kind: "reviewer-result", findings: "none" });
  });

  it("every golden scenario loads and references the committed schema", () => {
    const dir = join(ROOT, "golden/scenarios");
    const names = readdirSync(dir).filter((n) => n.endsWith(".json"));
    expect(names).toEqual(
      expect.arrayContaining(["default.json", "pre-relay-2.3.0.json", "pi-timeout.json", "admission-refusal.json"]),
    );
    for (const name of names) {
      expect(JSON.parse(readFileSync(join(dir, name), "utf8")).$schema).toBe("../../schemas/scenario.schema.json");
      expect(() => loadScenarioFile(join(dir, name))).not.toThrow();
    }
  });

  it("without GENTLE_AI_SIM_STATE the state lives under $TMPDIR/gentle-ai-sim-state/<sha256('builtin')[0:16]>", async () => {
    world = new SimWorld();
    const { GENTLE_AI_SIM_STATE: _unused, ...env } = world.env();
    const r = await runSim("gentle-ai", ["version"], { env });
    expect([r.stdout.toString(), r.code]).toEqual(["gentle-ai 2.4.0\n", 0]);
    const key = createHash("sha256").update("builtin").digest("hex").slice(0, 16);
    expect(existsSync(join(world.dir, "gentle-ai-sim-state", key, "calls"))).toBe(true);
    const file = world.writeScenario({});
    await runSim("gentle-ai", ["version"], { env: { ...env, GENTLE_AI_SIM_SCENARIO: file } });
    const fileKey = createHash("sha256").update(file).digest("hex").slice(0, 16);
    expect(existsSync(join(world.dir, "gentle-ai-sim-state", fileKey, "calls"))).toBe(true);
  });
});
