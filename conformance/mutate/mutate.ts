// `relay-conformance mutate`: coverage first (one run of the catalogue on the unmutated, instrumented relay, which
// must pass and records which clause cases execute each mutant), then each mutant runs only the clauses that cover
// it, cheapest first, and stops at its first killing clause. Mutant switching: a lane's host loads the instrumented
// relay once and every job names its active mutant; only a static mutant (one the module runs while loading) needs
// a host of its own.
import type { Profile } from "../../simulator/scenario/schema.ts";
import { HarnessError, type Clause } from "../clauses/types.ts";
import { harnessPaths } from "../paths.ts";
import type { AcquiredSlot } from "../runner/acquire-slot.ts";
import { caseProfile, caseRunKey, isCase, isProbe, isProperty, planRuns, propertyRunKey } from "../runner/plan-runs.ts";
import { runPool } from "../runner/pool.ts";
import { createRunRoot } from "../runner/sandbox.ts";
import type { RunOptions } from "../runner/run-catalogue.ts";
import { instrumentRelay, type MutantSpec } from "./instrument.ts";
import { MutantLane } from "./lane.ts";
import { PROBE_TEST, Trial, type TrialContext } from "./trial.ts";

/** A mutant's status, as the mutation testing report names it. */
export type MutantStatus = "Killed" | "Survived" | "NoCoverage" | "Timeout" | "CompileError" | "RuntimeError";

export interface MutantResult extends MutantSpec {
  readonly status: MutantStatus;
  /** The clause that killed it. */
  readonly killedBy?: string;
  readonly statusReason?: string;
  /** The clauses whose cases execute it. */
  readonly coveredBy: readonly string[];
  readonly testsCompleted: number;
  readonly static: boolean;
}

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
  const instrumented = await instrumentRelay(options.relay, options.folder, options.files);
  const root = createRunRoot();
  const paths = harnessPaths();
  const lanes = Array.from(
    { length: options.concurrency },
    () => new MutantLane(paths, root, instrumented.relayModule),
  );
  try {
    const plan = planRuns({
      clauses: options.clauses,
      profiles: options.profiles,
      runs: options.runs,
      seed: options.seed,
    });
    // Set once the coverage run is over: its cases ran with the full bound.
    const bounds: { durations?: ReadonlyMap<string, number> } = {};
    const context: TrialContext = {
      paths,
      root,
      profiles: options.profiles,
      probeChecks: plan.probeChecks,
      propertyRuns: new Map(plan.propertyRuns.map((run) => [run.key, run])),
      slotCache: new Map<string, Promise<AcquiredSlot>>(),
      timeoutFor: (testId) => {
        const ms = bounds.durations?.get(testId);
        return ms === undefined ? options.timeoutMs : Math.min(options.timeoutMs, Math.round(ms * 1.5 + 5000));
      },
    };
    const baseline = new Trial(context, lanes, 0, null, false);
    await runPool(
      [
        ...(plan.probeChecks.length > 0 ? [async (lane: number) => void (await baseline.probe(lane))] : []),
        ...plan.propertyRuns.map((run) => async (lane: number) => void (await baseline.propertyRun(run.key, lane))),
        ...plan.caseRuns.map(
          (run) => async (lane: number) => void (await baseline.caseRun(run.def, run.profile, lane)),
        ),
      ],
      options.concurrency,
    );
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
    bounds.durations = baseline.durations;
    const coverageMs = performance.now() - started;

    const active = verdicts.filter((v) => v.verdict.status === "pass").map((v) => v.clause);
    const tests = new Map(active.map((clause) => [clause.id, testIds(clause, options.profiles)]));
    const cost = (clause: Clause): number =>
      (tests.get(clause.id) ?? []).reduce((sum, id) => sum + (baseline.durations.get(id) ?? 0), 0);
    // The clauses that killed most mutants of the mutant's file so far go first (neighbouring mutants tend to fall to
    // the same clauses), then those that killed most overall, then the cheapest: a mutant stops at its first kill.
    const kills = new Map<string, number>();
    const fileKills = new Map<string, Map<string, number>>();
    const coveringClauses = (mutant: MutantSpec): Clause[] => {
      const here = fileKills.get(mutant.file) ?? new Map<string, number>();
      const covering = baseline.staticCovered.has(mutant.id)
        ? active
        : active.filter((clause) => (tests.get(clause.id) ?? []).some((t) => baseline.coverage.get(t)?.has(mutant.id)));
      return [...covering].sort(
        (a, b) =>
          (here.get(b.id) ?? 0) - (here.get(a.id) ?? 0) ||
          (kills.get(b.id) ?? 0) - (kills.get(a.id) ?? 0) ||
          cost(a) - cost(b),
      );
    };
    const countKill = (mutant: MutantSpec, clause: string): void => {
      kills.set(clause, (kills.get(clause) ?? 0) + 1);
      const here = fileKills.get(mutant.file) ?? new Map<string, number>();
      here.set(clause, (here.get(clause) ?? 0) + 1);
      fileKills.set(mutant.file, here);
    };

    const selected = instrumented.mutants.filter((m) => touches(m, options.lines));
    options.onPlan?.(selected.length, coverageMs);
    let done = 0;
    const results = await runPool(
      selected.map((mutant) => async (lane: number): Promise<MutantResult> => {
        const covering = coveringClauses(mutant);
        const isStatic = baseline.staticCovered.has(mutant.id);
        const reuse = isStatic
          ? undefined
          : { baseline, covers: (testId: string) => baseline.coverage.get(testId)?.has(mutant.id) === true };
        const trial = new Trial(context, lanes, lane, mutant.id, isStatic, reuse);
        const result = covering.length === 0 ? noCoverage(mutant) : await testMutant(trial, mutant, covering, isStatic);
        if (isStatic) await lanes[lane]?.release();
        if (result.killedBy !== undefined) countKill(mutant, result.killedBy);
        done += 1;
        options.onMutant?.(result, done, selected.length);
        return result;
      }),
      options.concurrency,
    );
    return {
      mutants: results,
      sources: instrumented.sources,
      clauses: options.clauses,
      coverageMs,
      durationMs: performance.now() - started,
    };
  } finally {
    await Promise.all(lanes.map((lane) => lane.close()));
    root.remove();
    instrumented.remove();
  }
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

/** Runs the covering clauses in order until one fails. */
async function testMutant(
  trial: Trial,
  mutant: MutantSpec,
  covering: readonly Clause[],
  isStatic: boolean,
): Promise<MutantResult> {
  const coveredBy = covering.map((c) => c.id);
  let completed = 0;
  let error: string | undefined;
  for (const clause of covering) {
    const verdict = await trial.clause(clause);
    completed += 1;
    if (verdict.status === "fail") {
      return {
        ...mutant,
        status: trial.timedOut ? "Timeout" : "Killed",
        killedBy: clause.id,
        statusReason: verdict.message,
        coveredBy,
        testsCompleted: completed,
        static: isStatic,
      };
    }
    if (verdict.status === "error") error ??= `${clause.id}: ${verdict.message}`;
  }
  if (trial.timedOut) return { ...mutant, status: "Timeout", coveredBy, testsCompleted: completed, static: isStatic };
  if (error !== undefined)
    return {
      ...mutant,
      status: "RuntimeError",
      statusReason: error,
      coveredBy,
      testsCompleted: completed,
      static: isStatic,
    };
  return { ...mutant, status: "Survived", coveredBy, testsCompleted: completed, static: isStatic };
}
