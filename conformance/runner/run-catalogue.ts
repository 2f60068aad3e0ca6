import { setMaxListeners } from "node:events";
import { mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import type { Profile } from "../../simulator/scenario/schema.ts";
import {
  ClauseFailure,
  HarnessError,
  HungFailure,
  SkipCheck,
  type CaseDef,
  type CaseRun,
  type Clause,
  type ProbeCheck,
  type ProbeView,
  type PropertyRunner,
} from "../clauses/types.ts";
import { harnessPaths, type HarnessPaths } from "../paths.ts";
import { REPORT_SCHEMA_ID, type ClauseResult, type ClauseStatus, type ProfileResult, type Report } from "../report/report-schema.ts";
import { tail, type JobOptions, type JobOutcome } from "../process/job-outcome.ts";
import { RelayHost } from "../process/relay-host.ts";
import { containment } from "../process/containment.ts";
import { COUNTEREXAMPLE_SCHEMA_ID } from "../clauses/counterexample-schema.ts";
import { escapedCause, outcomeCause } from "../clauses/expect.ts";
import type { AdapterJob, ProbeResult } from "../process/protocol.ts";
import { harnessFailure, runCase, type CaseEnvironment } from "./run-case.ts";
import { runPool } from "./pool.ts";
import { prescribesWait, waitLaneCount } from "./prescribed-waits.ts";
import { killTree } from "../process/process-tree.ts";
import { leftBehind, processesBefore } from "../process/left-behind.ts";
import { caseProfile, caseRunKey, isProbe, isProperty, planRuns, propertyRunKey } from "./plan-runs.ts";
import { createRunRoot, type RunRoot } from "./sandbox.ts";
import { onLane, since, type RunObserver } from "./run-observer.ts";

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

type CheckOutcome = { status: ClauseStatus; message: string };

/** Start-up bound for a fresh adapter child (node, jiti, the relay module): at least this, or the case bound. */
const LOAD_TIMEOUT_MS = 30_000;

/**
 * The lanes' adapter children. A lane runs one job at a time (a job waits for the lane's previous one), starts its
 * child on demand with a `load` job in the child's own neutral environment, and replaces the child, killing its
 * whole tree and the case's marked processes, whenever a job did not end with a clean reply: a timeout, a death, a
 * broken channel, a harness fault, or a reply that says the relay left handles or timers running.
 */
class Lanes {
  readonly #workers: (RelayHost | undefined)[];
  readonly #queues: Promise<unknown>[];
  readonly #slots = new Map<string, Promise<import("./acquire-slot.ts").AcquiredSlot>>();
  constructor(
    readonly paths: HarnessPaths,
    readonly root: RunRoot,
    readonly options: Pick<RunOptions, "relayModule" | "timeoutMs" | "isolate" | "keep" | "observer">,
    count: number,
  ) {
    this.#workers = new Array<RelayHost | undefined>(count).fill(undefined);
    this.#queues = new Array<Promise<unknown>>(count).fill(Promise.resolve());
  }

  /** The environment the child itself starts with, and loads the relay module in. */
  #neutralEnv(): Record<string, string> {
    // The child's own TMPDIR stays the harness's so jiti's compile cache is shared; jobs switch to the case TMPDIR.
    return { PATH: this.root.binDir, TMPDIR: tmpdir(), HOME: process.env.HOME ?? this.root.dir };
  }

  /** A started child for the lane with the module loaded, or how starting it ended. */
  async #ready(lane: number, options: JobOptions, warming = false): Promise<RelayHost | JobOutcome> {
    const current = this.#workers[lane];
    if (current?.usable) return current;
    this.#workers[lane] = undefined;
    await current?.kill();
    const observer = this.options.observer;
    const started = observer ? performance.now() : 0;
    const worker = new RelayHost({
      tsxLoader: this.paths.tsxLoader,
      adapterChild: this.paths.adapterChild,
      cwd: this.root.dir,
      env: this.#neutralEnv(),
      contain: true,
    });
    jobIds += 1;
    const loaded = await worker.run(
      { id: jobIds, op: "load", relayModule: this.options.relayModule, cwd: this.root.dir, processEnv: this.#neutralEnv() },
      { timeoutMs: Math.max(this.options.timeoutMs, LOAD_TIMEOUT_MS), ...(options.signal ? { signal: options.signal } : {}) },
    );
    if (observer) {
      if (warming) observer.phase?.("warm", since(started));
      else observer.step?.("worker-start", since(started), lane);
    }
    if (loaded.status === "reply" && loaded.reply.type === "loaded") {
      this.#workers[lane] = worker;
      return worker;
    }
    await worker.kill();
    if (loaded.status === "timeout")
      return { status: "harness", detail: `the adapter child did not load the relay module within ${loaded.timeoutMs}ms: ${tail(loaded.evidence.output)}` };
    return loaded;
  }

  /**
   * Starts the lane's child ahead of its first job, so lanes other than 0 load the relay module while lane 0 probes
   * it; a start that fails is retried by the lane's first job, which reports it.
   */
  warm(lane: number, signal?: AbortSignal): void {
    const previous = this.#queues[lane] ?? Promise.resolve();
    this.#queues[lane] = previous.then(() => this.#ready(lane, { timeoutMs: LOAD_TIMEOUT_MS, ...(signal ? { signal } : {}) }, true)).catch(() => undefined);
  }

  /** Runs one job on the lane (see the class comment); never rejects. */
  runJob(lane: number, job: AdapterJob, options: JobOptions): Promise<JobOutcome> {
    const previous = this.#queues[lane] ?? Promise.resolve();
    const next = previous.then(async (): Promise<JobOutcome> => {
      const worker = await this.#ready(lane, options);
      if (!(worker instanceof RelayHost)) return worker;
      const observer = job.op === "run" ? this.options.observer : undefined;
      const started = observer ? performance.now() : 0;
      const outcome = await worker.run(job, options);
      if (observer) observer.step?.("relay", since(started), lane);
      const leftovers = outcome.status === "reply" && "leftovers" in outcome.reply ? (outcome.reply.leftovers ?? []) : [];
      if (outcome.status !== "reply" || leftovers.length > 0 || this.options.isolate) {
        this.#workers[lane] = undefined;
        const killStart = observer ? performance.now() : 0;
        await worker.kill(options.markers ?? []);
        // Replacing a child is start-up cost too: its kill here, its start on the lane's next job.
        if (observer) observer.step?.("worker-start", since(killStart), lane);
      }
      return outcome;
    });
    this.#queues[lane] = next.catch(() => undefined);
    return next.catch((error: unknown): JobOutcome => ({ status: "harness", detail: `lane ${lane} failed: ${error instanceof Error ? error.message : String(error)}` }));
  }

  env(lane: number): CaseEnvironment {
    return {
      paths: this.paths,
      root: this.root,
      relayModule: this.options.relayModule,
      timeoutMs: this.options.timeoutMs,
      keep: this.options.keep ?? false,
      slotCache: this.#slots,
      ...(this.options.observer ? { observer: onLane(this.options.observer, lane) } : {}),
      runJob: (job, options) => this.runJob(lane, job, options),
      contained: containment() === "pid-namespace",
      hostPidOf: (pid) => this.#workers[lane]?.hostPidOf(pid),
    };
  }

  /** Relay calls made so far (catalogue cases and property runs). */
  calls = 0;

  async runCase(def: CaseDef, profile: Profile, lane: number, signal?: AbortSignal): Promise<CaseRun> {
    if (signal?.aborted) return harnessFailure(def, profile, `not run: ${reasonOf(signal)}`);
    this.calls += 1;
    return runCase(def, profile, this.env(lane), signal);
  }

  /** Closes every child, then kills whatever still carries the run root (a relay's escaped grandchildren). */
  async closeAll(): Promise<void> {
    await Promise.all(this.#queues.map((q) => q.catch(() => undefined)));
    await Promise.all(this.#workers.map((w) => w?.close()));
    this.#workers.fill(undefined);
    await killTree({ markers: [this.root.dir] });
  }
}

let jobIds = 1_000_000_000;

/** A property's case run, or a HarnessError when the harness could not run it (a property must never fail on that). */
function harnessChecked(run: CaseRun): CaseRun {
  if (run.outcome.type === "harness-error") throw new HarnessError(`[${run.caseId}] ${run.outcome.detail}`);
  // A relay call that hit its bound fails the property run whatever it checks (no result to check); said so, it is
  // not shrunk through further hangs (clauses/byte-exactness.ts).
  if (run.outcome.type === "timeout") throw new HungFailure(outcomeCause(run.outcome));
  const escaped = escapedCause(run);
  if (escaped !== null) throw new ClauseFailure(escaped);
  return run;
}

/** A case whose relay left processes of its own running fails every clause that checks it (NO-ORPHANS's rule). */
function withEscapes(run: CaseRun, outcome: CheckOutcome): CheckOutcome {
  const escaped = escapedCause(run);
  if (escaped === null || outcome.status === "error") return outcome;
  return { status: "fail", message: outcome.status === "fail" ? `${escaped}; ${outcome.message}` : escaped };
}

/** The reason an aborted run gives. */
function reasonOf(signal: AbortSignal): string {
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason.message : String(reason);
}

/** Probes the module once: load errors and a missing entry export are bad input (RelayLoadError). */
async function probeModule(lanes: Lanes, calls: ProbeCheck["probe"][number][], signal?: AbortSignal): Promise<{ view: ProbeView; results: ProbeResult[] }> {
  const reply = await lanes.runJob(
    0,
    { id: 0, op: "probe", relayModule: lanes.options.relayModule, cwd: lanes.root.dir, processEnv: { PATH: lanes.root.binDir, TMPDIR: tmpdir() }, calls },
    { timeoutMs: Math.max(lanes.options.timeoutMs, LOAD_TIMEOUT_MS), ...(signal ? { signal } : {}) },
  );
  const cannot = `cannot load relay module ${lanes.options.relayModule}`;
  if (reply.status === "harness") throw new HarnessError(`${cannot}: ${reply.detail}`);
  if (reply.status === "timeout") throw new RelayLoadError(`${cannot}: loading timed out`);
  if (reply.status !== "reply")
    throw new RelayLoadError(`${cannot}: ${reply.status === "protocol" ? reply.detail : tail(reply.evidence.output).split("\n").slice(-3).join(" ")}`);
  const r = reply.reply;
  if (r.type === "load-error") throw new RelayLoadError(`${cannot}: ${r.message}`);
  if (r.type !== "probe") throw new HarnessError(`unexpected adapter reply ${r.type}`);
  if (r.exports.runReviewHostRelaySlot !== "function") {
    throw new RelayLoadError(`relay module ${lanes.options.relayModule} does not export a function named runReviewHostRelaySlot`);
  }
  return { view: { exports: r.exports, values: r.values, frozen: r.frozen }, results: r.calls };
}

/** A check's outcome: only a ClauseFailure is the relay's failure; anything else the check throws is the harness's. */
function outcomeOf(error: unknown): CheckOutcome {
  if (error instanceof SkipCheck) return { status: "skip", message: error.message };
  if (error instanceof ClauseFailure) return { status: "fail", message: error.message };
  if (error instanceof HarnessError) return { status: "error", message: `harness error: ${error.message}` };
  return { status: "error", message: `harness error: the check crashed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}` };
}

function evaluate(assert: () => void): CheckOutcome {
  try {
    assert();
    return { status: "pass", message: "" };
  } catch (error) {
    return outcomeOf(error);
  }
}

/** A relay failure decides; else a harness error; else all-skip is skip; else pass. */
function combine(outcomes: readonly CheckOutcome[]): CheckOutcome {
  const failed = outcomes.find((o) => o.status === "fail");
  if (failed) return failed;
  const errored = outcomes.find((o) => o.status === "error");
  if (errored) return errored;
  if (outcomes.length > 0 && outcomes.every((o) => o.status === "skip")) return outcomes[0] ?? { status: "skip", message: "" };
  return { status: "pass", message: "" };
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

async function runSelected(options: RunOptions): Promise<Report> {
  const started = Date.now();
  const startedAt = new Date(started).toISOString();
  const paths = harnessPaths();
  const root = createRunRoot(options.keep ?? false);
  options.onRunRoot?.(root.dir);
  // Room for the most wait lanes a run can get (prescribed-waits.ts); the plan decides how many it uses.
  const laneCount = options.concurrency + waitLaneCount(options.concurrency, Number.POSITIVE_INFINITY);
  const lanes = new Lanes(paths, root, options, laneCount);
  // The run's deadline: wall-clock, for the whole run (CI's bound), unlike the load-scaled per-case bounds.
  const deadline = new AbortController();
  const deadlineTimer =
    options.deadlineMs === undefined
      ? undefined
      : setTimeout(() => deadline.abort(new Error(`the run's deadline (${formatDuration(options.deadlineMs ?? 0)}) passed`)), options.deadlineMs);
  const signal = deadline.signal;
  // Each lane's job in flight listens for the deadline (process/relay-host.ts). With wait lanes a run has up to three
  // times --concurrency lanes: past Node's default of 10 listeners, which Node reports on stderr as a leak.
  setMaxListeners(laneCount + 10, signal);
  try {
    const observer = options.observer;
    const probeStart = observer ? performance.now() : 0;
    // Plan: unique (case, profile) runs and property runs (plan-runs.ts); each clause/profile awaits the ones it needs.
    // options.clauses is already this shard's selection (options.shard only labels the report): no shard here.
    const plan = planRuns({ clauses: options.clauses, profiles: options.profiles, runs: options.runs, seed: options.seed });
    const probeChecks = plan.probeChecks;
    // The lanes that will have work start their children now, alongside lane 0's probe (a task per planned run).
    // Cases that wait out a prescribed time go on wait lanes beside the CPU lanes, when the run has enough of them:
    // they hold a host, not a core. Wait lanes start their children on demand.
    const waitingRuns = plan.caseRuns.filter((run) => prescribesWait(run.def, run.profile));
    const waitLanes = waitLaneCount(options.concurrency, waitingRuns.length);
    const waiting = new Set(waitLanes === 0 ? [] : waitingRuns.map((run) => run.key));
    const tasksPlanned = plan.caseRuns.length - waiting.size + plan.propertyRuns.length;
    for (let lane = 1; lane < Math.min(options.concurrency, tasksPlanned); lane += 1) lanes.warm(lane, signal);
    const probe = await probeModule(
      lanes,
      probeChecks.flatMap((c) => [...c.probe]),
      signal,
    );
    if (observer) observer.phase?.("probe", since(probeStart));
    options.onStart?.();

    const caseRuns = new Map(
      plan.caseRuns.map((run) => [run.key, { ...run } as { def: CaseDef; profile: Profile; result?: Promise<CaseRun>; resolve?: (r: CaseRun) => void }]),
    );
    const propertyRuns = plan.propertyRuns;
    for (const entry of caseRuns.values()) entry.result = new Promise<CaseRun>((res) => (entry.resolve = res));
    const propertyResults = new Map<string, Promise<CheckOutcome>>();
    const propertyResolvers = new Map<string, (o: CheckOutcome) => void>();
    for (const run of propertyRuns) propertyResults.set(run.key, new Promise((res) => propertyResolvers.set(run.key, res)));

    // Clause evaluation hangs off the promises so results stream out as soon as their cases finish.
    let probeIndex = 0;
    const probeSlices = new Map<ProbeCheck, ProbeResult[]>();
    for (const check of probeChecks) {
      probeSlices.set(check, probe.results.slice(probeIndex, probeIndex + check.probe.length));
      probeIndex += check.probe.length;
    }
    const clauseResults = options.clauses.map(async (clause): Promise<ClauseResult> => {
      const applicable = options.profiles.filter((p) => clause.profiles.includes(p));
      const profiles: ProfileResult[] = await Promise.all(
        applicable.map(async (profile): Promise<ProfileResult> => {
          const outcomes: CheckOutcome[] = [];
          for (const check of clause.checks) {
            if (isProbe(check)) outcomes.push(evaluate(() => check.verify(probe.view, probeSlices.get(check) ?? [])));
            else if (isProperty(check))
              outcomes.push(
                await (propertyResults.get(propertyRunKey(clause.id, check.property.id, profile)) ??
                  Promise.resolve({ status: "skip" as const, message: "property not run" })),
              );
            else {
              const p = caseProfile(check.case, clause, profile, options.profiles);
              if (p === null) {
                outcomes.push({ status: "skip", message: `case ${check.case.id} does not apply to ${profile}` });
                continue;
              }
              const run = await caseRuns.get(caseRunKey(check.case.id, p))?.result;
              if (!run) throw new Error(`unplanned case ${check.case.id}@${p}`);
              const o =
                run.outcome.type === "harness-error"
                  ? { status: "error" as const, message: `harness error: ${run.outcome.detail}` }
                  : withEscapes(
                      run,
                      evaluate(() => check.assert(run)),
                    );
              outcomes.push(
                o.status === "fail"
                  ? { ...o, message: `[${check.case.id}] ${withCause(run, o.message)}` }
                  : o.status === "error"
                    ? { ...o, message: `[${check.case.id}] ${o.message}` }
                    : o,
              );
            }
          }
          const combined = combine(outcomes);
          return { profile, status: combined.status, message: combined.message };
        }),
      );
      const result = clauseResult(clause, profiles);
      options.onClause?.(result);
      return result;
    });

    const total = caseRuns.size + propertyRuns.length;
    options.onPlan?.(total);
    let done = 0;
    type CaseEntry = typeof caseRuns extends Map<string, infer E> ? E : never;
    const caseTask =
      (entry: CaseEntry) =>
      async (lane: number): Promise<void> => {
        const taskStart = observer ? performance.now() : 0;
        const run = await lanes
          .runCase(entry.def, entry.profile, lane, signal)
          .catch((error: unknown): CaseRun =>
            harnessFailure(entry.def, entry.profile, `the case crashed the harness: ${error instanceof Error ? error.message : String(error)}`),
          );
        entry.resolve?.(run);
        if (observer) observer.task?.("case", since(taskStart), lane);
        done += 1;
        options.onCase?.(entry.def.id, entry.profile, done, total);
      };
    const waitCases = [...caseRuns].filter(([key]) => waiting.has(key)).map(([, entry]) => entry);
    const cpuCases = [...caseRuns].filter(([key]) => !waiting.has(key)).map(([, entry]) => entry);
    const tasks: ((lane: number) => Promise<void>)[] = [
      ...propertyRuns.map((run) => async (lane: number) => {
        const taskStart = observer ? performance.now() : 0;
        const runner: PropertyRunner = {
          profile: run.profile,
          runs: run.runs,
          seed: run.seed,
          runCase: async (def) => harnessChecked(await lanes.runCase(def, run.profile, lane, signal)),
          saveCounterexample: (data) =>
            saveCounterexample(options.counterexampleDir, `${run.key}.${basename(root.dir).replace(/^relay-conformance-/, "")}`, {
              schema: COUNTEREXAMPLE_SCHEMA_ID,
              clause: run.clause,
              profile: run.profile,
              relay: options.relayModule,
              ...data,
            }),
        };
        let outcome: CheckOutcome;
        try {
          await run.check.property.run(runner);
          outcome = { status: "pass", message: "" };
        } catch (error) {
          outcome = outcomeOf(error);
        }
        propertyResolvers.get(run.key)?.(outcome);
        if (observer) observer.task?.("property", since(taskStart), lane);
        done += 1;
        options.onCase?.(run.key, run.profile, done, total);
      }),
      ...cpuCases.map(caseTask),
    ];
    await Promise.all([runPool(tasks, options.concurrency), runPool(waitCases.map(caseTask), waitLanes, options.concurrency)]);
    const clauses = await Promise.all(clauseResults);
    const summary = {
      passed: clauses.filter((c) => c.status === "pass").length,
      failed: clauses.filter((c) => c.status === "fail").length,
      skipped: clauses.filter((c) => c.status === "skip").length,
      errored: clauses.filter((c) => c.status === "error").length,
    };
    return {
      schema: REPORT_SCHEMA_ID,
      relay: options.relayModule,
      profiles: [...options.profiles],
      seed: options.seed,
      runs: options.runs,
      startedAt,
      durationMs: Date.now() - started,
      cases: lanes.calls,
      ...(options.catalogue === undefined ? {} : { catalogue: options.catalogue }),
      ...(options.shard === undefined ? {} : { shard: { ...options.shard } }),
      summary,
      clauses,
    };
  } finally {
    clearTimeout(deadlineTimer);
    const closeStart = options.observer ? performance.now() : 0;
    await lanes.closeAll();
    if (options.observer) options.observer.phase?.("close", since(closeStart));
    if (!options.keep) root.remove();
  }
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

/** Puts a timeout or crash of the relay in front of a failure it probably caused. */
function withCause(run: CaseRun, message: string): string {
  const o = run.outcome;
  const cause = o.type === "timeout" || o.type === "crashed" ? outcomeCause(o) : null;
  return cause === null || message.startsWith(cause) ? message : `${cause}; ${message}`;
}

function clauseResult(clause: Clause, profiles: ProfileResult[]): ClauseResult {
  const base = { id: clause.id, statement: clause.statement, source: clause.source, profiles };
  if (profiles.length === 0) return { ...base, status: "skip", message: `applies only to ${clause.profiles.join(", ")}` };
  const failed = profiles.find((p) => p.status === "fail");
  if (failed) return { ...base, status: "fail", message: `${failed.profile}: ${failed.message}` };
  const errored = profiles.find((p) => p.status === "error");
  if (errored) return { ...base, status: "error", message: `${errored.profile}: ${errored.message}` };
  if (profiles.every((p) => p.status === "skip")) return { ...base, status: "skip", message: profiles[0]?.message ?? "" };
  return { ...base, status: "pass", message: "" };
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
