import { mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { Profile } from "../../simulator/scenario/schema.ts";
import {
  ClauseFailure,
  SkipCheck,
  type CaseCheck,
  type CaseDef,
  type CaseRun,
  type Clause,
  type ClauseCheck,
  type ProbeCheck,
  type ProbeView,
  type PropertyCheck,
  type PropertyRunner,
} from "../clauses/types.ts";
import { harnessPaths, type HarnessPaths } from "../paths.ts";
import type { ClauseResult, ClauseStatus, ProfileResult, Report } from "../report/report-schema.ts";
import { AdapterWorker } from "./adapter-worker.ts";
import { COUNTEREXAMPLE_SCHEMA_ID } from "../properties/counterexample-schema.ts";
import type { ProbeResult } from "./protocol.ts";
import { runCase, type CaseEnvironment } from "./run-case.ts";
import { runPool } from "./pool.ts";
import { createRunRoot, type RunRoot } from "./sandbox.ts";
import { trackProcessGroup, trackTempDir } from "./teardown.ts";
import { startWarmSimulator, type WarmSimulator } from "../../simulator/warm/start.ts";

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
  /** Serve the simulated gentle-ai and pi from a warm simulator (simulator/warm/) instead of a process per call. */
  readonly warm?: boolean;
  /** Called once the module loaded and exports runReviewHostRelaySlot, before any case runs. */
  onStart?(): void;
  /** Called with the run's temp root as soon as it exists (with `keep`, it is left behind, even on interruption). */
  onRunRoot?(dir: string): void;
  onClause?(result: ClauseResult): void;
  onCase?(caseId: string, profile: Profile, done: number, total: number): void;
}

/** The relay module cannot be used at all: bad input, exit 2. */
export class RelayLoadError extends Error {
  override readonly name = "RelayLoadError";
}

type CheckOutcome = { status: ClauseStatus; message: string };

const isCase = (c: ClauseCheck): c is CaseCheck => "case" in c;
const isProbe = (c: ClauseCheck): c is ProbeCheck => "probe" in c;
const isProperty = (c: ClauseCheck): c is PropertyCheck => "property" in c;

/** The lanes' adapter children and the per-lane CaseEnvironment. */
class Lanes {
  readonly #workers: (AdapterWorker | undefined)[];
  readonly #slots = new Map<string, Promise<import("./acquire-slot.ts").AcquiredSlot>>();
  constructor(
    readonly paths: HarnessPaths,
    readonly root: RunRoot,
    readonly options: Pick<RunOptions, "relayModule" | "timeoutMs" | "isolate" | "keep">,
    count: number,
  ) {
    this.#workers = new Array<AdapterWorker | undefined>(count).fill(undefined);
  }

  worker(lane: number): AdapterWorker {
    let w = this.#workers[lane];
    if (!w || !w.alive) {
      // The child's own TMPDIR stays the harness's so tsx's compile cache is shared; jobs switch to the case TMPDIR.
      w = new AdapterWorker({
        tsxLoader: this.paths.tsxLoader,
        adapterChild: this.paths.adapterChild,
        cwd: this.root.dir,
        env: { PATH: this.root.binDir, TMPDIR: tmpdir(), HOME: process.env.HOME ?? this.root.dir },
      });
      this.#workers[lane] = w;
    }
    return w;
  }

  async drop(lane: number): Promise<void> {
    const w = this.#workers[lane];
    this.#workers[lane] = undefined;
    await w?.kill();
  }

  env(lane: number): CaseEnvironment {
    return {
      paths: this.paths,
      root: this.root,
      relayModule: this.options.relayModule,
      timeoutMs: this.options.timeoutMs,
      keep: this.options.keep ?? false,
      slotCache: this.#slots,
      worker: () => this.worker(lane),
      dropWorker: () => this.drop(lane),
    };
  }

  /** Relay calls made so far (catalogue cases and property runs). */
  calls = 0;

  async runCase(def: CaseDef, profile: Profile, lane: number): Promise<CaseRun> {
    this.calls += 1;
    try {
      return await runCase(def, profile, this.env(lane));
    } finally {
      if (this.options.isolate) await this.drop(lane);
    }
  }

  async closeAll(): Promise<void> {
    await Promise.all(this.#workers.map((w) => w?.close()));
  }
}

/** Probes the module once: load errors and a missing entry export are bad input (RelayLoadError). */
async function probeModule(lanes: Lanes, calls: ProbeCheck["probe"][number][]): Promise<{ view: ProbeView; results: ProbeResult[] }> {
  const reply = await lanes.worker(0).run(
    { id: 0, op: "probe", relayModule: lanes.options.relayModule, cwd: lanes.root.dir, processEnv: { PATH: lanes.root.binDir, TMPDIR: tmpdir() }, calls },
    Math.max(lanes.options.timeoutMs, 30_000),
  );
  if (reply.status !== "reply") {
    await lanes.drop(0);
    throw new RelayLoadError(`cannot load relay module ${lanes.options.relayModule}: ${reply.status === "timeout" ? "loading timed out" : reply.output.trim().split("\n").slice(-3).join(" ")}`);
  }
  const r = reply.reply;
  if (r.type === "load-error") throw new RelayLoadError(`cannot load relay module ${lanes.options.relayModule}: ${r.message}`);
  if (r.type !== "probe") throw new RelayLoadError(`unexpected adapter reply ${r.type}`);
  if (r.exports.runReviewHostRelaySlot !== "function") {
    throw new RelayLoadError(`relay module ${lanes.options.relayModule} does not export a function named runReviewHostRelaySlot`);
  }
  return { view: { exports: r.exports, values: r.values, frozen: r.frozen }, results: r.calls };
}

function evaluate(assert: () => void): CheckOutcome {
  try {
    assert();
    return { status: "pass", message: "" };
  } catch (error) {
    if (error instanceof SkipCheck) return { status: "skip", message: error.message };
    if (error instanceof ClauseFailure) return { status: "fail", message: error.message };
    return { status: "fail", message: `assertion crashed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}` };
  }
}

function combine(outcomes: readonly CheckOutcome[]): CheckOutcome {
  const failed = outcomes.find((o) => o.status === "fail");
  if (failed) return failed;
  if (outcomes.length > 0 && outcomes.every((o) => o.status === "skip")) return outcomes[0] ?? { status: "skip", message: "" };
  return { status: "pass", message: "" };
}

/** Picks the profile a case runs on for a clause profile; null when the case does not apply there. */
function caseProfile(def: CaseDef, clause: Clause, profile: Profile, selected: readonly Profile[]): Profile | null {
  const allowed = def.profiles ?? clause.profiles;
  if (!def.agnostic) return allowed.includes(profile) ? profile : null;
  return selected.find((p) => allowed.includes(p)) ?? null;
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
      runCase: (def) => lanes.runCase(def, options.profile, 0),
      saveCounterexample: () => "",
    });
  } finally {
    await lanes.closeAll();
    root.remove();
  }
}

/** Runs every selected clause on every selected profile it applies to; cases shared by clauses run once. */
export async function runCatalogue(options: RunOptions): Promise<Report> {
  const started = Date.now();
  const startedAt = new Date(started).toISOString();
  const paths = harnessPaths();
  const warm = options.warm ? await startTrackedWarmSimulator() : null;
  const root = createRunRoot(options.keep ?? false, warm?.env ?? {});
  options.onRunRoot?.(root.dir);
  const lanes = new Lanes(paths, root, options, options.concurrency);
  try {
    const probeChecks = options.clauses.flatMap((c) => c.checks.filter(isProbe));
    const probe = await probeModule(lanes, probeChecks.flatMap((c) => [...c.probe]));
    options.onStart?.();

    // Plan: unique (case, profile) runs and property runs; each clause/profile awaits the ones it needs.
    const caseRuns = new Map<string, { def: CaseDef; profile: Profile; result?: Promise<CaseRun>; resolve?: (r: CaseRun) => void }>();
    const propertyRuns: { key: string; clause: string; check: PropertyCheck; profile: Profile }[] = [];
    for (const clause of options.clauses) {
      for (const profile of options.profiles.filter((p) => clause.profiles.includes(p))) {
        for (const check of clause.checks) {
          if (isCase(check)) {
            const p = caseProfile(check.case, clause, profile, options.profiles);
            if (p === null) continue;
            const key = `${check.case.id}@${p}`;
            if (!caseRuns.has(key)) caseRuns.set(key, { def: check.case, profile: p });
          } else if (isProperty(check)) {
            propertyRuns.push({ key: `${clause.id}/${check.property.id}@${profile}`, clause: clause.id, check, profile });
          }
        }
      }
    }
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
            else if (isProperty(check)) outcomes.push(await (propertyResults.get(`${clause.id}/${check.property.id}@${profile}`) ?? Promise.resolve({ status: "skip" as const, message: "property not run" })));
            else {
              const p = caseProfile(check.case, clause, profile, options.profiles);
              if (p === null) {
                outcomes.push({ status: "skip", message: `case ${check.case.id} does not apply to ${profile}` });
                continue;
              }
              const run = await caseRuns.get(`${check.case.id}@${p}`)?.result;
              if (!run) throw new Error(`unplanned case ${check.case.id}@${p}`);
              const setupError = run.observations.setupError;
              const o = typeof setupError === "string" ? { status: "fail" as const, message: setupError } : evaluate(() => check.assert(run));
              outcomes.push(o.status === "fail" ? { ...o, message: `[${check.case.id}] ${withCause(run, o.message)}` } : o);
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
    let done = 0;
    const tasks: ((lane: number) => Promise<void>)[] = [
      ...propertyRuns.map((run) => async (lane: number) => {
        const runner: PropertyRunner = {
          profile: run.profile,
          runs: options.runs,
          seed: options.seed,
          runCase: (def) => lanes.runCase(def, run.profile, lane),
          saveCounterexample: (data) =>
            saveCounterexample(options.counterexampleDir, run.key, {
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
          outcome = error instanceof SkipCheck ? { status: "skip", message: error.message } : { status: "fail", message: error instanceof Error ? error.message : String(error) };
        }
        propertyResolvers.get(run.key)?.(outcome);
        done += 1;
        options.onCase?.(run.key, run.profile, done, total);
      }),
      ...[...caseRuns.values()].map((entry) => async (lane: number) => {
        const run = await lanes.runCase(entry.def, entry.profile, lane).catch((error: unknown): CaseRun => setupFailure(entry.def, entry.profile, error));
        entry.resolve?.(run);
        done += 1;
        options.onCase?.(entry.def.id, entry.profile, done, total);
      }),
    ];
    await runPool(tasks, options.concurrency);
    const clauses = await Promise.all(clauseResults);
    const summary = {
      passed: clauses.filter((c) => c.status === "pass").length,
      failed: clauses.filter((c) => c.status === "fail").length,
      skipped: clauses.filter((c) => c.status === "skip").length,
    };
    return {
      schema: "gentle-relay-conformance.report/v1",
      relay: options.relayModule,
      profiles: [...options.profiles],
      seed: options.seed,
      runs: options.runs,
      startedAt,
      durationMs: Date.now() - started,
      simulator: warm ? "warm" : "process",
      cases: lanes.calls,
      summary,
      clauses,
    };
  } finally {
    await lanes.closeAll();
    await warm?.stop();
    if (!options.keep) root.remove();
  }
}

/** A warm simulator that an interrupted command kills and removes too (runner/teardown.ts). */
async function startTrackedWarmSimulator(): Promise<WarmSimulator> {
  const warm = await startWarmSimulator();
  const untrackGroup = trackProcessGroup(warm.pid);
  const untrackDir = trackTempDir(warm.dir);
  return {
    ...warm,
    stop: async () => {
      await warm.stop();
      untrackGroup();
      untrackDir();
    },
  };
}

/** Puts a timeout or crash of the relay in front of a failure it probably caused. */
function withCause(run: CaseRun, message: string): string {
  const o = run.outcome;
  const cause = o.type === "timeout" ? `relay did not settle within ${o.timeoutMs}ms (process tree killed)` : o.type === "crashed" ? `relay process died: ${o.detail}` : null;
  return cause === null || message.startsWith(cause) ? message : `${cause}; ${message}`;
}

function clauseResult(clause: Clause, profiles: ProfileResult[]): ClauseResult {
  const base = { id: clause.id, statement: clause.statement, source: clause.source, profiles };
  if (profiles.length === 0) return { ...base, status: "skip", message: `applies only to ${clause.profiles.join(", ")}` };
  const failed = profiles.find((p) => p.status === "fail");
  if (failed) return { ...base, status: "fail", message: `${failed.profile}: ${failed.message}` };
  if (profiles.every((p) => p.status === "skip")) return { ...base, status: "skip", message: profiles[0]?.message ?? "" };
  return { ...base, status: "pass", message: "" };
}

/** A case whose setup (scenario, STATUS) failed: every check on it fails with the setup error. */
function setupFailure(def: CaseDef, profile: Profile, error: unknown): CaseRun {
  const detail = `case setup failed: ${error instanceof Error ? error.message : String(error)}`;
  return {
    caseId: def.id,
    profile,
    slot: { captureArgumentTokens: [] },
    request: { captureArgumentTokens: [] },
    outcome: { type: "crashed", detail },
    transcript: [],
    leftovers: [],
    survivors: [],
    tmp: "",
    repo: "",
    env: {},
    observations: { setupError: detail },
  };
}

function saveCounterexample(dir: string, key: string, data: unknown): string {
  mkdirSync(dir, { recursive: true });
  const file = resolve(join(dir, `${key.replace(/[^A-Za-z0-9.@-]+/g, "_")}.json`));
  writeFileSync(file, `${JSON.stringify(data, null, 2)}\n`);
  return file;
}
