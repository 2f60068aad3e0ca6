// Each broken relay must fail exactly the clause its defect violates (a control clause keeps passing),
// and our relay must pass the whole catalogue on every profile.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CATALOGUE, selectClauses } from "../../../../conformance/clauses/index.ts";
import { packageRoot } from "../../../../conformance/paths.ts";
import type { Report } from "../../../../conformance/report/report-schema.ts";
import { runCatalogue } from "../../../../conformance/runner/run-catalogue.ts";

const root = packageRoot();
const counterexampleDir = mkdtempSync(join(tmpdir(), "rc-broken-cx-"));
afterAll(() => rmSync(counterexampleDir, { recursive: true, force: true }));

// Every test is its own catalogue run (own run root, own adapter children), so they run concurrently: "our relay"
// starts first and the broken relays' runs go beside it one at a time (`queued`), which keeps the machine near the
// load load-verdicts.test.ts shows the timing verdicts withstand. Runs that mostly wait out bounds on idle children
// (a relay that never settles, timeouts that must fire) do not queue: they cost wall time, not CPU.
const queued = oneAtATime();
/** Per-test bound that covers waiting in `queued` behind the other runs. */
const QUEUED_MS = 240_000;

/** Runs the bodies it is given one at a time, in call order. */
function oneAtATime(): <T>(body: () => Promise<T>) => Promise<T> {
  let last: Promise<unknown> = Promise.resolve();
  return <T>(body: () => Promise<T>): Promise<T> => {
    const result = last.then(body);
    last = result.catch(() => undefined);
    return result;
  };
}

interface RunShape {
  readonly profiles?: Report["profiles"];
  readonly runs?: number;
  readonly concurrency?: number;
  /** The run mostly waits on idle children: it starts at once instead of queueing. */
  readonly waits?: boolean;
}

async function run(relay: string, grep: string, shape: RunShape = {}): Promise<Report> {
  const start = (): Promise<Report> =>
    runCatalogue({
      relayModule: join(root, relay),
      clauses: selectClauses(grep, CATALOGUE),
      profiles: shape.profiles ?? ["2.4.0"],
      runs: shape.runs ?? 3,
      seed: 1,
      timeoutMs: 20_000,
      concurrency: shape.concurrency ?? 2,
      counterexampleDir,
    });
  return shape.waits === true ? start() : queued(start);
}

const statuses = (report: Report): Record<string, string> =>
  Object.fromEntries(report.clauses.map((c) => [c.id, c.status]));

describe.concurrent("our relay", () => {
  it("passes every clause on every profile", async () => {
    // Not queued: the broken relays' runs are what goes beside this one.
    const report = await run("relay/index.ts", ".*", { profiles: ["2.3.0", "2.4.0", "2.5.0"], runs: 4, waits: true });
    expect(report.clauses.filter((c) => c.status !== "pass").map((c) => `${c.id}: ${c.message}`)).toEqual([]);
    expect(report.summary.failed).toBe(0);
  }, 300_000);
});

describe.concurrent("broken relays fail the clause their defect violates", () => {
  it.each<[string, string, string, RunShape?]>([
    // SIGTERM still ends a child that does not trap it: the older timeout clause cannot see this defect.
    // Its three trapping cases never settle and each waits out the 20 s case bound: four lanes wait them out together.
    ["sigterm-on-timeout.ts", "TIMEOUT-HARD-KILL", "MATERIALIZE-TIMEOUT", { concurrency: 4, waits: true }],
    ["adds-bom.ts", "RESULT-FILE-EXACT", "PI-STDIN-EXACT"],
    ["trims-newline.ts", "RESULT-FILE-EXACT", "SUBMIT-ARGV-EXACT"],
    ["utf8-roundtrip.ts", "RESULT-FILE-EXACT", "PI-ARGV-FIXED"],
    ["substitutes-every-token.ts", "SUBMIT-ARGV-EXACT", "RESULT-FILE-EXACT"],
    ["retries-refused-submit.ts", "NO-RETRY", "PI-ARGV-FIXED"],
    ["drops-handshake.ts", "HANDSHAKE-GENTLE-AI-ONLY", "FORM-MISSING"],
    ["handshake-to-pi.ts", "PI-ENV-UNTOUCHED", "SUBMIT-CWD-HANDSHAKE"],
    ["pi-mutation-unknown.ts", "MUTATION-OUTCOME-BY-STAGE", "PI-ARGV-FIXED"],
    ["cwd-from-process.ts", "TARGET-CWD-HONOURED", "PI-ARGV-FIXED"],
    ["pi-failed-as-timeout.ts", "PI-TIMEOUT-ENV-OVERRIDE", "PI-ARGV-FIXED"],
    // A surviving mutant of `relay-conformance mutate` (docs/mutation.md), killed by the sharpened clause.
    ["dev-binary-env.ts", "API-CONSTANTS", "PI-ARGV-FIXED"],
    // Slot detection (relay/slots.ts), which no clause called before.
    ["slots-first-match.ts", "API-RELAY-SLOTS", "API-ROLE-VECTOR-SLOTS"],
    ["slots-undefined-keys.ts", "API-RELAY-SLOTS", "API-ROLE-VECTOR-SLOTS"],
    ["role-vectors-any-execute.ts", "API-ROLE-VECTOR-SLOTS", "API-RELAY-SLOTS"],
    ["ignores-dev-binary.ts", "DEV-BINARY-OVERRIDE", "GENTLE-AI-PATH-ABSOLUTE"],
    // Aborts that land while a leg runs (the older cases abort as a folder appears, racing the launch).
    ["materialize-abort-as-failure.ts", "ABORT-HONOURED", "MATERIALIZE-FAILED"],
    ["leaves-timer.ts", "SETTLES-CLEAN", "PI-ARGV-FIXED"],
    ["leaves-abort-listener.ts", "SETTLES-CLEAN", "PI-ARGV-FIXED"],
    ["submit-spawn-error-untyped.ts", "SUBMIT-COULD-NOT-START", "SUBMIT-ARGV-EXACT"],
    ["zero-bound-fires.ts", "BOUND-ZERO-NO-TIMER", "GENTLE-AI-TIMEOUT-DEFAULT"],
    ["coerces-form-tokens.ts", "FORM-EMPTY-TOKEN", "FORM-MISSING"],
    ["pi-launch-timed-out.ts", "PI-LAUNCH-FAILED", "PI-ARGV-FIXED"],
    ["pi-default-empty.ts", "PI-DEFAULT-EXECUTABLE", "PI-ARGV-FIXED"],
    ["scratch-failure-as-pi-failed.ts", "PI-SCRATCH-FAILED", "PI-LAUNCH-FAILED"],
    ["truncates-submit-stdout.ts", "RESULT-SHAPE", "PI-ARGV-FIXED"],
    ["spawn-throw-uncaught.ts", "MATERIALIZE-COULD-NOT-START", "MATERIALIZE-FAILED"],
    ["coerces-capture-tokens.ts", "CAPTURE-TOKENS-NONEMPTY", "CAPTURE-TOKENS-REQUIRED"],
  ])(
    "%s fails %s (and passes %s)",
    async (relay, failing, control, shape) => {
      const report = await run(`test/conformance/clauses/broken-relays/${relay}`, `^(${failing}|${control})$`, shape);
      expect(statuses(report)).toEqual({ [failing]: "fail", [control]: "pass" });
      expect(report.summary).toEqual({ passed: 1, failed: 1, skipped: 0, errored: 0 });
    },
    QUEUED_MS,
  );

  it.each<[string, string, RunShape?]>([
    ["cwd-from-request.ts", "TARGET-CWD-HONOURED"],
    // Its three cases wait out their relay bounds (1.5, 1.5 and 3 s): three lanes, side by side.
    ["sigkill-on-timeout.ts", "TIMEOUT-HARD-KILL", { concurrency: 3, waits: true }],
    // Every pi starts 1.2 s late, as on a machine loaded past the 1000 ms override: its cases wait on idle shells.
    ["slow-pi.ts", "PI-TIMEOUT-ENV-OVERRIDE", { concurrency: 4, waits: true }],
  ])(
    "the control %s, through the same interception without the defect, passes %s",
    async (relay, clause, shape) => {
      const report = await run(`test/conformance/clauses/broken-relays/${relay}`, `^${clause}$`, shape);
      expect(statuses(report)).toEqual({ [clause]: "pass" });
    },
    QUEUED_MS,
  );

  it.each([
    ["adds-bom.ts", "PROP-BYTES-EXACT"],
    ["substitutes-every-token.ts", "PROP-SUBMIT-FORM-EXACT"],
  ])(
    "%s is caught by the generated property %s",
    async (relay, clause) => {
      const report = await run(`test/conformance/clauses/broken-relays/${relay}`, `^${clause}$`, { runs: 30 });
      const result = report.clauses[0];
      expect(result?.status).toBe("fail");
      expect(result?.message).toMatch(
        /property .* failed \(seed -?\d+, path ".*"\): .* counterexample saved to .*; re-run with `relay-conformance replay /,
      );
    },
    QUEUED_MS,
  );

  it("a hanging relay is killed per case and reported, and the run goes on", async () => {
    // Not queued: its one case waits out the 1500 ms bound on a child that does nothing.
    const report = await runCatalogue({
      relayModule: join(root, "test/conformance/clauses/broken-relays/hangs.ts"),
      clauses: selectClauses("^(PI-ARGV-FIXED|API-CONSTANTS)$", CATALOGUE),
      profiles: ["2.4.0"],
      runs: 1,
      seed: 1,
      timeoutMs: 1500,
      concurrency: 2,
      counterexampleDir,
    });
    expect(statuses(report)).toEqual({ "PI-ARGV-FIXED": "fail", "API-CONSTANTS": "pass" });
    expect(report.clauses[0]?.message).toMatch(
      /^2\.4\.0: \[happy-path\] relay did not settle within 1500ms \(load-scaled; \d+\.\d s wall\): it hung (before any leg: nothing was launched; the relay waits on a timer due in \d+\.\d s|where the census could not see: .*); its adapter child and process tree were killed and replaced; output tail: \(none\); pi was never launched$/,
    );
  });
});
