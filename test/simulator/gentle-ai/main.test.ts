import { afterEach, describe, expect, it } from "vitest";
import { readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createHash } from "node:crypto";
import { ROOT, runSim, SimWorld, tsxFixture } from "../../support/sim-world.ts";
import { scenarioValidatorDigest } from "../../../scripts/validator-digest.mjs";
import { spawnProcess } from "../../support/spawn-process.ts";
import { DEFAULT_SCENARIO } from "../../../simulator/scenario/default.ts";
import { scenarioCacheFile } from "../../../simulator/scenario/scenario-cache.ts";
import { identitiesFor, SEED_WORLD } from "../../../simulator/state/identities.ts";

const HANDSHAKE = "gentle-pi.review-relay/v1";
const sha = (b: Buffer): string => createHash("sha256").update(b).digest("hex");

let world: SimWorld;
afterEach(() => world?.cleanup());

/** The seven binding tokens of the default scenario's first lens (revision index 0: captures never advance it). */
function bindingTokens(): string[] {
  const ids = identitiesFor(DEFAULT_SCENARIO.lineage.seed, SEED_WORLD);
  return [
    `--lineage=${ids.lineageId}`,
    `--expected-revision=${ids.revision(0)}`,
    `--target=${ids.targetIdentity}`,
    `--repository-context=${ids.repositoryContext}`,
    "--lens=review-risk",
    "--order=0",
    `--subject-hash=${ids.subjectHash("review-risk")}`,
  ];
}

describe("gentle-ai main around dispatch (relay legs A, B, C by hand)", () => {
  it("materialize -> pi -> submit by file -> identical resubmission on stdin, all on the transcript", async () => {
    world = new SimWorld();
    const env = world.env({ GENTLE_PI_REVIEW_RELAY_CONTRACT: HANDSHAKE });
    const tokens = bindingTokens();

    const a = await runSim("gentle-ai", ["review", "capture-result", ...tokens, "--agent=pi", "--materialize=true"], {
      env,
      cwd: world.dir,
    });
    expect([a.stderr.toString(), a.code]).toEqual(["", 0]);
    expect(a.stdout.toString()).toMatch(/^GENTLE_AI_REVIEW_BINDING \{.*"subject_hash":"sha256:[0-9a-f]{64}"\}\n/);

    // Leg B: the relay's pi environment has no handshake of its own.
    const b = await runSim("pi", ["--print"], { env: world.env(), input: a.stdout, cwd: world.dir });
    expect(b.code).toBe(0);
    const result = join(world.dir, "result.raw");
    writeFileSync(result, b.stdout);

    const c = await runSim("gentle-ai", ["review", "capture-result", ...tokens, `--input=${result}`], {
      env,
      cwd: world.dir,
    });
    expect([c.stderr.toString(), c.code]).toEqual(["", 0]);
    const artifact = JSON.parse(c.stdout.toString());
    expect(artifact).toMatchObject({
      schema: "gentle-ai.review-result-artifact/v2",
      lens: "review-risk",
      admission_decision: "completed",
    });

    const again = await runSim("gentle-ai", ["review", "capture-result", ...tokens, "--input", "-"], {
      env,
      cwd: world.dir,
      input: b.stdout,
    });
    expect([again.stdout, again.code]).toEqual([c.stdout, 0]);

    const [ea, eb, ec, ed] = world.entries();
    expect([ea!.verb, ea!.leg, ea!.handshake, ea!.stdinRead]).toEqual([
      "capture-result",
      "materialize",
      HANDSHAKE,
      false,
    ]);
    expect(Buffer.from(ea!.stdout.base64!, "base64")).toEqual(a.stdout);
    expect([eb!.program, eb!.handshake, eb!.stdin.sha256]).toEqual(["pi", null, sha(a.stdout)]);
    expect([ec!.leg, ec!.callIndex, ec!.files]).toEqual([
      "submit",
      1,
      [{ path: result, sha256: sha(b.stdout), length: b.stdout.length, base64: b.stdout.toString("base64") }],
    ]);
    expect([ed!.leg, ed!.callIndex, ed!.stdinRead, ed!.stdin.sha256, ed!.files]).toEqual([
      "submit",
      2,
      true,
      sha(b.stdout),
      [],
    ]);
  });

  it("unknown verb: the Outcome's streams and exit code", async () => {
    world = new SimWorld();
    const r = await runSim("gentle-ai", ["review", "no-such-verb"], { env: world.env() });
    expect([r.stdout.toString(), r.stderr.toString(), r.code]).toEqual([
      "",
      'Error: unknown review command "no-such-verb"\n',
      1,
    ]);
  });

  it("builds the Invocation: argv after the program, cwd, state dir, scenario dir, executablePath = the launched script", async () => {
    world = new SimWorld();
    const file = world.writeScenario({ profile: "2.5.0" });
    const [node, ...pre] = tsxFixture("program-main.ts");
    // Relative simulator paths become absolute in the environment children inherit (pi runs in a scratch cwd).
    const env = {
      ...world.env(),
      GENTLE_AI_SIM_SCENARIO: "scenario.json",
      GENTLE_AI_SIM_STATE: "state",
      GENTLE_AI_SIM_TRANSCRIPT: "t.jsonl",
    };
    const r = await spawnProcess(node!, [...pre, "review", "status", "--x=1"], { env, cwd: world.dir });
    expect([JSON.parse(r.stdout.toString()), r.stderr.toString(), r.code]).toEqual([
      {
        argv: ["review", "status", "--x=1"],
        cwd: world.dir,
        executablePath: pre[pre.length - 1],
        stateDir: world.stateDir,
        scenarioDir: world.dir,
        profile: "2.5.0",
        childEnv: [file, world.stateDir, join(world.dir, "t.jsonl")],
      },
      "to stderr",
      1,
    ]);
  });
});

describe("scenario validation cache", () => {
  it("gentle-ai and pi share one entry: the second program's first call does not re-validate", async () => {
    world = new SimWorld();
    const env = world.env({ GENTLE_AI_SIM_SCENARIO: world.writeScenario({}) });
    const name = scenarioCacheFile(await scenarioValidatorDigest(ROOT));
    const cacheFile = join(world.stateDir, name ?? "");
    await runSim("gentle-ai", ["version"], { env });
    const first = statSync(cacheFile).ino;
    await runSim("pi", [], { env });
    await runSim("gentle-ai", ["version"], { env });
    // A miss rewrites the entry through a rename, which gives it a new inode.
    expect(statSync(cacheFile).ino).toBe(first);
    expect(readdirSync(world.stateDir).filter((n) => n.startsWith("scenario-cache"))).toEqual([name]);
  });

  it("an edited scenario file takes effect on the next call; a broken edit is reported, not served from the cache", async () => {
    world = new SimWorld();
    const file = world.writeScenario({ pi: { exitCode: 0 } });
    const env = world.env({ GENTLE_AI_SIM_SCENARIO: file });
    expect((await runSim("pi", [], { env })).code).toBe(0);
    expect((await runSim("pi", [], { env })).code).toBe(0); // served from the cache
    world.writeScenario({ pi: { exitCode: 4 } });
    expect((await runSim("pi", [], { env })).code).toBe(4);
    world.writeScenario('{"pi": {"exitCode": 300}}');
    const bad = await runSim("pi", [], { env });
    expect([bad.stderr.toString(), bad.code]).toEqual([
      `gentle-ai-sim: ${file}: $.pi.exitCode: Too big: expected number to be <=255\n`,
      2,
    ]);
  });
});

describe("large payloads", () => {
  it("pi echoes a 64 MiB prompt byte for byte; the transcript keeps digests only above GENTLE_AI_SIM_TRANSCRIPT_INLINE_MAX", async () => {
    world = new SimWorld();
    const big = Buffer.alloc(64 * 1024 * 1024);
    for (let i = 0; i < big.length; i += 4096) big[i] = i % 251;
    const env = world.env({
      GENTLE_AI_SIM_SCENARIO: world.writeScenario({ pi: { result: { kind: "echo" } } }),
      GENTLE_AI_SIM_TRANSCRIPT_INLINE_MAX: "1048576",
    });
    const r = await runSim("pi", [], { env, input: big });
    expect(r.code).toBe(0);
    expect(r.stdout.length).toBe(big.length);
    expect(r.stdout.equals(big)).toBe(true);
    const [e] = world.entries();
    expect(e!.stdin).toEqual({ sha256: sha(big), length: big.length });
    expect(e!.stdout).toEqual({ sha256: sha(big), length: big.length });
  });
});
