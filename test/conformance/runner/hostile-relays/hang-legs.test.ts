// Relays that hang in each leg get their verdict from the hang watch, before the bound (how soon is bench/hang.ts's
// ratio), each failing clause saying which leg and why; a relay that detaches a process fully fails with its argv, and
// under the process-tree fallback (which cannot hold it) the run's end names it; and nothing of any run is left, by a
// scan of the whole process table. Every run here uses the default bound (20 s), so a patient harness would need at
// least one bound per hanging case.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONTAINMENT_ENV, containment } from "../../../../conformance/process/containment.ts";
import { ReportSchema, type Report } from "../../../../conformance/report/report-schema.ts";
import { privateTmps, root, timedCliRun } from "../../../support/cli-process.ts";
import { eventually, processIdentities, startedSince } from "../../../support/processes.ts";
import { hangRunArgs } from "./hang-selection.ts";

const DIR = "test/conformance/runner/hostile-relays";

/**
 * The clauses each leg's hang fails: those with a check that needs the call's answer from a case that reaches the
 * leg (MATERIALIZE-ARGV-VERBATIM reads only the transcript, which a hang after materialize leaves complete).
 */
const BEFORE_SUBMIT = ["PI-ARGV-FIXED", "PI-STDIN-EXACT", "PI-FAILED", "SUBMIT-ARGV-EXACT", "RESULT-SHAPE"];
const HANGS: readonly { leg: "materialize" | "pi" | "submit"; fails: readonly string[] }[] = [
  { leg: "materialize", fails: BEFORE_SUBMIT },
  { leg: "pi", fails: BEFORE_SUBMIT },
  { leg: "submit", fails: ["RESULT-SHAPE"] },
];

interface Outcome {
  readonly code: number | null;
  readonly report: Report;
  readonly tmp: string;
  readonly stdout: string;
}

const tmps = privateTmps();
const made: string[] = [];
afterAll(() => tmps.cleanup());

async function run(relay: string, env: Readonly<Record<string, string>> = {}): Promise<Outcome> {
  const tmp = tmps.make();
  made.push(tmp);
  const json = join(tmp, "report.json");
  const { code, stdout } = await timedCliRun([...hangRunArgs(relay), "--json", json], tmp, env);
  return { code, report: ReportSchema.parse(JSON.parse(readFileSync(json, "utf8"))), tmp, stdout };
}

const outcomes = new Map<string, Outcome>();
let before: Set<string>;
/** The fully detaching relay's run under the process-tree fallback, which cannot hold what it leaves. */
let uncontained: Outcome;
const SLEEPER = join(root, DIR, "sleeper.cjs");

beforeAll(async () => {
  before = processIdentities();
  // One run at a time, as a hostile relay's leftovers must not meet another run's.
  for (const relay of [
    "relay/index.ts",
    ...HANGS.map((h) => `${DIR}/hangs-in-${h.leg}.ts`),
    `${DIR}/detaches-fully.ts`,
  ])
    outcomes.set(relay, await run(relay));
  uncontained = await run(`${DIR}/detaches-fully.ts`, { [CONTAINMENT_ENV]: "process-tree" });
  // The run leaves it running (it cannot be told from an unrelated process): the test kills what it named.
  for (const p of uncontained.report.leftBehind ?? []) if (p.argv.includes(SLEEPER)) process.kill(p.pid, "SIGKILL");
}, 900_000);

const outcome = (relay: string): Outcome => outcomes.get(relay) as Outcome;
const failing = (report: Report): string[] =>
  report.clauses
    .filter((c) => c.status !== "pass")
    .map((c) => c.id)
    .sort();

describe("the clean relay", () => {
  it("passes every selected clause", () => {
    expect(outcome("relay/index.ts").code).toBe(0);
    expect(failing(outcome("relay/index.ts").report)).toEqual([]);
  });
});

describe.each(HANGS)("a relay that hangs in the $leg leg", ({ leg, fails }) => {
  const mine = (): Outcome => outcome(`${DIR}/hangs-in-${leg}.ts`);

  it("fails exactly the clauses whose cases reach the leg, each saying where it hung and why", () => {
    expect(mine().code).toBe(1);
    expect(failing(mine().report)).toEqual([...fails].sort());
    for (const c of mine().report.clauses.filter((r) => r.status === "fail")) {
      expect(c.message, c.id).toMatch(
        new RegExp(
          `relay did not settle within 20000ms \\(decided after \\d+\\.\\d s wall: nothing could wake it before its bound, so a patient run times out too\\): it hung in the ${leg} leg: `,
        ),
      );
    }
  });

  it("says what the leg's process was doing, or that it had ended", () => {
    const message = mine().report.clauses.find((c) => c.id === "RESULT-SHAPE")?.message ?? "";
    if (leg === "pi")
      expect(message).toMatch(
        /pi is blocked reading its stdin, which is still open: the relay neither wrote more nor closed it; .*processes: pi, the pi leg, pid \d+, /,
      );
    else
      expect(message).toMatch(
        /its process exited 0, yet the relay never went on; it waits on nothing that can happen before its bound/,
      );
  });
});

describe.skipIf(containment() !== "pid-namespace")(
  "a relay that detaches a process fully (own session, cwd /, no fds, empty environment)",
  () => {
    it("fails the clauses of the case it did it in, with the process's argv", () => {
      const o = outcome(`${DIR}/detaches-fully.ts`);
      expect(o.code).toBe(1);
      const failed = o.report.clauses.filter((c) => c.status === "fail");
      expect(failed.map((c) => c.id)).toEqual(expect.arrayContaining(["PI-ARGV-FIXED", "RESULT-SHAPE"]));
      for (const c of failed)
        expect(c.message, c.id).toMatch(
          /\[happy-path\] the relay left 1 process\(es\) it started running after it settled \(now killed\): pid \d+ argv \[".*sleeper\.cjs"\]/,
        );
      for (const id of ["FORM-MISSING", "API-CONSTANTS", "PI-FAILED"])
        expect(o.report.clauses.find((c) => c.id === id)?.status, id).toBe("pass");
    });
  },
);

describe("a fully detached process under the process-tree fallback", () => {
  it("escapes the case, and the run's end names it with its argv, in the JSON report and on the console", () => {
    const left = uncontained.report.leftBehind ?? [];
    expect(left.filter((p) => p.argv.includes(SLEEPER))).toEqual([
      { pid: expect.any(Number) as number, argv: [process.execPath, SLEEPER] },
    ]);
    expect(uncontained.stdout).toMatch(
      /\nleft behind: \d+ process\(es\) started during the run still run outside every process tree of the run \(no PID namespace held the relay\); not killed, since one may not be the relay's:\n/,
    );
    expect(uncontained.stdout).toContain(`argv ${JSON.stringify([process.execPath, SLEEPER])}\n`);
  });

  // Another user of a shared machine may start a process meanwhile that the scan cannot tell apart: only ours count.
  it.skipIf(containment() !== "pid-namespace")(
    "is found only where no PID namespace holds the relays: the contained runs left nothing",
    () => {
      for (const [relay, o] of outcomes)
        expect(
          (o.report.leftBehind ?? []).filter((p) => p.argv.join(" ").includes(root)),
          relay,
        ).toEqual([]);
    },
  );
});

describe("afterwards", () => {
  it("no process any run started is left, by a scan of the whole process table", async () => {
    const left = (): { pid: number; argv: string[] }[] => startedSince(before, [join(root, DIR), ...made]);
    await eventually(() => left().length === 0, 5000);
    expect(left()).toEqual([]);
  });
});
