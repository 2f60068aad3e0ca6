// `relay-conformance mutate`: coverage first (one run of the catalogue on the unmutated, instrumented relay, which
// must pass and records which clause cases execute each mutant), then each mutant runs only the clauses that cover
// it, the likeliest killer first, and stops at its first killing clause (test-mutant.ts). Mutant switching: a lane's
// host loads the instrumented relay once and every job names its active mutant; only a static mutant (one the module
// runs while loading) needs a host of its own. As in `run`, case runs that prescribe a wait go to wait lanes beside
// the CPU lanes. A mutant a `// Stryker disable` comment marks is Ignored: never run, not counted.
import type { Profile } from "../../simulator/scenario/schema.ts";
import { HarnessError, type Clause } from "../clauses/types.ts";
import { harnessPaths } from "../paths.ts";
import type { AcquiredSlot } from "../runner/acquire-slot.ts";
import {
  caseProfile,
  caseRunKey,
  isCase,
  isProbe,
  isProperty,
  planRuns,
  propertyRunKey,
  type RunPlan,
} from "../runner/plan-runs.ts";
import { prescribesWait, waitLaneCount } from "../runner/prescribed-waits.ts";
import { runPool } from "../runner/pool.ts";
import { createRunRoot } from "../runner/sandbox.ts";
import type { RunOptions } from "../runner/run-catalogue.ts";
import { instrumentRelay, type MutantSpec } from "./instrument.ts";
import { ClauseOrder } from "./clause-order.ts";
import { MutantLane } from "./lane.ts";
import type { MutantResult } from "./mutant-result.ts";
import { testMutant } from "./test-mutant.ts";
import { PROBE_TEST, Trial, type TrialContext } from "./trial.ts";

export type { MutantResult, MutantStatus } from "./mutant-result.ts";

/** The catalogue options a mutation run shares with `run`; timeoutMs bounds a coverage-run case, and a mutant's case
 * 1.5 × its coverage-run time + 5 s, at most timeoutMs. */
export type MutateCatalogueOptions = Pick<
  RunOptions,
  "clauses" | "profiles" | "runs" | "seed" | "timeoutMs" | "concurrency"
>;

export interface MutateOptions extends MutateCatalogueOptions {
  readonly relay: string;
  /** The relay's folder: what the instrumented copy holds. */
  readonly folder: string;
  readonly files: readonly string[];
  /** Only mutants touching these lines (per file; absent file: none); absent, every mutant. */
  readonly lines?: ReadonlyMap<string, ReadonlySet<number> | "all">;
  /** Called once the coverage run passed, with the number of mutants to test. */
  onPlan?(total: number, coverageMs: number): void;
  onMutant?(result: MutantResult, done: number, total: number): void;
}

export interface MutateResult {
  readonly mutants: readonly MutantResult[];
  readonly sources: ReadonlyMap<string, string>;
  readonly clauses: readonly Clause[];
  /** Instrumenting and copying the relay, then the coverage run (ms). */
  readonly setupMs: number;
  readonly coverageMs: number;
  readonly durationMs: number;
}

/** The unmutated relay fails clauses: mutation testing needs a passing catalogue (exit 2). */
export class BaselineFailure extends Error {
  override readonly name = "BaselineFailure";
  constructor(readonly failing: readonly { readonly id: string; readonly message: string }[]) {
    super(`the unmutated relay fails ${failing.length} clause(s): ${failing.map((f) => f.id).join(", ")}`);
  }
}

/** Runs mutation testing (see the file comment). */
export async function mutateRelay(options: MutateOptions): Promise<MutateResult> {
  const started = performance.now();
  // Planning is pure (no process, no file), so nothing made below can be left behind by a failure in it.
  const plan = planRuns({
    clauses: options.clauses,
    profiles: options.profiles,
    runs: options.runs,
    seed: options.seed,
  });
  const waitingTests = new Set(
    plan.caseRuns.filter((run) => prescribesWait(run.def, run.profile)).map((run) => run.key),
  );
  const instrumented = await instrumentRelay(options.relay, options.folder, options.files);
  const setupMs = performance.now() - started;
  const root = createRunRoot();
  const paths = harnessPaths();
  const cpuLanes = options.concurrency;
  const waitLanes = waitLaneCount(cpuLanes, waitingTests.size);
  const lanes = Array.from(
    { length: cpuLanes + waitLanes },
    () => new MutantLane(paths, root, instrumented.relayModule),
  );
  try {
    // Set once the coverage run is over: its cases ran with the full bound.
    const bounds: { durations?: ReadonlyMap<string, number> } = {};
    const context: TrialContext = {
      paths,
      root,
      profiles: options.profiles,
      probeChecks: plan.probeChecks,
      propertyRuns: new Map(plan.propertyRuns.map((run) => [run.key, run])),
      slotCache: new Map<string, Promise<AcquiredSlot>>(),
      waitingTests,
      waitLanes: Array.from({ length: waitLanes }, (_, i) => cpuLanes + i),
      timeoutFor: (testId) => {
        const ms = bounds.durations?.get(testId);
        return ms === undefined ? options.timeoutMs : Math.min(options.timeoutMs, Math.round(ms * 1.5 + 5000));
      },
    };
    const baseline = new Trial(context, lanes, 0, null, false);
    const active = await coverageRun(baseline, plan, options);
    bounds.durations = baseline.durations;
    const coverageMs = performance.now() - started;
    const selected = instrumented.mutants.filter((m) => touches(m, options.lines));
    const ignored = selected.filter((m) => m.ignoreReason !== undefined);
    const tested = selected.filter((m) => m.ignoreReason === undefined);
    options.onPlan?.(tested.length, coverageMs);
    const results = await testMutants(tested, { baseline, context, lanes, active, options });
    return {
      mutants: [...results, ...ignored.map(ignoredResult)],
      sources: instrumented.sources,
      clauses: options.clauses,
      setupMs,
      coverageMs: coverageMs - setupMs,
      durationMs: performance.now() - started,
    };
  } finally {
    await Promise.all(lanes.map((lane) => lane.close()));
    root.remove();
    instrumented.remove();
  }
}

/**
 * The coverage run: the whole plan with no mutant active, waiting case runs on the wait lanes beside the rest, then
 * every lane's late coverage. Gives the clauses that passed; throws when one fails or cannot be decided.
 */
async function coverageRun(baseline: Trial, plan: RunPlan, options: MutateOptions): Promise<Clause[]> {
  const waiting = plan.caseRuns.filter((run) => baseline.context.waitingTests.has(run.key));
  const rest = plan.caseRuns.filter((run) => !baseline.context.waitingTests.has(run.key));
  const waitLanes = baseline.context.waitLanes;
  await Promise.all([
    runPool(
      [
        ...(plan.probeChecks.length > 0 ? [async (lane: number) => void (await baseline.probe(lane))] : []),
        ...plan.propertyRuns.map((run) => async (lane: number) => void (await baseline.propertyRun(run.key, lane))),
        ...(waitLanes.length > 0 ? rest : plan.caseRuns).map(
          (run) => async (lane: number) => void (await baseline.caseRun(run.def, run.profile, lane)),
        ),
      ],
      options.concurrency,
    ),
    waitLanes.length === 0
      ? Promise.resolve([])
      : runPool(
          waiting.map((run) => async (lane: number) => void (await baseline.caseRun(run.def, run.profile, lane))),
          waitLanes.length,
          waitLanes[0],
        ),
  ]);
  await Promise.all(baseline.lanes.map((_, lane) => baseline.flush(lane)));
  const verdicts = await Promise.all(
    options.clauses.map(async (clause) => ({ clause, verdict: await baseline.clause(clause) })),
  );
  const failing = verdicts
    .filter((v) => v.verdict.status === "fail")
    .map((v) => ({ id: v.clause.id, message: v.verdict.message }));
  if (failing.length > 0) throw new BaselineFailure(failing);
  const errored = verdicts.find((v) => v.verdict.status === "error");
  if (errored)
    throw new HarnessError(`the coverage run could not decide ${errored.clause.id}: ${errored.verdict.message}`);
  return verdicts.filter((v) => v.verdict.status === "pass").map((v) => v.clause);
}

/** What testing the mutants shares: the coverage run, the lanes, the clauses that passed it. */
interface MutantRun {
  readonly baseline: Trial;
  readonly context: TrialContext;
  readonly lanes: readonly MutantLane[];
  readonly active: readonly Clause[];
  readonly options: MutateOptions;
}

/** Tests every mutant on the CPU lanes, each against the clauses whose cases execute it. */
async function testMutants(mutants: readonly MutantSpec[], run: MutantRun): Promise<MutantResult[]> {
  const { baseline, active, options } = run;
  const tests = new Map(active.map((clause) => [clause.id, testIds(clause, options.profiles)]));
  const order = new ClauseOrder();
  let done = 0;
  return runPool(
    mutants.map((mutant) => async (lane: number): Promise<MutantResult> => {
      const started = performance.now();
      const isStatic = baseline.staticCovered.has(mutant.id);
      const covers = (testId: string): boolean => isStatic || baseline.coverage.get(testId)?.has(mutant.id) === true;
      const mine = (clause: Clause): string[] => (tests.get(clause.id) ?? []).filter(covers);
      const covering = active.filter((clause) => mine(clause).length > 0);
      const reuse = isStatic ? undefined : { baseline, covers };
      const trial = new Trial(run.context, run.lanes, lane, mutant.id, isStatic, reuse);
      const result =
        covering.length === 0
          ? noCoverage(mutant)
          : await testMutant(trial, mutant, {
              covering,
              isStatic,
              order,
              costMs: (clause) => mine(clause).reduce((sum, id) => sum + (baseline.durations.get(id) ?? 0), 0),
              waits: (clause) => mine(clause).some((id) => run.context.waitingTests.has(id)),
            });
      if (isStatic) await run.lanes[lane]?.release();
      done += 1;
      const timed = { ...result, duration: Math.round(performance.now() - started) };
      options.onMutant?.(timed, done, mutants.length);
      return timed;
    }),
    options.concurrency,
  );
}

/** The test ids a clause reads: its case runs, property runs and the probe, on the profiles it applies to. */
function testIds(clause: Clause, profiles: readonly Profile[]): string[] {
  const ids = new Set<string>();
  for (const profile of profiles.filter((p) => clause.profiles.includes(p))) {
    for (const check of clause.checks) {
      if (isProbe(check)) ids.add(PROBE_TEST);
      else if (isProperty(check)) ids.add(propertyRunKey(clause.id, check.property.id, profile));
      else if (isCase(check)) {
        const p = caseProfile(check.case, clause, profile, profiles);
        if (p !== null) ids.add(caseRunKey(check.case.id, p));
      }
    }
  }
  return [...ids];
}

/** Whether a mutant touches a selected line (every mutant when no lines are selected). */
function touches(mutant: MutantSpec, lines: MutateOptions["lines"]): boolean {
  if (lines === undefined) return true;
  const changed = lines.get(mutant.file);
  if (changed === undefined) return false;
  if (changed === "all") return true;
  for (let line = mutant.start.line; line <= mutant.end.line; line += 1) if (changed.has(line)) return true;
  return false;
}

function noCoverage(mutant: MutantSpec): MutantResult {
  return { ...mutant, status: "NoCoverage", coveredBy: [], testsCompleted: 0, static: false };
}

/** A mutant a `// Stryker disable` comment marks: never run, and not counted (its reason is the comment's). */
function ignoredResult(mutant: MutantSpec): MutantResult {
  const { ignoreReason, ...spec } = mutant;
  return {
    ...spec,
    status: "Ignored",
    ...(ignoreReason === undefined ? {} : { statusReason: ignoreReason }),
    coveredBy: [],
    testsCompleted: 0,
    static: false,
  };
}
