// One mutation lane: a relay host with the instrumented relay loaded, taking one job at a time with the active
// mutant of the trial it serves. A host is replaced as the catalogue's lanes replace theirs (a job that did not end
// with a clean reply), and whenever the trial needs the module loaded under another mutant (a static mutant, one
// that runs while the module loads, is only active in a host that loaded with it).
import { tmpdir } from "node:os";
import type { HarnessPaths } from "../paths.ts";
import type { JobOptions, JobOutcome } from "../process/job-outcome.ts";
import { RelayHost } from "../process/relay-host.ts";
import type { AdapterJob, AdapterReply } from "../process/protocol.ts";
import type { RunRoot } from "../runner/sandbox.ts";

const LOAD_TIMEOUT_MS = 30_000;
let jobIds = 2_000_000_000;

/** Which mutant a job runs under, and the test id its coverage counts for. */
export interface Switch {
  /** null: no mutant (the coverage run). */
  readonly active: string | null;
  readonly testId: string;
  /** Load the module with the mutant active (a static mutant). */
  readonly atLoad: boolean;
}

/** The mutants a coverage job executed, from its reply. */
export type Covered = NonNullable<Extract<AdapterReply, { type: "result" }>["covered"]>;

export class MutantLane {
  #host: RelayHost | undefined;
  #loadedWith: string | null = null;
  #queue: Promise<unknown> = Promise.resolve();
  #pending = 0;

  constructor(
    readonly paths: HarnessPaths,
    readonly root: RunRoot,
    readonly relayModule: string,
  ) {}

  #neutralEnv(): Record<string, string> {
    return { PATH: this.root.binDir, TMPDIR: tmpdir(), HOME: process.env.HOME ?? this.root.dir };
  }

  async #ready(loadWith: string | null, options: JobOptions): Promise<RelayHost | JobOutcome> {
    const current = this.#host;
    if (current?.usable && this.#loadedWith === loadWith) return current;
    this.#host = undefined;
    await current?.kill();
    const host = new RelayHost({
      tsxLoader: this.paths.tsxLoader,
      adapterChild: this.paths.adapterChild,
      cwd: this.root.dir,
      env: this.#neutralEnv(),
      contain: true,
    });
    jobIds += 1;
    const loaded = await host.run(
      {
        id: jobIds,
        op: "load",
        relayModule: this.relayModule,
        cwd: this.root.dir,
        processEnv: this.#neutralEnv(),
        mutant: { active: loadWith, testId: "load" },
      },
      {
        timeoutMs: Math.max(options.timeoutMs, LOAD_TIMEOUT_MS),
        ...(options.signal ? { signal: options.signal } : {}),
      },
    );
    if (loaded.status === "reply" && loaded.reply.type === "loaded") {
      this.#host = host;
      this.#loadedWith = loadWith;
      return host;
    }
    await host.kill();
    if (loaded.status === "timeout")
      return {
        status: "harness",
        detail: `the adapter child did not load the instrumented relay within ${loaded.timeoutMs}ms`,
      };
    if (loaded.status === "reply" && loaded.reply.type === "load-error")
      return { status: "harness", detail: `the instrumented relay failed to load: ${loaded.reply.message}` };
    return loaded.status === "reply"
      ? { status: "harness", detail: `unexpected reply ${loaded.reply.type} to a load` }
      : loaded;
  }

  /** Jobs queued or running: how busy the lane is. */
  get pending(): number {
    return this.#pending;
  }

  /** Runs one job under the switch; never rejects. */
  runJob(job: AdapterJob, options: JobOptions, on: Switch): Promise<JobOutcome> {
    this.#pending += 1;
    const next = this.#queue.then(async (): Promise<JobOutcome> => {
      const host = await this.#ready(on.atLoad ? on.active : null, options);
      if (!(host instanceof RelayHost)) return host;
      const outcome = await host.run(
        { ...job, relayModule: this.relayModule, mutant: { active: on.active, testId: on.testId } },
        options,
      );
      const leftovers =
        outcome.status === "reply" && "leftovers" in outcome.reply ? (outcome.reply.leftovers ?? []) : [];
      if (outcome.status !== "reply" || leftovers.length > 0) {
        this.#host = undefined;
        await host.kill(options.markers ?? []);
      }
      return outcome;
    });
    this.#queue = next.catch(() => undefined).finally(() => (this.#pending -= 1));
    return next.catch((error: unknown): JobOutcome => ({
      status: "harness",
      detail: `mutation lane failed: ${error instanceof Error ? error.message : String(error)}`,
    }));
  }

  /**
   * Our pid of a process of the lane's host (a contained host's jobs report its namespace's pids); undefined once gone.
   */
  hostPidOf(pid: number): number | undefined {
    return this.#host?.hostPidOf(pid);
  }

  /** Drops a host loaded under a static mutant, so no later trial sees that module. */
  async release(): Promise<void> {
    if (this.#loadedWith === null) return;
    const host = this.#host;
    this.#host = undefined;
    this.#loadedWith = null;
    await host?.kill();
  }

  async close(): Promise<void> {
    await this.#queue.catch(() => undefined);
    await this.#host?.close();
    this.#host = undefined;
  }
}

/** The coverage a job reported, if any. */
export function coveredOf(outcome: JobOutcome): Covered | undefined {
  if (outcome.status !== "reply") return undefined;
  const r = outcome.reply;
  return r.type === "result" || r.type === "error" || r.type === "probe" ? r.covered : undefined;
}
