// The harness's STATUS, answered in its own process through the simulator's planner, must be the spawned binary's
// exactly: the same bytes and exit code, the same call counted in the state folder, the same transcript line (but
// for the pid and timing), and the same slot. A call only a process can answer (a fault may select it, a Git
// repository, a replay) is not answered in-process and leaves no trace.
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { HANDSHAKE_ENV, HANDSHAKE_VALUE, statusArgv } from "../../../conformance/contract/provider.ts";
import { harnessPaths } from "../../../conformance/paths.ts";
import { acquireSlot } from "../../../conformance/runner/acquire-slot.ts";
import { runProgram } from "../../../conformance/process/run-child.ts";
import { createRunRoot } from "../../../conformance/runner/sandbox.ts";
import { readTranscript } from "../../../conformance/clauses/transcript.ts";
import { gentleAiInProcess } from "../../../simulator/gentle-ai/in-process.ts";
import type { Profile, ScenarioInput } from "../../../simulator/scenario/schema.ts";

const gentleAi = harnessPaths().gentleAiSimulator;
// The run root gives spawned simulators the harness's node-only PATH.
const root = createRunRoot();
afterAll(() => root.remove());

let dirs = 0;
/** A case-like folder: repo, scenario file, and one state folder and transcript per path taken. */
function sandbox(scenario: ScenarioInput | string): {
  repo: string;
  env: (path: "spawned" | "in-process") => Record<string, string>;
  state: (path: string) => string;
  transcript: (path: string) => string;
} {
  dirs += 1;
  const dir = join(root.dir, `case-${dirs}`);
  const repo = join(dir, "repo");
  mkdirSync(repo, { recursive: true });
  const scenarioFile = join(dir, "scenario.json");
  writeFileSync(scenarioFile, typeof scenario === "string" ? scenario : `${JSON.stringify(scenario)}\n`);
  const state = (path: string): string => join(dir, `state-${path}`);
  const transcript = (path: string): string => join(dir, `transcript-${path}.jsonl`);
  return {
    repo,
    state,
    transcript,
    env: (path) => ({
      PATH: root.binDir,
      HOME: dir,
      TMPDIR: dir,
      LANG: "C.UTF-8",
      GENTLE_AI_SIM_SCENARIO: scenarioFile,
      GENTLE_AI_SIM_STATE: state(path),
      GENTLE_AI_SIM_TRANSCRIPT: transcript(path),
      [HANDSHAKE_ENV]: HANDSHAKE_VALUE,
    }),
  };
}

/** A transcript line without what differs between two processes by nature: pid and timing. */
function comparable(path: string): unknown[] {
  return readTranscript(path).map(({ pid: _pid, timing: _timing, ...rest }) => rest);
}

/** The state folder's call counters: file name and number of calls counted (the tokens name the counting pid). */
function counters(state: string): Record<string, number> {
  const dir = join(state, "calls");
  return Object.fromEntries(
    readdirSync(dir).map((f) => [f, readFileSync(join(dir, f), "latin1").split("\n").filter(Boolean).length]),
  );
}

const CASES: readonly { name: string; profile: Profile; scenario: ScenarioInput; agent: boolean; exit: number }[] = [
  { name: "default lineage, with --agent pi", profile: "2.4.0", scenario: {}, agent: true, exit: 0 },
  { name: "default lineage, with --agent pi", profile: "2.5.0", scenario: {}, agent: true, exit: 0 },
  // A pre-relay provider refuses --agent: the refusal's bytes must match too.
  { name: "pre-relay provider, with --agent pi", profile: "2.3.0", scenario: {}, agent: true, exit: 1 },
  { name: "pre-relay provider, bare", profile: "2.3.0", scenario: {}, agent: false, exit: 0 },
  {
    name: "pinned lineage: other seed, two lenses, one captured",
    profile: "2.5.0",
    scenario: {
      lineage: { seed: "other-seed", lenses: ["review-risk", "review-resilience"], captured: ["review-risk"] },
    },
    agent: true,
    exit: 0,
  },
  {
    name: "pinned lineage: rdd disabled",
    profile: "2.4.0",
    scenario: { lineage: { rddDisabled: true } },
    agent: true,
    exit: 0,
  },
  {
    name: "pinned lineage: correction required",
    profile: "2.5.0",
    scenario: { lineage: { state: "correction_required" } },
    agent: true,
    exit: 0,
  },
  {
    name: "a fault on another program (pi) leaves STATUS in-process",
    profile: "2.4.0",
    scenario: { faults: [{ program: "pi", fault: { kind: "hang" } }] },
    agent: true,
    exit: 0,
  },
];

describe("STATUS answered in-process", () => {
  it.each(CASES)(
    "$profile $name: the spawned binary's bytes, counter and transcript line",
    async ({ profile, scenario, agent, exit }) => {
      const s = sandbox({ ...scenario, profile });
      const argv = statusArgv(s.repo, agent);
      const spawned = await runProgram(gentleAi, argv, { cwd: s.repo, env: s.env("spawned"), timeoutMs: 20_000 });
      const answered = await gentleAiInProcess({
        argv,
        env: s.env("in-process"),
        cwd: s.repo,
        executablePath: gentleAi,
      });
      expect(answered).not.toBeNull();
      expect(spawned.exitCode).toBe(exit);
      expect(answered?.exitCode).toBe(spawned.exitCode);
      expect(answered?.stdout.equals(spawned.stdout)).toBe(true);
      expect(answered?.stderr.equals(spawned.stderr)).toBe(true);
      expect(spawned.stdout.length).toBeGreaterThan(100);
      expect(comparable(s.transcript("in-process"))).toEqual(comparable(s.transcript("spawned")));
      expect(readTranscript(s.transcript("in-process")).map((e) => e.pid)).toEqual([process.pid]);
      expect(counters(s.state("in-process"))).toEqual(counters(s.state("spawned")));
    },
  );

  it("a configuration error gives the process's stderr and exit 2", async () => {
    const s = sandbox("{ not json");
    const argv = statusArgv(s.repo, true);
    const spawned = await runProgram(gentleAi, argv, { cwd: s.repo, env: s.env("spawned"), timeoutMs: 20_000 });
    const answered = await gentleAiInProcess({ argv, env: s.env("in-process"), cwd: s.repo, executablePath: gentleAi });
    expect(spawned.exitCode).toBe(2);
    expect(answered).toEqual({ stdout: spawned.stdout, stderr: spawned.stderr, exitCode: 2 });
    expect(spawned.stderr.toString("utf8")).toMatch(/scenario/);
  });

  const faulted: [string, ScenarioInput][] = [
    [
      "a fault rule on STATUS (even at a later call index)",
      { faults: [{ program: "gentle-ai", verb: "status", calls: [2], fault: { kind: "delay", ms: 1 } }] },
    ],
    [
      "a fault rule on every gentle-ai call",
      { faults: [{ program: "gentle-ai", fault: { kind: "exit-code", code: 3 } }] },
    ],
  ];
  it.each(faulted)("%s: only a process answers; nothing is counted or recorded", async (_name, scenario) => {
    const s = sandbox({ ...scenario, profile: "2.4.0" });
    const answered = await gentleAiInProcess({
      argv: statusArgv(s.repo, true),
      env: s.env("in-process"),
      cwd: s.repo,
      executablePath: gentleAi,
    });
    expect(answered).toBeNull();
    expect(readTranscript(s.transcript("in-process"))).toEqual([]);
    expect(() => readdirSync(join(s.state("in-process"), "calls"))).toThrow(/ENOENT/);
  });

  it("a --cwd inside a Git work tree (the repository world) is left to a process", async () => {
    const s = sandbox({ profile: "2.4.0" });
    execFileSync("git", ["init", "-q", s.repo]);
    const answered = await gentleAiInProcess({
      argv: statusArgv(s.repo, true),
      env: s.env("in-process"),
      cwd: s.repo,
      executablePath: gentleAi,
    });
    expect(answered).toBeNull();
    expect(readTranscript(s.transcript("in-process"))).toEqual([]);
  });

  it.each(["2.3.0", "2.4.0", "2.5.0"] as const)(
    "acquireSlot on %s: the same slot as the spawned reference path, without a process",
    async (profile) => {
      const s = sandbox({ profile });
      const spawned = await acquireSlot({ gentleAi, cwd: s.repo, env: s.env("spawned"), profile, spawn: true });
      const inProcess = await acquireSlot({ gentleAi, cwd: s.repo, env: s.env("in-process"), profile });
      expect(inProcess).toEqual(spawned);
      expect(spawned.slot.captureArgumentTokens.length).toBeGreaterThan(2);
      expect(readTranscript(s.transcript("spawned")).every((e) => e.pid !== process.pid)).toBe(true);
      const own = readTranscript(s.transcript("in-process"));
      expect(own.length).toBe(profile === "2.3.0" ? 2 : 1);
      expect(own.every((e) => e.pid === process.pid)).toBe(true);
    },
  );

  it("acquireSlot spawns STATUS when a fault may select it, and the fault applies", async () => {
    const s = sandbox({
      profile: "2.4.0",
      faults: [{ program: "gentle-ai", verb: "status", fault: { kind: "exit-code", code: 1 } }],
    });
    await expect(acquireSlot({ gentleAi, cwd: s.repo, env: s.env("in-process"), profile: "2.4.0" })).rejects.toThrow(
      /offered 0 relay slot\(s\), wanted #0; exit 1/,
    );
    const entries = readTranscript(s.transcript("in-process"));
    expect(entries.map((e) => [e.verb, e.exit.code, e.pid === process.pid])).toEqual([["status", 1, false]]);
  });
});
