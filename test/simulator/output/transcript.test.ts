import { afterEach, describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { runSim, SimWorld, tsxFixture } from "../../support/sim-world.ts";
import { spawnProcess } from "../../support/spawn-process.ts";

let world: SimWorld;
afterEach(() => world?.cleanup());

const sha = (b: Buffer): string => createHash("sha256").update(b).digest("hex");
const NASTY = Buffer.concat([
  Buffer.from("line1\r\nNUL:"),
  Buffer.from([0x00, 0xff, 0xfe, 0xc3]),
  Buffer.from("\r\n\u2028end"),
]);

describe("transcript", () => {
  it("records argv, cwd, handshake and binary-safe stdin/stdout; no other environment value", async () => {
    world = new SimWorld();
    const scenario = world.writeScenario({ pi: { result: { kind: "echo" } } });
    const secret = "s3cr3t-value-that-must-not-leak";
    const r = await runSim("pi", ["--print", "a b", ""], {
      env: world.env({
        GENTLE_AI_SIM_SCENARIO: scenario,
        GENTLE_PI_REVIEW_RELAY_CONTRACT: "gentle-pi.review-relay/v1",
        SECRET: secret,
      }),
      input: NASTY,
      cwd: world.dir,
    });
    expect(r.stdout).toEqual(NASTY);
    const raw = readFileSync(world.transcriptPath, "utf8");
    expect(raw).not.toContain(secret);
    expect(raw).not.toContain("SECRET");
    expect(raw).not.toContain(process.env.PATH ?? "<no PATH>");
    expect(raw.endsWith("\n")).toBe(true);
    const [e] = world.entries();
    expect(e).toMatchObject({
      program: "pi",
      argv: ["--print", "a b", ""],
      cwd: world.dir,
      handshake: "gentle-pi.review-relay/v1",
      callIndex: 1,
      stdinRead: true,
      exit: { code: 0, signal: null, completed: true },
    });
    expect(e!.stdin).toEqual({ sha256: sha(NASTY), length: NASTY.length, base64: NASTY.toString("base64") });
    expect(Buffer.from(e!.stdout.base64!, "base64")).toEqual(NASTY);
    expect(e!.pid).toBeGreaterThan(0);
  });

  it("records a null handshake when unset, and an empty value as empty", async () => {
    world = new SimWorld();
    await runSim("gentle-ai", ["version"], { env: world.env() });
    await runSim("gentle-ai", ["version"], { env: world.env({ GENTLE_PI_REVIEW_RELAY_CONTRACT: "" }) });
    expect(world.entries().map((e) => e.handshake)).toEqual([null, ""]);
  });

  it("GENTLE_AI_SIM_TRANSCRIPT_INLINE_MAX omits base64 above the cap but keeps digest and length", async () => {
    world = new SimWorld();
    const scenario = world.writeScenario({ pi: { result: { kind: "echo" } } });
    const big = Buffer.alloc(11, 0x61);
    await runSim("pi", [], {
      env: world.env({ GENTLE_AI_SIM_SCENARIO: scenario, GENTLE_AI_SIM_TRANSCRIPT_INLINE_MAX: "10" }),
      input: big,
    });
    const [e] = world.entries();
    expect(e!.stdin).toEqual({ sha256: sha(big), length: 11 });
    expect(e!.stderr).toEqual({ sha256: sha(Buffer.alloc(0)), length: 0, base64: "" });
  });

  it("a bad GENTLE_AI_SIM_TRANSCRIPT_INLINE_MAX fails with exit 2 before anything runs", async () => {
    world = new SimWorld();
    const r = await runSim("gentle-ai", ["version"], {
      env: world.env({ GENTLE_AI_SIM_TRANSCRIPT_INLINE_MAX: "1e3" }),
    });
    expect([r.stdout.length, r.stderr.toString(), r.code]).toEqual([
      0,
      'gentle-ai-sim: GENTLE_AI_SIM_TRANSCRIPT_INLINE_MAX: expected a non-negative integer byte count, got "1e3"\n',
      2,
    ]);
    expect(world.entries()).toEqual([]);
  });

  it("an unwritable transcript fails the call loudly with exit 70 (a simulator failure, never a gentle-ai exit code)", async () => {
    world = new SimWorld();
    const r = await runSim("gentle-ai", ["version"], { env: world.env({ GENTLE_AI_SIM_TRANSCRIPT: world.dir }) });
    expect(r.stdout.toString()).toBe("gentle-ai 2.4.0\n");
    expect(r.stderr.toString()).toBe(
      `gentle-ai-sim: transcript ${world.dir}: EISDIR: illegal operation on a directory, open '${world.dir}'\n`,
    );
    expect(r.code).toBe(70);
  });

  it("records files read through the invocation and stdin only when read (lazy)", async () => {
    world = new SimWorld();
    world.file("input.raw", NASTY);
    const [node, ...pre] = tsxFixture("reader-main.ts");
    const env = world.env();
    const lazy = await spawnProcess(node!, [...pre, "--file", "input.raw"], {
      env,
      input: Buffer.from("unread"),
      cwd: world.dir,
    });
    const eager = await spawnProcess(node!, [...pre, "--stdin"], { env, input: NASTY, cwd: world.dir });
    expect([lazy.stdout, eager.stdout]).toEqual([NASTY, NASTY]);
    const [a, b] = world.entries();
    expect(a!.files).toEqual([
      { path: "input.raw", sha256: sha(NASTY), length: NASTY.length, base64: NASTY.toString("base64") },
    ]);
    expect([a!.stdinRead, a!.stdin.length]).toEqual([false, 0]);
    expect([b!.stdinRead, Buffer.from(b!.stdin.base64!, "base64")]).toEqual([true, NASTY]);
  });

  it("parallel appends never interleave (every line parses; 64 KiB lines)", async () => {
    world = new SimWorld();
    const scenario = world.writeScenario({ pi: { result: { kind: "echo" } } });
    const env = world.env({ GENTLE_AI_SIM_SCENARIO: scenario });
    const inputs = Array.from({ length: 10 }, (_, i) => Buffer.alloc(64 * 1024, 0x30 + i));
    await Promise.all(inputs.map((input) => runSim("pi", [], { env, input })));
    const entries = world.entries();
    expect(entries.map((e) => e.stdin.sha256).sort()).toEqual(inputs.map(sha).sort());
  });
});
