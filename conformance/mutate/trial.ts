// One trial: the clause catalogue's verdicts with one mutant active (or none: the coverage run). Case runs, property
// runs and the module probe are run on demand and shared by every clause of the trial that reads them, as in
// runner/run-catalogue.ts; each records how long it took and, without a mutant, which mutants it executed.
import { tmpdir } from "node:os";
import type { Profile } from "../../simulator/scenario/schema.ts";
import {
  ClauseFailure,
  HarnessError,
  SkipCheck,
  type CaseDef,
  type CaseRun,
  type Clause,
  type ProbeCheck,
  type ProbeView,
} from "../clauses/types.ts";
import { containment } from "../process/containment.ts";
import type { HarnessPaths } from "../paths.ts";
import type { AcquiredSlot } from "../runner/acquire-slot.ts";
import {
  caseProfile,
  caseRunKey,
  isProbe,
  isProperty,
  propertyRunKey,
  type PlannedPropertyRun,
} from "../runner/plan-runs.ts";
import type { JobOutcome } from "../process/job-outcome.ts";
import type { ProbeCall, ProbeResult } from "../process/protocol.ts";
import { runCase, type CaseEnvironment } from "../runner/run-case.ts";
import type { RunRoot } from "../runner/sandbox.ts";
import { coveredOf, type MutantLane, type Switch } from "./lane.ts";

/** What a trial shares with every other: the run's folders, the catalogue's probe checks and property budget. */
export interface TrialContext {
  readonly paths: HarnessPaths;
  readonly root: RunRoot;
  readonly profiles: readonly Profile[];
  readonly probeChecks: readonly ProbeCheck[];
  readonly propertyRuns: ReadonlyMap<string, PlannedPropertyRun>;
  readonly slotCache: Map<string, Promise<AcquiredSlot>>;
  /** The case runs (test ids) whose scenario prescribes a wait, and the lanes kept for them. */
  readonly waitingTests: ReadonlySet<string>;
  readonly waitLanes: readonly number[];
  /** The per-case bound for a test id (load-scaled ms). */
  timeoutFor(testId: string): number;
}

/** A clause's verdict in a trial. */
export interface Verdict {
  readonly status: "pass" | "fail" | "skip" | "error";
  readonly message: string;
}

/** The probe's test id: one job answers every probe check. */
export const PROBE_TEST = "probe";
/** The test id of the job that collects a lane's late coverage; no clause reads it. */
const FLUSH_TEST = "flush";

export class Trial {
  readonly #cases = new Map<string, Promise<CaseRun>>();
  readonly #properties = new Map<string, Promise<Verdict>>();
  #probe: Promise<{ view: ProbeView; results: ProbeResult[] } | Verdict> | undefined;
  /** Test id → the mutants it executed (coverage run only) and its duration in ms. */
  readonly coverage = new Map<string, Set<string>>();
  readonly durations = new Map<string, number>();
  /** Mutants the module executed while loading (coverage run only). */
  readonly staticCovered = new Set<string>();
  /** A relay call ran past its bound. */
  timedOut = false;
  /** The mutant is decided: the clauses still in flight start no further check. */
  #abandoned = false;

  /**
   * `lane` is the trial's own; the coverage run spreads its runs over every lane (the methods' `lane` argument).
   * A mutant's trial takes the coverage run's result for every test that does not execute the mutant (`covers`):
   * such a run cannot differ from the unmutated one, as Stryker runs only a mutant's covering tests.
   */
  constructor(
    readonly context: TrialContext,
    readonly lanes: readonly MutantLane[],
    readonly lane: number,
    readonly active: string | null,
    readonly atLoad: boolean,
    readonly reuse?: { readonly baseline: Trial; covers(testId: string): boolean },
  ) {}

  #reused(testId: string): Trial | undefined {
    return this.reuse !== undefined && !this.reuse.covers(testId) ? this.reuse.baseline : undefined;
  }

  /** Stops the trial's clauses in flight at their next check. */
  abandon(): void {
    this.#abandoned = true;
  }

  /**
   * The lane of a run: the one named (the coverage run spreads its runs), else the least busy wait lane for a run
   * that prescribes a wait (a static mutant's module is loaded on its own lane only), else the trial's own.
   */
  #laneFor(testId: string, lane: number | undefined): MutantLane {
    if (lane === undefined && !this.atLoad && this.context.waitingTests.has(testId)) {
      const waiting = this.context.waitLanes.map((index) => this.#on(index));
      const idlest = waiting.sort((a, b) => a.pending - b.pending)[0];
      if (idlest !== undefined) return idlest;
    }
    return this.#on(lane);
  }

  #on(lane: number | undefined): MutantLane {
    const chosen = this.lanes[lane ?? this.lane] ?? this.lanes[0];
    if (chosen === undefined) throw new Error("a trial without lanes");
    return chosen;
  }

  #switch(testId: string): Switch {
    return { active: this.active, testId, atLoad: this.atLoad };
  }

  #record(testId: string, started: number, covered: ReturnType<typeof coveredOf>): void {
    this.durations.set(testId, (this.durations.get(testId) ?? 0) + (performance.now() - started));
    if (covered === undefined) return;
    this.#cover(testId, covered.test);
    if (covered.late !== undefined) this.#cover(covered.late.testId, covered.late.ids);
    for (const id of covered.static) this.staticCovered.add(id);
  }

  #cover(testId: string, ids: readonly string[]): void {
    const set = this.coverage.get(testId) ?? new Set<string>();
    for (const id of ids) set.add(id);
    this.coverage.set(testId, set);
  }

  /** One relay call of a case, counted under `testId`. */
  async #runCase(def: CaseDef, profile: Profile, testId: string, lane?: number): Promise<CaseRun> {
    const host = this.#laneFor(testId, lane);
    const started = performance.now();
    let covered: ReturnType<typeof coveredOf>;
    const env: CaseEnvironment = {
      paths: this.context.paths,
      root: this.context.root,
      relayModule: host.relayModule,
      timeoutMs: this.context.timeoutFor(testId),
      keep: false,
      slotCache: this.context.slotCache,
      contained: containment() === "pid-namespace",
      hostPidOf: (pid) => host.hostPidOf(pid),
      runJob: async (job, options) => {
        const outcome = await host.runJob(job, options, this.#switch(testId));
        covered = coveredOf(outcome);
        return outcome;
      },
    };
    const run = await runCase(def, profile, env);
    if (
      run.outcome.type === "timeout" ||
      (run.outcome.type === "error" && run.outcome.error.message.startsWith("Stryker: Hit count limit"))
    )
      this.timedOut = true;
    this.#record(testId, started, covered);
    return run;
  }

  /** A (case, profile) run, shared by the trial's clauses. */
  caseRun(def: CaseDef, profile: Profile, lane?: number): Promise<CaseRun> {
    const key = caseRunKey(def.id, profile);
    const baseline = this.#reused(key);
    if (baseline) return baseline.caseRun(def, profile);
    let run = this.#cases.get(key);
    if (!run) {
      run = this.#runCase(def, profile, key, lane);
      this.#cases.set(key, run);
    }
    return run;
  }

  /** A property run (its fast-check runs, under the run's seed), shared likewise. */
  propertyRun(key: string, lane?: number): Promise<Verdict> {
    const baseline = this.#reused(key);
    if (baseline) return baseline.propertyRun(key);
    let verdict = this.#properties.get(key);
    const planned = this.context.propertyRuns.get(key);
    if (planned === undefined) return Promise.resolve({ status: "skip", message: "property not run" });
    if (!verdict) {
      verdict = planned.check.property
        .run({
          profile: planned.profile,
          runs: planned.runs,
          seed: planned.seed,
          runCase: async (def) => {
            const run = await this.#runCase(def, planned.profile, key, lane);
            if (run.outcome.type === "harness-error") throw new HarnessError(`[${run.caseId}] ${run.outcome.detail}`);
            return run;
          },
          saveCounterexample: () => "",
        })
        .then(
          (): Verdict => ({ status: "pass", message: "" }),
          (error: unknown) => verdictOf(error),
        );
      this.#properties.set(key, verdict);
    }
    return verdict;
  }

  /** The module probe (exports, values, pure calls), once per trial. */
  probe(lane?: number): Promise<{ view: ProbeView; results: ProbeResult[] } | Verdict> {
    const baseline = this.#reused(PROBE_TEST);
    if (baseline) return baseline.probe();
    this.#probe ??= (async () => {
      const started = performance.now();
      const calls = this.context.probeChecks.flatMap((c) => [...c.probe]);
      const outcome = await this.#probeJob(this.#on(lane), PROBE_TEST, calls);
      this.#record(PROBE_TEST, started, coveredOf(outcome));
      if (outcome.status === "timeout") this.timedOut = true;
      if (outcome.status !== "reply" || outcome.reply.type !== "probe")
        return { status: "error" as const, message: `the probe failed: ${outcome.status}` };
      const r = outcome.reply;
      return { view: { exports: r.exports, values: r.values, frozen: r.frozen }, results: r.calls };
    })();
    return this.#probe;
  }

  /** A probe job under `testId` on a lane: the module probe's calls, or none (a flush). */
  #probeJob(host: MutantLane, testId: string, calls: ProbeCall[]): Promise<JobOutcome> {
    return host.runJob(
      {
        id: 0,
        op: "probe",
        relayModule: host.relayModule,
        cwd: this.context.root.dir,
        processEnv: { PATH: this.context.root.binDir, TMPDIR: tmpdir() },
        calls,
      },
      { timeoutMs: this.context.timeoutFor(testId) },
      this.#switch(testId),
    );
  }

  /** Collects the coverage a lane's last coverage job left to report late (mutant-switch.ts). */
  async flush(lane: number): Promise<void> {
    const outcome = await this.#probeJob(this.#on(lane), FLUSH_TEST, []);
    const covered = coveredOf(outcome);
    if (covered?.late !== undefined) this.#cover(covered.late.testId, covered.late.ids);
  }

  /** The clause's verdict over the profiles it applies to; the first failure decides at once. */
  async clause(clause: Clause): Promise<Verdict> {
    const outcomes: Verdict[] = [];
    for (const profile of this.context.profiles.filter((p) => clause.profiles.includes(p))) {
      for (const check of clause.checks) {
        if (this.#abandoned) return { status: "skip", message: "the mutant is decided" };
        let verdict: Verdict;
        if (isProbe(check)) verdict = await this.#probeCheck(check);
        else if (isProperty(check))
          verdict = await this.propertyRun(propertyRunKey(clause.id, check.property.id, profile));
        else {
          const p = caseProfile(check.case, clause, profile, this.context.profiles);
          if (p === null) continue;
          const run = await this.caseRun(check.case, p);
          verdict =
            run.outcome.type === "harness-error"
              ? { status: "error", message: run.outcome.detail }
              : evaluate(() => check.assert(run), `[${check.case.id}@${p}] `);
        }
        if (verdict.status === "fail") return verdict;
        outcomes.push(verdict);
      }
    }
    const errored = outcomes.find((o) => o.status === "error");
    if (errored) return errored;
    if (outcomes.length === 0 || outcomes.every((o) => o.status === "skip")) return { status: "skip", message: "" };
    return { status: "pass", message: "" };
  }

  async #probeCheck(check: ProbeCheck): Promise<Verdict> {
    const probe = await this.probe();
    if ("status" in probe) return probe;
    let index = 0;
    for (const other of this.context.probeChecks) {
      if (other === check) break;
      index += other.probe.length;
    }
    return evaluate(() => check.verify(probe.view, probe.results.slice(index, index + check.probe.length)), "");
  }
}

function verdictOf(error: unknown): Verdict {
  if (error instanceof SkipCheck) return { status: "skip", message: error.message };
  if (error instanceof ClauseFailure) return { status: "fail", message: error.message };
  return { status: "error", message: error instanceof Error ? error.message : String(error) };
}

function evaluate(assert: () => void, prefix: string): Verdict {
  try {
    assert();
    return { status: "pass", message: "" };
  } catch (error) {
    const verdict = verdictOf(error);
    return verdict.status === "fail" ? { ...verdict, message: `${prefix}${verdict.message}` } : verdict;
  }
}
