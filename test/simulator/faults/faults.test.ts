import { afterEach, describe, expect, it } from "vitest";
import { promptFor } from "../../support/prompt-oracle.ts";
import { runSim, SimWorld } from "../../support/sim-world.ts";
import type { Run } from "../../support/spawn-process.ts";
import type { Fault } from "../../../simulator/scenario/fault-schema.ts";

const SUBJECT = `sha256:${"a".repeat(64)}`;
const PROMPT = promptFor(SUBJECT, "review-risk", ["src/a.ts"]);
const PI_RESULT = Buffer.from(
  `{"subject_hash":"${SUBJECT}","inspection":{"status":"completed","paths":["src/a.ts"]},"lens":"review-risk","findings":[],"evidence":["inspected all 1 changed paths of the frozen candidate through the review-risk lens; no defect found"]}\n`,
);

// Each program with a call whose undisturbed output is known exactly.
const PROGRAMS = [
  { program: "gentle-ai", args: ["version"], input: Buffer.alloc(0), normal: Buffer.from("gentle-ai 2.4.0\n") },
  { program: "pi", args: ["--print", "--mode", "text"], input: PROMPT, normal: PI_RESULT },
] as const;

let world: SimWorld;
afterEach(() => world?.cleanup());

async function withFaults(p: (typeof PROGRAMS)[number], faults: Fault[], hangs = false): Promise<Run> {
  world = new SimWorld();
  const scenario = world.writeScenario({ faults: faults.map((fault) => ({ program: p.program, fault })) });
  return runSim(p.program, p.args, {
    env: world.env({ GENTLE_AI_SIM_SCENARIO: scenario }),
    input: p.input,
    ...(hangs ? { killWhenTranscriptLines: { path: world.transcriptPath, lines: 1 } } : {}),
  });
}

describe.each(PROGRAMS)("faults on $program", (p) => {
  it("without faults: the undisturbed output", async () => {
    const r = await withFaults(p, []);
    expect([r.stdout, r.stderr.toString(), r.code, r.signal]).toEqual([p.normal, "", 0, null]);
  });

  it("delay: same bytes, the process ran at least the delay", async () => {
    const r = await withFaults(p, [
      { kind: "delay", ms: 300 },
      { kind: "delay", ms: 100 },
    ]);
    expect([r.stdout, r.code]).toEqual([p.normal, 0]);
    const [entry] = world.entries();
    expect(entry!.faults).toEqual([
      { kind: "delay", ms: 300 },
      { kind: "delay", ms: 100 },
    ]);
    // Delays add up (a lower bound is deterministic: sleeping never ends early).
    expect(entry!.timing.durationMs).toBeGreaterThanOrEqual(400);
  });

  it("hang: no output until killed; the transcript line is written first with completed=false", async () => {
    const r = await withFaults(p, [{ kind: "hang" }], true);
    expect([r.stdout.length, r.stderr.length, r.code, r.signal]).toEqual([0, 0, null, "SIGKILL"]);
    const [entry] = world.entries();
    expect(entry!.exit).toEqual({ code: null, signal: null, completed: false });
    expect(entry!.faults).toEqual([{ kind: "hang" }]);
  });

  it("exit-code: overrides the exit code, bytes unchanged", async () => {
    const r = await withFaults(p, [
      { kind: "exit-code", code: 3 },
      { kind: "exit-code", code: 42 },
    ]);
    expect([r.stdout, r.code]).toEqual([p.normal, 42]);
  });

  it("stdout and stderr overrides: exact binary bytes", async () => {
    const bytes = Buffer.from([0x00, 0xff, 0x0d, 0x0a, 0x41, 0x00]);
    const r = await withFaults(p, [
      { kind: "stdout", bytes: { base64: bytes.toString("base64") } },
      { kind: "stderr", bytes: { text: "Error: scripted\r\n" } },
    ]);
    expect([r.stdout, r.stderr, r.code]).toEqual([bytes, Buffer.from("Error: scripted\r\n"), 0]);
    const [entry] = world.entries();
    expect(Buffer.from(entry!.stdout.base64!, "base64")).toEqual(bytes);
  });

  it("partial-then-hang: exactly N bytes, then nothing until killed", async () => {
    const r = await withFaults(p, [{ kind: "partial-then-hang", bytes: 5 }], true);
    expect([r.stdout, r.signal, r.code]).toEqual([p.normal.subarray(0, 5), "SIGKILL", null]);
    const [entry] = world.entries();
    expect(entry!.stdout.length).toBe(5);
    expect(entry!.exit.completed).toBe(false);
  });

  it("crash-mid-write: N bytes, no stderr, exit 2 (a Go panic's code)", async () => {
    const r = await withFaults(p, [{ kind: "crash-mid-write", bytes: 7 }]);
    expect([r.stdout, r.stderr.length, r.code, r.signal]).toEqual([p.normal.subarray(0, 7), 0, 2, null]);
    expect(world.entries()[0]!.exit).toEqual({ code: 2, signal: null, completed: false });
  });

  it("crash-mid-write takes a non-zero exit-code fault's code", async () => {
    const r = await withFaults(p, [
      { kind: "exit-code", code: 9 },
      { kind: "crash-mid-write", bytes: 0 },
    ]);
    expect([r.stdout.length, r.code]).toEqual([0, 9]);
  });

  it.each(["SIGTERM", "SIGKILL", "SIGSEGV", "SIGABRT", "SIGINT", "SIGHUP"] as const)(
    "signal %s: dies by that signal",
    async (signal) => {
      const r = await withFaults(p, [{ kind: "signal", signal }]);
      expect([r.stdout.length, r.code, r.signal]).toEqual([0, null, signal]);
      expect(world.entries()[0]!.exit).toEqual({ code: null, signal, completed: false });
    },
  );

  it("empty-output: exit 0 with no stdout", async () => {
    const r = await withFaults(p, [{ kind: "empty-output" }]);
    expect([r.stdout.length, r.stderr.length, r.code]).toEqual([0, 0, 0]);
  });

  it("oversized-output: exactly N bytes, the output padded with spaces (5 MiB through a pipe)", async () => {
    const size = 5 * 1024 * 1024;
    const r = await withFaults(p, [{ kind: "oversized-output", bytes: size }]);
    expect(r.code).toBe(0);
    expect(r.stdout.length).toBe(size);
    expect(r.stdout.subarray(0, p.normal.length)).toEqual(p.normal);
    expect(r.stdout.subarray(p.normal.length).every((b) => b === 0x20)).toBe(true);
  });

  it("slow-drip: same bytes, written in chunks with pauses", async () => {
    const r = await withFaults(p, [{ kind: "slow-drip", chunkBytes: 4, intervalMs: 20 }]);
    expect([r.stdout, r.code]).toEqual([p.normal, 0]);
    const chunks = Math.ceil(p.normal.length / 4);
    expect(world.entries()[0]!.timing.durationMs).toBeGreaterThanOrEqual((chunks - 1) * 20);
  });
});

describe("combination rules", () => {
  const p = PROGRAMS[1];
  it("stdout-shaping faults apply in rule order; the first terminal fault wins", async () => {
    const r = await withFaults(p, [
      { kind: "stdout", bytes: { text: "abcdef" } },
      { kind: "oversized-output", bytes: 8 },
      { kind: "crash-mid-write", bytes: 7 },
      { kind: "hang" },
    ]);
    expect([r.stdout.toString(), r.code]).toEqual(["abcdef ", 2]);
    expect(world.entries()[0]!.faults.map((f) => f.kind)).toEqual(["stdout", "oversized-output", "crash-mid-write"]);
  });

  it("empty-output after a stdout override empties it; oversized after empty is all spaces", async () => {
    const r = await withFaults(p, [
      { kind: "stdout", bytes: { text: "x" } },
      { kind: "empty-output" },
      { kind: "oversized-output", bytes: 3 },
    ]);
    expect(r.stdout.toString()).toBe("   ");
  });
});
