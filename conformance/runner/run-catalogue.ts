// `run`'s engine: plans the selected clauses' runs, runs them on the lanes (lanes.ts), decides every clause from
// their results as they arrive (verdicts.ts), and reports; at its end it scans for what escaped every kill.
import { setMaxListeners } from "node:events";
import { mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import type { Profile } from "../../simulator/scenario/schema.ts";
import { COUNTEREXAMPLE_SCHEMA_ID } from "../clauses/counterexample-schema.ts";
import {
  HarnessError,
  type CaseRun,
  type Clause,
  type ProbeCheck,
  type ProbeView,
  type PropertyRunner,
} from "../clauses/types.ts";
import { harnessPaths } from "../paths.ts";
import { tail } from "../process/job-outcome.ts";
import { leftBehind, processesBefore } from "../process/left-behind.ts";
import type { ProbeResult } from "../process/protocol.ts";
import { REPORT_SCHEMA_ID, type ClauseResult, type Report } from "../report/report-schema.ts";
import { Lanes, LOAD_TIMEOUT_MS } from "./lanes.ts";
import { planRuns, type PlannedCaseRun, type PlannedPropertyRun, type RunPlan } from "./plan-runs.ts";
import { runPool } from "./pool.ts";
import { prescribesWait, waitLaneCount } from "./prescribed-waits.ts";
import { harnessFailure } from "./run-case.ts";
import { since, type RunObserver } from "./run-observer.ts";
import { createRunRoot, type RunRoot } from "./sandbox.ts";
import {
  evaluateClause,
  harnessChecked,
  outcomeOf,
  type CheckOutcome,
  type Pending,
  type RunResults,
} from "./verdicts.ts";

export interface RunOptions {
  readonly relayModule: string;
  readonly clauses: readonly Clause[];
  readonly profiles: readonly Profile[];
  readonly runs: number;
  readonly seed: number;
  readonly timeoutMs: number;
  readonly concurrency: number;
  /** Where failing properties save counterexamples. */
  readonly counterexampleDir: string;
  /** A fresh adapter child per case instead of one per lane. */
  readonly isolate?: boolean;
  readonly keep?: boolean;
  /** Wall-clock bound on the whole run: past it, cases in flight are stopped and every unfinished one is `error`. */
  readonly deadlineMs?: number;
  /** Copied into the report: the catalogue's digest, and which shard of a sharded run this is (runner/shard.ts). */
  readonly catalogue?: string;
  readonly shard?: { readonly index: number; readonly count: number; readonly selected: number };
  /** Called once the module loaded and exports runReviewHostRelaySlot, before any case runs. */
  onStart?(): void;
  /** Called with the run's temp root as soon as it exists (with `keep`, it is left behind, even on interruption). */
  onRunRoot?(dir: string): void;
  onClause?(result: ClauseResult): void;
  onCase?(caseId: string, profile: Profile, done: number, total: number): void;
  /** Called once the runs are planned, with the total that onCase counts towards (for a progress line). */
  onPlan?(total: number): void;
  /** Timing and process-count hooks (the bench's floor figures); absent, nothing is measured. */
  readonly observer?: RunObserver;
}

/** The relay module cannot be used at all: bad input, exit 2. */
export class RelayLoadError extends Error {
  override readonly name = "RelayLoadError";
}

/** The module's exports as the probe saw them, and its answers to every probe check's calls, in order. */
interface ProbeAnswer {
  readonly view: ProbeView;
  readonly results: ProbeResult[];
}

/** Probes the module once: load errors and a missing entry export are bad input (RelayLoadError). */
async function probeModule(lanes: Lanes, checks: readonly ProbeCheck[], signal?: AbortSignal): Promise<ProbeAnswer> {
  const calls = checks.flatMap((c) => [...c.probe]);
  const reply = await lanes.runJob(
    0,
    {
      id: 0,
      op: "probe",
      relayModule: lanes.options.relayModule,
      cwd: lanes.root.dir,
      processEnv: { PATH: lanes.root.binDir, TMPDIR: tmpdir() },
      calls,
    },
    { timeoutMs: Math.max(lanes.options.timeoutMs, LOAD_TIMEOUT_MS), ...(signal ? { signal } : {}) },
  );
  const cannot = `cannot load relay module ${lanes.options.relayModule}`;
  if (reply.status === "harness") throw new HarnessError(`${cannot}: ${reply.detail}`);
  if (reply.status === "timeout") throw new RelayLoadError(`${cannot}: loading timed out`);
  if (reply.status !== "reply")
    throw new RelayLoadError(
      `${cannot}: ${reply.status === "protocol" ? reply.detail : tail(reply.evidence.output).split("\n").slice(-3).join(" ")}`,
    );
  const r = reply.reply;
  if (r.type === "load-error") throw new RelayLoadError(`${cannot}: ${r.message}`);
  if (r.type !== "probe") throw new HarnessError(`unexpected adapter reply ${r.type}`);
  if (r.exports.runReviewHostRelaySlot !== "function") {
    throw new RelayLoadError(
      `relay module ${lanes.options.relayModule} does not export a function named runReviewHostRelaySlot`,
    );
  }
  return { view: { exports: r.exports, values: r.values, frozen: r.frozen }, results: r.calls };
}

/** A lane-0 property runner outside a catalogue run (replay of one counterexample). */
export async function withPropertyRunner<T>(
  options: Pick<RunOptions, "relayModule" | "timeoutMs" | "runs" | "seed"> & { profile: Profile },
  body: (runner: PropertyRunner) => Promise<T>,
): Promise<T> {
  const root = createRunRoot();
  const lanes = new Lanes(harnessPaths(), root, options, 1);
  try {
    return await body({
      profile: options.profile,
      runs: options.runs,
      seed: options.seed,
      runCase: async (def) => harnessChecked(await lanes.runCase(def, options.profile, 0)),
      saveCounterexample: () => "",
    });
  } finally {
    await lanes.closeAll();
    root.remove();
  }
}

/**
 * Runs every selected clause on every selected profile it applies to; cases shared by clauses run once. At its end,
 * the whole process table is scanned for what escaped every kill (left-behind.ts), reported in `leftBehind`.
 */
export async function runCatalogue(options: RunOptions): Promise<Report> {
  const before = processesBefore();
  const report = await runSelected(options);
  const left = leftBehind(before);
  return left.length === 0 ? report : { ...report, leftBehind: left };
}

/** The steps of one catalogue run, from its temp root to its report; the lanes close whatever happens. */
async function runSelected(options: RunOptions): Promise<Report> {
  const started = Date.now();
  const root = createRunRoot(options.keep ?? false);
  options.onRunRoot?.(root.dir);
  // Room for the most wait lanes a run can get (prescribed-waits.ts); the plan decides how many it uses.
  const laneCount = options.concurrency + waitLaneCount(options.concurrency, Number.POSITIVE_INFINITY);
  const lanes = new Lanes(harnessPaths(), root, options, laneCount);
  const deadline = runDeadline(options.deadlineMs, laneCount);
  try {
    const probeStart = options.observer ? performance.now() : 0;
    // Unique (case, profile) runs and property runs (plan-runs.ts); each clause/profile awaits the ones it needs.
    // options.clauses is already this shard's selection (options.shard only labels the report): no shard here.
    const plan = planRuns({
      clauses: options.clauses,
      profiles: options.profiles,
      runs: options.runs,
      seed: options.seed,
    });
    const schedule = scheduleRuns(plan, options.concurrency);
    // The lanes that will have work start their children now, alongside lane 0's probe (a task per planned run).
    for (let lane = 1; lane < Math.min(options.concurrency, schedule.cpuTasks); lane += 1)
      lanes.warm(lane, deadline.signal);
    const probe = await probeModule(lanes, plan.probeChecks, deadline.signal);
    options.observer?.phase?.("probe", since(probeStart));
    options.onStart?.();
    const results = pendingResults(plan, probe);
    // Clause evaluation hangs off the pending results, so verdicts stream out as soon as their cases finish.
    const clauses = Promise.all(options.clauses.map((clause) => evaluateClause(clause, options, results)));
    await executeRuns(plan, schedule, results, { lanes, root, options, signal: deadline.signal });
    return catalogueReport(options, started, lanes.calls, await clauses);
  } finally {
    deadline.clear();
    await closeRun(lanes, root, options);
  }
}

/**
 * The run's wall-clock deadline (CI's bound, unlike the load-scaled per-case bounds): a signal every job listens to.
 */
function runDeadline(
  deadlineMs: number | undefined,
  laneCount: number,
): { readonly signal: AbortSignal; clear(): void } {
  const controller = new AbortController();
  const timer =
    deadlineMs === undefined
      ? undefined
      : setTimeout(
          () => controller.abort(new Error(`the run's deadline (${formatDuration(deadlineMs)}) passed`)),
          deadlineMs,
        );
  // Each lane's job in flight listens for the deadline (process/relay-host.ts). With wait lanes a run has up to three
  // times --concurrency lanes: past Node's default of 10 listeners, which Node reports on stderr as a leak.
  setMaxListeners(laneCount + 10, controller.signal);
  return { signal: controller.signal, clear: () => clearTimeout(timer) };
}

/** Which case runs go on wait lanes, how many wait lanes there are, and how many tasks the CPU lanes share. */
interface Schedule {
  readonly waiting: ReadonlySet<string>;
  readonly waitLanes: number;
  readonly cpuTasks: number;
}

/**
 * Cases that wait out a prescribed time go on wait lanes beside the CPU lanes, when the run has enough of them: they
 * hold a host, not a core (prescribed-waits.ts). Wait lanes start their children on demand.
 */
function scheduleRuns(plan: RunPlan, concurrency: number): Schedule {
  const waitingRuns = plan.caseRuns.filter((run) => prescribesWait(run.def, run.profile));
  const waitLanes = waitLaneCount(concurrency, waitingRuns.length);
  const waiting = new Set(waitLanes === 0 ? [] : waitingRuns.map((run) => run.key));
  return { waiting, waitLanes, cpuTasks: plan.caseRuns.length - waiting.size + plan.propertyRuns.length };
}

/** A result a task delivers and clauses await. */
function pending<T>(): Pending<T> {
  let resolve: (value: T) => void = () => undefined;
  const promise = new Promise<T>((res) => (resolve = res));
  return { promise, resolve };
}

/** The pending result of every planned run, and the probe's answers sliced per probe check. */
function pendingResults(plan: RunPlan, probe: ProbeAnswer): RunResults {
  const slices = new Map<ProbeCheck, ProbeResult[]>();
  let at = 0;
  for (const check of plan.probeChecks) {
    slices.set(check, probe.results.slice(at, at + check.probe.length));
    at += check.probe.length;
  }
  return {
    cases: new Map(plan.caseRuns.map((run) => [run.key, pending<CaseRun>()])),
    properties: new Map(plan.propertyRuns.map((run) => [run.key, pending<CheckOutcome>()])),
    probe: { view: probe.view, slices },
  };
}

/** What the tasks of a run share. */
interface TaskContext {
  readonly lanes: Lanes;
  readonly root: RunRoot;
  readonly options: RunOptions;
  readonly signal: AbortSignal;
}

/** Runs every planned case and property on the CPU lanes, and the waiting cases on the wait lanes beside them. */
async function executeRuns(plan: RunPlan, schedule: Schedule, results: RunResults, ctx: TaskContext): Promise<void> {
  const total = results.cases.size + plan.propertyRuns.length;
  ctx.options.onPlan?.(total);
  let done = 0;
  const finished = (id: string, profile: Profile): void => {
    done += 1;
    ctx.options.onCase?.(id, profile, done, total);
  };
  const task = (run: PlannedCaseRun): ((lane: number) => Promise<void>) =>
    caseTask(run, results.cases.get(run.key), ctx, finished);
  const tasks = [
    ...plan.propertyRuns.map((run) => propertyTask(run, results.properties.get(run.key), ctx, finished)),
    ...plan.caseRuns.filter((run) => !schedule.waiting.has(run.key)).map(task),
  ];
  const waits = plan.caseRuns.filter((run) => schedule.waiting.has(run.key)).map(task);
  await Promise.all([
    runPool(tasks, ctx.options.concurrency),
    runPool(waits, schedule.waitLanes, ctx.options.concurrency),
  ]);
}

/** One case run on a lane; a crash of the harness becomes the case's harness error. */
function caseTask(
  run: PlannedCaseRun,
  result: Pending<CaseRun> | undefined,
  ctx: TaskContext,
  finished: (id: string, profile: Profile) => void,
) {
  return async (lane: number): Promise<void> => {
    const observer = ctx.options.observer;
    const taskStart = observer ? performance.now() : 0;
    const outcome = await ctx.lanes
      .runCase(run.def, run.profile, lane, ctx.signal)
      .catch((error: unknown): CaseRun =>
        harnessFailure(
          run.def,
          run.profile,
          `the case crashed the harness: ${error instanceof Error ? error.message : String(error)}`,
        ),
      );
    result?.resolve(outcome);
    observer?.task?.("case", since(taskStart), lane);
    finished(run.def.id, run.profile);
  };
}

/** One property run on a lane: its relay calls on that lane, its counterexample under the run's unique tag. */
function propertyTask(
  run: PlannedPropertyRun,
  result: Pending<CheckOutcome> | undefined,
  ctx: TaskContext,
  finished: (id: string, profile: Profile) => void,
) {
  return async (lane: number): Promise<void> => {
    const { options, lanes, root, signal } = ctx;
    const taskStart = options.observer ? performance.now() : 0;
    const runner: PropertyRunner = {
      profile: run.profile,
      runs: run.runs,
      seed: run.seed,
      runCase: async (def) => harnessChecked(await lanes.runCase(def, run.profile, lane, signal)),
      saveCounterexample: (data) =>
        saveCounterexample(
          options.counterexampleDir,
          `${run.key}.${basename(root.dir).replace(/^relay-conformance-/, "")}`,
          {
            schema: COUNTEREXAMPLE_SCHEMA_ID,
            clause: run.clause,
            profile: run.profile,
            relay: options.relayModule,
            ...data,
          },
        ),
    };
    let outcome: CheckOutcome;
    try {
      await run.check.property.run(runner);
      outcome = { status: "pass", message: "" };
    } catch (error) {
      outcome = outcomeOf(error);
    }
    result?.resolve(outcome);
    options.observer?.task?.("property", since(taskStart), lane);
    finished(run.key, run.profile);
  };
}

/** The report of a finished run. */
function catalogueReport(options: RunOptions, started: number, cases: number, clauses: ClauseResult[]): Report {
  const count = (status: ClauseResult["status"]): number => clauses.filter((c) => c.status === status).length;
  return {
    schema: REPORT_SCHEMA_ID,
    relay: options.relayModule,
    profiles: [...options.profiles],
    seed: options.seed,
    runs: options.runs,
    startedAt: new Date(started).toISOString(),
    durationMs: Date.now() - started,
    cases,
    ...(options.catalogue === undefined ? {} : { catalogue: options.catalogue }),
    ...(options.shard === undefined ? {} : { shard: { ...options.shard } }),
    summary: { passed: count("pass"), failed: count("fail"), skipped: count("skip"), errored: count("error") },
    clauses,
  };
}

/** Closes every lane (and what escaped them), then removes the run's temp root unless it is kept. */
async function closeRun(lanes: Lanes, root: RunRoot, options: RunOptions): Promise<void> {
  const closeStart = options.observer ? performance.now() : 0;
  await lanes.closeAll();
  options.observer?.phase?.("close", since(closeStart));
  if (!options.keep) root.remove();
}

/** A duration as the user would write it back: 90s, 10m, 1h30m, 250ms. */
export function formatDuration(ms: number): string {
  if (ms % 1000 !== 0) return `${ms}ms`;
  const s = ms / 1000;
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = s % 60;
  return [h ? `${h}h` : "", m ? `${m}m` : "", rest || (!h && !m) ? `${rest}s` : ""].join("");
}

/**
 * Writes a counterexample under a name of its own: the property's key and the run's unique tag (its temp root's), so
 * two runs at once in the same folder never write, or read back, each other's file.
 */
function saveCounterexample(dir: string, name: string, data: unknown): string {
  mkdirSync(dir, { recursive: true });
  const file = resolve(join(dir, `${name.replace(/[^A-Za-z0-9.@-]+/g, "_")}.json`));
  writeFileSync(file, `${JSON.stringify(data, null, 2)}\n`);
  return file;
}
