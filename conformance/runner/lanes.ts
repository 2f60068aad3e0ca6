// The run's lanes: one relay host each, started on demand and replaced after a job that did not end cleanly.
import { tmpdir } from "node:os";
import type { Profile } from "../../simulator/scenario/schema.ts";
import type { CaseDef, CaseRun } from "../clauses/types.ts";
import type { HarnessPaths } from "../paths.ts";
import { containment } from "../process/containment.ts";
import { tail, type JobOptions, type JobOutcome } from "../process/job-outcome.ts";
import { killTree } from "../process/process-tree.ts";
import type { AdapterJob } from "../process/protocol.ts";
import { RelayHost } from "../process/relay-host.ts";
import type { AcquiredSlot } from "./acquire-slot.ts";
import { harnessFailure, runCase, type CaseEnvironment } from "./run-case.ts";
import { onLane, since, type RunObserver } from "./run-observer.ts";
import type { RunRoot } from "./sandbox.ts";

/** What the lanes take from a run's options. */
export interface LaneOptions {
  readonly relayModule: string;
  readonly timeoutMs: number;
  /** A fresh adapter child per case instead of one per lane. */
  readonly isolate?: boolean;
  readonly keep?: boolean;
  readonly observer?: RunObserver;
}

let jobIds = 1_000_000_000;

/** Start-up bound for a fresh adapter child (node, jiti, the relay module): at least this, or the case bound. */
export const LOAD_TIMEOUT_MS = 30_000;

/**
 * The lanes' adapter children. A lane runs one job at a time (a job waits for the lane's previous one), starts its
 * child on demand with a `load` job in the child's own neutral environment, and replaces the child, killing its
 * whole tree and the case's marked processes, whenever a job did not end with a clean reply: a timeout, a death, a
 * broken channel, a harness fault, or a reply that says the relay left handles or timers running.
 */
export class Lanes {
  readonly #workers: (RelayHost | undefined)[];
  readonly #queues: Promise<unknown>[];
  readonly #slots = new Map<string, Promise<AcquiredSlot>>();
  constructor(
    readonly paths: HarnessPaths,
    readonly root: RunRoot,
    readonly options: LaneOptions,
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
      {
        id: jobIds,
        op: "load",
        relayModule: this.options.relayModule,
        cwd: this.root.dir,
        processEnv: this.#neutralEnv(),
      },
      {
        timeoutMs: Math.max(this.options.timeoutMs, LOAD_TIMEOUT_MS),
        ...(options.signal ? { signal: options.signal } : {}),
      },
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
      return {
        status: "harness",
        detail: `the adapter child did not load the relay module within ${loaded.timeoutMs}ms: ${tail(loaded.evidence.output)}`,
      };
    return loaded;
  }

  /**
   * Starts the lane's child ahead of its first job, so lanes other than 0 load the relay module while lane 0 probes
   * it; a start that fails is retried by the lane's first job, which reports it.
   */
  warm(lane: number, signal?: AbortSignal): void {
    const previous = this.#queues[lane] ?? Promise.resolve();
    this.#queues[lane] = previous
      .then(() => this.#ready(lane, { timeoutMs: LOAD_TIMEOUT_MS, ...(signal ? { signal } : {}) }, true))
      .catch(() => undefined);
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
      const leftovers =
        outcome.status === "reply" && "leftovers" in outcome.reply ? (outcome.reply.leftovers ?? []) : [];
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
    return next.catch((error: unknown): JobOutcome => ({
      status: "harness",
      detail: `lane ${lane} failed: ${error instanceof Error ? error.message : String(error)}`,
    }));
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

/** The reason an aborted run gives. */
export function reasonOf(signal: AbortSignal): string {
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason.message : String(reason);
}
