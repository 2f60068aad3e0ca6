import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Profile } from "../../simulator/scenario/schema.ts";
import { FIXED_SLOT } from "../clauses/common.ts";
import type {
  CaseContext,
  CaseDef,
  CaseRun,
  CaseSandbox,
  DuringPlan,
  RelayOutcome,
  RequestContext,
} from "../clauses/types.ts";
import type { HarnessPaths } from "../paths.ts";
import { acquireSlot, type AcquiredSlot } from "./acquire-slot.ts";
import { tail, type JobOptions, type JobOutcome } from "../process/job-outcome.ts";
import type { AdapterJob, WireRelayRequest } from "../process/protocol.ts";
import { createCaseSandbox, type RunRoot } from "./sandbox.ts";
import { readTranscript, type TranscriptEntry } from "../clauses/transcript.ts";
import { hangWatch } from "./hang-watch.ts";
import { since, type RunObserver } from "./run-observer.ts";

/** What a case needs from the run. */
export interface CaseEnvironment {
  readonly paths: HarnessPaths;
  readonly root: RunRoot;
  readonly relayModule: string;
  readonly timeoutMs: number;
  /** Runs one job on this lane's adapter child (started, or replaced after a bad ending, as needed). Never rejects. */
  runJob(job: AdapterJob, options: JobOptions): Promise<JobOutcome>;
  readonly keep?: boolean;
  /** STATUS answers shared by cases with the same lineage (STATUS is read-only and identities are seeded). */
  readonly slotCache?: Map<string, Promise<AcquiredSlot>>;
  /** Timing and counting hooks (bench); absent, nothing is measured. */
  readonly observer?: RunObserver;
  /** True when the lane's host runs in a PID namespace of its own: transcript pids are that namespace's. */
  readonly contained?: boolean;
  /** Our pid of a process of the lane's host (a transcript pid); undefined once gone. */
  hostPidOf?(pid: number): number | undefined;
}

let jobIds = 0;
/** Set to 1, every relay call waits out its bound (no hang watch): how a patient run decides. */
export const PATIENT_ENV = "RELAY_CONFORMANCE_PATIENT";

/** The environment every simulated process gets: a node-only PATH and the case's folders and simulator files. */
export function simEnvironment(root: RunRoot, sandbox: CaseSandbox): Record<string, string> {
  return {
    PATH: root.binDir,
    HOME: sandbox.home,
    TMPDIR: sandbox.tmp,
    LANG: "C.UTF-8",
    GENTLE_AI_SIM_SCENARIO: sandbox.scenarioFile,
    GENTLE_AI_SIM_STATE: sandbox.state,
    GENTLE_AI_SIM_TRANSCRIPT: sandbox.transcript,
  };
}

/** A case the harness could not run: its outcome says so and no clause may read it as the relay's. */
export function harnessFailure(
  def: CaseDef,
  profile: Profile,
  detail: string,
  where: Partial<Pick<CaseRun, "tmp" | "repo" | "relayCwd">> = {},
): CaseRun {
  return {
    caseId: def.id,
    profile,
    slot: { captureArgumentTokens: [] },
    request: { captureArgumentTokens: [] },
    outcome: { type: "harness-error", detail },
    transcript: [],
    leftovers: [],
    handles: [],
    survivors: [],
    escaped: [],
    tmp: where.tmp ?? "",
    repo: where.repo ?? "",
    relayCwd: where.relayCwd ?? "",
    env: {},
    observations: {},
  };
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** Everything before the relay call: the STATUS slot, the request context and the request. */
interface Prepared {
  readonly acquired: AcquiredSlot;
  readonly rctx: RequestContext;
  readonly request: WireRelayRequest;
}

/**
 * Runs one case on one profile: fresh sandbox, scenario, STATUS slot, relay call in the adapter child, evidence.
 * Never rejects: whatever fails on the harness's side (setup, STATUS, `before`, the adapter, reading the evidence)
 * becomes a `harness-error` outcome for this case alone.
 */
export async function runCase(
  def: CaseDef,
  profile: Profile,
  env: CaseEnvironment,
  signal?: AbortSignal,
): Promise<CaseRun> {
  const setupStart = env.observer ? performance.now() : 0;
  let sandbox: CaseSandbox;
  try {
    sandbox = createCaseSandbox(env.root, `${def.id}@${profile}`);
  } catch (error) {
    return harnessFailure(def, profile, `case setup failed: ${messageOf(error)}`);
  }
  env.observer?.step?.("sandbox", since(setupStart));
  const ctx = caseContext(def, profile, env, sandbox);
  const where = { tmp: sandbox.tmp, repo: sandbox.repo, relayCwd: ctx.relayCwd };
  let during: DuringAction | undefined;
  try {
    let prepared: Prepared;
    try {
      prepared = await prepare(def, profile, env, ctx);
    } catch (error) {
      return harnessFailure(def, profile, `case setup failed: ${messageOf(error)}`, where);
    }
    const observations: Record<string, unknown> = {};
    during = new DuringAction(def.during?.(prepared.rctx), sandbox.tmp, observations, (pid) =>
      killQuietly(env.hostPidOf?.(pid) ?? (env.contained ? -1 : pid)),
    );
    const relayStart = env.observer ? performance.now() : 0;
    const reply = await env.runJob(relayJob(def, env, ctx, prepared), jobOptions(def, env, sandbox, during, signal));
    const evidenceStart = env.observer ? performance.now() : 0;
    await during.settle();
    const evidence = readEvidence(sandbox);
    if ("error" in evidence)
      return harnessFailure(def, profile, `the case's evidence could not be read: ${evidence.error}`, where);
    const { transcript, leftovers } = evidence;
    const running = leftRunning(reply, transcript, env.contained === true);
    if (env.observer) observeCase(env.observer, def, profile, sandbox, transcript, { relayStart, evidenceStart });
    const { slot } = prepared.acquired;
    // The timers and listeners the relay left armed after it settled (SETTLES-CLEAN).
    const handles = reply.status === "reply" && "leftovers" in reply.reply ? (reply.reply.leftovers ?? []) : [];
    return {
      caseId: def.id,
      profile,
      slot,
      request: prepared.request,
      outcome: toOutcome(reply),
      transcript,
      leftovers,
      handles,
      ...running,
      ...where,
      env: ctx.env,
      observations,
    };
  } finally {
    // However the case ended, nothing of it keeps running: the watcher's interval would keep the process alive.
    await during?.end();
    if (!env.keep) {
      try {
        sandbox.remove();
      } catch {
        // The run root goes at the end; a folder a relay made unremovable must not turn into a verdict here.
      }
    }
  }
}

/** What the case's hooks see: the profile, the sandbox, the simulators, their environment and the relay's cwd. */
function caseContext(def: CaseDef, profile: Profile, env: CaseEnvironment, sandbox: CaseSandbox): CaseContext {
  return {
    profile,
    sandbox,
    gentleAi: env.paths.gentleAiSimulator,
    pi: env.paths.piSimulator,
    env: simEnvironment(env.root, sandbox),
    relayCwd: def.relayInTarget ? sandbox.repo : sandbox.elsewhere,
  };
}

/** The transcript and the files left in the case's folders, or why they could not be read. */
function readEvidence(
  sandbox: CaseSandbox,
): { transcript: TranscriptEntry[]; leftovers: string[] } | { error: string } {
  try {
    return { transcript: readTranscript(sandbox.transcript), leftovers: sandbox.leftovers() };
  } catch (error) {
    return { error: messageOf(error) };
  }
}

/** The `run` job of a case: the relay module, its cwd and environment, the request and a planned abort. */
function relayJob(def: CaseDef, env: CaseEnvironment, ctx: CaseContext, prepared: Prepared): AdapterJob {
  jobIds += 1;
  return {
    id: jobIds,
    op: "run",
    relayModule: env.relayModule,
    cwd: ctx.relayCwd,
    processEnv: def.processEnv?.(prepared.rctx) ?? ctx.env,
    request: prepared.request,
    ...(def.abort ? { abort: def.abort(prepared.rctx) } : {}),
  };
}

/** The job's bound, the case folder whose processes die with the host, the run's cancellation and the hang watch. */
function jobOptions(
  def: CaseDef,
  env: CaseEnvironment,
  sandbox: CaseSandbox,
  during: DuringAction,
  signal: AbortSignal | undefined,
): JobOptions {
  return {
    timeoutMs: def.timeoutMs ?? env.timeoutMs,
    markers: [sandbox.dir],
    ...(signal ? { signal } : {}),
    // A harness action during the call (`during`) may be what moves it: nothing is decided while it may act.
    // RELAY_CONFORMANCE_PATIENT=1 turns it off, to compare with what the bound alone decides (docs/design.md).
    ...(process.env[PATIENT_ENV] === "1" ? {} : { hangWatch: hangWatch(sandbox.transcript, () => during.pending()) }),
  };
}

/**
 * What the relay left running when it settled: simulated processes still alive (survivors, killed here when the host
 * is not contained) and processes of its own that the host reported and killed (escaped). The host reports them in
 * the transcript's pid namespace; a transcript pid it could not see (no /proc) is checked here. Contained, transcript
 * pids are the namespace's: never look them up (or kill them) in ours.
 */
function leftRunning(
  reply: JobOutcome,
  transcript: readonly TranscriptEntry[],
  contained: boolean,
): Pick<CaseRun, "survivors" | "escaped"> {
  const running = reply.status === "reply" && "processes" in reply.reply ? (reply.reply.processes ?? []) : [];
  const simulated = new Set(transcript.map((e) => e.pid));
  const reported = new Set(running.map((p) => p.pid));
  const survivors = [...simulated].filter((pid) => reported.has(pid) || (!contained && isAlive(pid)));
  if (!contained) for (const pid of survivors) killQuietly(pid);
  const escaped = running.filter((p) => !simulated.has(p.pid)).map((p) => ({ pid: p.pid, argv: p.argv }));
  return { survivors, escaped };
}

/** The bench's figures of one case: its relay time and the calls the relay and the harness made. */
function observeCase(
  observer: RunObserver,
  def: CaseDef,
  profile: Profile,
  sandbox: CaseSandbox,
  transcript: TranscriptEntry[],
  at: { readonly relayStart: number; readonly evidenceStart: number },
): void {
  observer.caseProcesses?.({
    caseId: def.id,
    profile,
    relayMs: at.evidenceStart - at.relayStart,
    relayTranscript: transcript,
    harnessTranscript: harnessCalls(sandbox.statusTranscript),
  });
  observer.step?.("evidence", since(at.evidenceStart));
}

/**
 * The harness's action during a relay call (a case's `during`): started once its TMPDIR entry appears, awaited when
 * the call settles, its folder cleaned up however the case ended.
 */
class DuringAction {
  readonly #plan: DuringPlan | undefined;
  readonly #tmp: string;
  readonly #watcher: { stop(): void } | null;
  #dir: string | undefined;
  #acting: Promise<void> = Promise.resolve();
  #acted = false;

  constructor(
    plan: DuringPlan | undefined,
    tmp: string,
    observations: Record<string, unknown>,
    kill: (pid: number) => void,
  ) {
    this.#plan = plan;
    this.#tmp = tmp;
    this.#watcher = plan
      ? watchFor(tmp, plan, (dir) => {
          this.#dir = dir;
          this.#acting = this.#act(plan, dir, observations, kill);
        })
      : null;
  }

  async #act(
    plan: DuringPlan,
    dir: string,
    observations: Record<string, unknown>,
    kill: (pid: number) => void,
  ): Promise<void> {
    try {
      this.#acted = false;
      observations.during = await plan.act(dir, { kill });
    } catch (error) {
      observations.duringError = messageOf(error);
    } finally {
      this.#acted = true;
    }
  }

  /** True while the action may still act (the hang watch decides nothing meanwhile). */
  pending(): boolean {
    return duringPending(this.#tmp, this.#plan, this.#dir, this.#acted);
  }

  /** Stops watching and waits for the action in flight (its failure lands in the observations). */
  async settle(): Promise<void> {
    this.#watcher?.stop();
    await this.#acting;
  }

  /** Stops watching, waits for the action and undoes what it did to its folder. */
  async end(): Promise<void> {
    this.#watcher?.stop();
    await this.#acting.catch(() => undefined);
    if (this.#plan === undefined || this.#dir === undefined) return;
    try {
      this.#plan.cleanup?.(this.#dir);
    } catch {
      // best effort; the folder may already be gone
    }
  }
}

/** Scenario, STATUS slot, host-side steps and the request: everything before the relay runs (harness-side). */
async function prepare(def: CaseDef, profile: Profile, env: CaseEnvironment, ctx: CaseContext): Promise<Prepared> {
  const { sandbox } = ctx;
  const observer = env.observer;
  let stepStart = observer ? performance.now() : 0;
  const scenario = { name: def.id, ...(def.scenario?.(ctx) ?? {}), profile };
  writeFileSync(sandbox.scenarioFile, `${JSON.stringify(scenario, null, 2)}\n`);
  if (observer) {
    observer.step?.("sandbox", since(stepStart));
    stepStart = performance.now();
  }
  const fresh = (): Promise<AcquiredSlot> =>
    acquireSlot({
      gentleAi: ctx.gentleAi,
      cwd: sandbox.repo,
      env: { ...ctx.env, GENTLE_AI_SIM_TRANSCRIPT: sandbox.statusTranscript },
      profile,
      ...(def.slotIndex === undefined ? {} : { index: def.slotIndex }),
    });
  const cacheKey = JSON.stringify([
    profile,
    def.slotIndex ?? 0,
    (scenario as { identities?: unknown }).identities ?? null,
    (scenario as { lineage?: unknown }).lineage ?? null,
  ]);
  let acquired: AcquiredSlot;
  if (def.noStatus) acquired = { slot: FIXED_SLOT, source: "status", offered: [] };
  else if (env.slotCache) {
    let cached = env.slotCache.get(cacheKey);
    if (!cached) {
      cached = fresh();
      env.slotCache.set(cacheKey, cached);
      cached.catch(() => env.slotCache?.delete(cacheKey));
    }
    acquired = await cached;
  } else acquired = await fresh();
  if (observer) {
    observer.step?.("status", since(stepStart));
    stepStart = performance.now();
  }
  const defaultRequest: WireRelayRequest = {
    captureArgumentTokens: [...acquired.slot.captureArgumentTokens],
    targetCwd: sandbox.repo,
    ...(acquired.slot.submission === undefined ? {} : { submission: acquired.slot.submission }),
    gentleAiExecutable: ctx.gentleAi,
    piExecutable: ctx.pi,
    environment: ctx.env,
  };
  const rctx: RequestContext = { ...ctx, slot: acquired.slot, defaultRequest };
  await def.before?.(rctx);
  if (observer && def.before) observer.step?.("before", since(stepStart));
  return { acquired, rctx, request: def.request?.(rctx) ?? defaultRequest };
}

/** The harness's own simulated calls of a case (its STATUS transcript; host-side steps write there too). */
function harnessCalls(statusTranscript: string): ReturnType<typeof readTranscript> {
  try {
    return readTranscript(statusTranscript);
  } catch {
    // Only the bench reads this; an unreadable line must not fail the case.
    return [];
  }
}

/** The relay's outcome from how the adapter job ended; the harness's own failures stay distinct. */
function toOutcome(reply: JobOutcome): RelayOutcome {
  switch (reply.status) {
    case "timeout":
      return {
        type: "timeout",
        timeoutMs: reply.timeoutMs,
        wallMs: reply.wallMs,
        output: reply.evidence.output,
        ...(reply.hang ? { hang: reply.hang } : {}),
      };
    case "exited":
      return {
        type: "crashed",
        detail: `its adapter child died mid-call (exit ${reply.evidence.code ?? "null"}, signal ${reply.evidence.signal ?? "null"}) and was replaced with its process tree killed; output tail: ${tail(reply.evidence.output, 400)}`,
      };
    case "protocol":
      return {
        type: "crashed",
        detail: `${reply.detail}; its adapter child was killed with its process tree and replaced (exit ${reply.evidence.code ?? "null"}, signal ${reply.evidence.signal ?? "null"}); output tail: ${tail(reply.evidence.output, 400)}`,
      };
    case "harness":
      return { type: "harness-error", detail: reply.detail };
    case "reply": {
      const r = reply.reply;
      if (r.type === "result") return { type: "result", value: r.value };
      if (r.type === "error") return { type: "error", error: r.error };
      if (r.type === "load-error") return { type: "crashed", detail: `relay module failed to load: ${r.message}` };
      return { type: "harness-error", detail: `unexpected adapter reply ${r.type} to a run job` };
    }
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function killQuietly(pid: number): void {
  if (pid <= 1) return;
  try {
    process.kill(pid, "SIGKILL");
  } catch {
    // already gone
  }
}

/** True while a `during` action may still act: its entry is there and it has not finished acting. */
function duringPending(
  tmp: string,
  during: DuringPlan | undefined,
  found: string | undefined,
  acted: boolean,
): boolean {
  if (during === undefined || acted) return false;
  if (found !== undefined) return true;
  try {
    return readdirSync(tmp).some((n) => n.startsWith(during.prefix));
  } catch {
    return false;
  }
}

/** Polls dir every 2 ms until an entry with the plan's prefix appears and is ready, then calls found once. */
function watchFor(
  dir: string,
  plan: { prefix: string; ready?(dir: string): boolean },
  found: (path: string) => void,
): { stop(): void } {
  const timer = setInterval(() => {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return;
    }
    const name = names.find((n) => n.startsWith(plan.prefix));
    if (name === undefined) return;
    const path = join(dir, name);
    if (plan.ready && !plan.ready(path)) return;
    clearInterval(timer);
    found(path);
  }, 2);
  return { stop: () => clearInterval(timer) };
}
