// Every hostile relay ends with a verdict within its bounds, the process exits right after the summary, nothing is
// left behind (no process carrying the run's private TMPDIR, no folder in it), and every clause the hostility does not
// touch has the verdict of a clean run under the same seed. Each relay misbehaves on the happy-path case only
// (trigger.ts); the selection mixes clauses that use it with clauses that do not.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ReportSchema, type Report } from "../../../../conformance/report/report-schema.ts";
import { leftovers, privateTmps, timedCliRun } from "../../../support/cli-process.ts";
import { eventually, processesUsing } from "../../../support/processes.ts";

const GREP = "^(PI-ARGV-FIXED|RESULT-SHAPE|PI-FAILED|FORM-MISSING|RESULT-FILE-MODES|TARGET-CWD-DEFAULT|API-CONSTANTS)$";
const TIMEOUT_MS = 3000;
/** The run's wall-clock bound (--deadline): a run that needs longer ends with clauses in error, which fails below. */
const DEADLINE_S = 90;

/**
 * A relay and the clauses its hostility changes (status and message pattern); every other clause must match the clean
 * run.
 */
const HAPPY_PATH_DEAD = (why: RegExp) => ({ "PI-ARGV-FIXED": why, "RESULT-SHAPE": why });
const CORPUS: readonly { relay: string; affected: Readonly<Record<string, RegExp>> }[] = [
  {
    relay: "hangs-ignoring-sigterm.ts",
    affected: HAPPY_PATH_DEAD(/\[happy-path\] relay did not settle within 3000ms \(load-scaled; .*killed and replaced/),
  },
  // Found however it detached (in the host's PID namespace, or by the case folders it carries), reported and killed.
  {
    relay: "detached-grandchild.ts",
    affected: HAPPY_PATH_DEAD(
      /\[happy-path\] the relay left 1 process\(es\) it started running after it settled \(now killed\): pid \d+ argv \[.*"-e","setInterval/,
    ),
  },
  {
    relay: "channel-garbage.ts",
    affected: HAPPY_PATH_DEAD(
      /\[happy-path\] relay process died: a malformed reply on the adapter's channel: "not json"; its adapter child was killed/,
    ),
  },
  {
    relay: "channel-closed.ts",
    affected: HAPPY_PATH_DEAD(
      /\[happy-path\] relay process died: the relay closed the adapter's reply channel \(fd 3\)/,
    ),
  },
  {
    relay: "exits-mid-call.ts",
    affected: HAPPY_PATH_DEAD(
      /\[happy-path\] relay process died: its adapter child died mid-call \(exit 7, signal null\)/,
    ),
  },
  {
    relay: "throws-non-errors.ts",
    affected: {
      "PI-ARGV-FIXED": /\[happy-path\] pi was never launched/,
      "RESULT-SHAPE": /\[happy-path\] expected success, relay threw undefined: kind=undefined/,
      "TARGET-CWD-DEFAULT": /\[default-target-cwd\] materialize was never launched/,
    },
  },
  { relay: "never-settles.ts", affected: HAPPY_PATH_DEAD(/\[happy-path\] relay did not settle within 3000ms/) },
  {
    relay: "huge-result.ts",
    affected: { "RESULT-SHAPE": /\[happy-path\] .*"<too large to carry: \d+ characters of JSON>"/ },
  },
  // Killed by its heap cap, or by the case bound if allocation is slower than that on a loaded machine.
  {
    relay: "heap-exhaustion.ts",
    affected: HAPPY_PATH_DEAD(
      /\[happy-path\] relay (process died: its adapter child died mid-call \(exit null, signal SIGABRT\)|did not settle within 3000ms)/,
    ),
  },
  { relay: "pollutes-process.ts", affected: {} },
  { relay: "leaves-intervals.ts", affected: {} },
  { relay: "writes-stdio.ts", affected: {} },
];

interface Outcome {
  readonly code: number | null;
  readonly wallMs: number;
  /** ms from the summary line to the process's exit. */
  readonly exitAfterSummaryMs: number | null;
  readonly report: Report;
  readonly tmp: string;
  readonly stderr: string;
}

const tmps = privateTmps();
/** The report goes to the private TMPDIR too; it is the one entry the run may leave there. */
const REPORT = "report.json";
afterAll(() => tmps.cleanup());

/** One `run` with a private TMPDIR. */
async function run(relay: string): Promise<Outcome> {
  const tmp = tmps.make();
  const json = join(tmp, REPORT);
  const started = Date.now();
  const { code, stderr, afterSummaryMs } = await timedCliRun(
    [
      "run",
      "--quiet",
      "--relay",
      relay,
      "--grep",
      GREP,
      "--profile",
      "2.4.0",
      "--seed",
      "1",
      "--timeout-ms",
      String(TIMEOUT_MS),
      "--deadline",
      `${DEADLINE_S}s`,
      "--json",
      json,
    ],
    tmp,
  );
  const ended = Date.now();
  const report = ReportSchema.parse(JSON.parse(readFileSync(json, "utf8")));
  return { code, wallMs: ended - started, exitAfterSummaryMs: afterSummaryMs, report, tmp, stderr };
}

const outcomes = new Map<string, Outcome>();
let clean: Outcome;

beforeAll(async () => {
  // Two runs at a time: the machine's two cores are shared, and every run carries its own bounds.
  const queue = ["relay/index.ts", ...CORPUS.map((c) => `test/conformance/runner/hostile-relays/${c.relay}`)];
  const lane = async (): Promise<void> => {
    for (let next = queue.shift(); next !== undefined; next = queue.shift()) outcomes.set(next, await run(next));
  };
  await Promise.all([lane(), lane()]);
  clean = outcomes.get("relay/index.ts") as Outcome;
}, 600_000);

const statuses = (report: Report): Record<string, string> =>
  Object.fromEntries(report.clauses.map((c) => [c.id, c.status]));

describe("the clean run under the same seed", () => {
  it("passes every selected clause", () => {
    expect(clean.code).toBe(0);
    expect(Object.values(statuses(clean.report)).every((s) => s === "pass")).toBe(true);
    expect(clean.report.clauses).toHaveLength(7);
  });
});

describe.each(CORPUS)("hostile relay $relay", ({ relay, affected }) => {
  const outcome = (): Outcome => outcomes.get(`test/conformance/runner/hostile-relays/${relay}`) as Outcome;

  it("ends with a verdict within its bounds and exits within 2 s of the summary", () => {
    const o = outcome();
    expect(o.code).toBe(Object.keys(affected).length > 0 ? 1 : 0);
    expect(o.report.summary.errored).toBe(0);
    expect(o.wallMs).toBeLessThan(DEADLINE_S * 1000);
    expect(o.exitAfterSummaryMs).not.toBeNull();
    expect(o.exitAfterSummaryMs).toBeLessThan(2000);
    // The exit was the process's own, not the watchdog's (cli/process-guards.ts), which would have said so.
    expect(o.stderr).toBe("");
  });

  it("fails exactly the clauses its hostility touches, with the relay's evidence", () => {
    const o = outcome();
    for (const c of o.report.clauses) {
      const why = affected[c.id];
      if (why === undefined) continue;
      expect(c.status, c.id).toBe("fail");
      expect(c.message, c.id).toMatch(why);
    }
  });

  it("leaves every other clause's verdict as the clean run's", () => {
    const mine = statuses(outcome().report);
    const base = statuses(clean.report);
    for (const id of Object.keys(affected)) {
      delete mine[id];
      delete base[id];
    }
    expect(mine).toEqual(base);
  });

  it("leaves no process and no temp folder behind", async () => {
    const o = outcome();
    expect(await eventually(() => processesUsing(o.tmp).length === 0, 1000)).toBe(true);
    expect(leftovers(o.tmp).filter((n) => n !== REPORT)).toEqual([]);
  });
});
