import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Profile } from "../../simulator/scenario/schema.ts";
import type { CaseContext, CaseDef, CaseRun, DuringPlan, RelayOutcome, RequestContext } from "../clauses/types.ts";
import type { HarnessPaths } from "../paths.ts";
import { acquireSlot, type AcquiredSlot } from "./acquire-slot.ts";
import { tail, type JobOptions, type JobOutcome } from "../host/job-outcome.ts";
import type { AdapterJob, WireRelayRequest } from "./protocol.ts";
import { createCaseSandbox, type CaseSandbox, type RunRoot } from "./sandbox.ts";
import { readTranscript } from "./transcript.ts";
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

/** Fixed v2.4.0-shaped slot for cases that never reach a process (binding and argument checks). */
export const FIXED_SLOT = {
  captureArgumentTokens: ["--lineage=review-0000000000000001", "--lens=review-risk", "--order=0", "--agent=pi", "--materialize=true"],
  submission: {
    operationToken: "capture-result",
    argumentTokens: ["--lineage=review-0000000000000001", "--lens=review-risk", "--order=0", "--input={{value}}"],
    values: [{ slot: "reviewer_result", domain: "artifact_path_or_stdin", substitutionLocation: 3 }],
  },
} as const;

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
export function harnessFailure(def: CaseDef, profile: Profile, detail: string, where: Partial<Pick<CaseRun, "tmp" | "repo" | "relayCwd">> = {}): CaseRun {
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

/**
 * Runs one case on one profile: fresh sandbox, scenario, STATUS slot, relay call in the adapter child, evidence.
 * Never rejects: whatever fails on the harness's side (setup, STATUS, `before`, the adapter, reading the evidence)
 * becomes a `harness-error` outcome for this case alone.
 */
export async function runCase(def: CaseDef, profile: Profile, env: CaseEnvironment, signal?: AbortSignal): Promise<CaseRun> {
  const observer = env.observer;
  const setupStart = observer ? performance.now() : 0;
  let sandbox: CaseSandbox;
  try {
    sandbox = createCaseSandbox(env.root, `${def.id}@${profile}`);
  } catch (error) {
    return harnessFailure(def, profile, `case setup failed: ${messageOf(error)}`);
  }
  if (observer) observer.step?.("sandbox", since(setupStart));
  const relayCwd = def.relayInTarget ? sandbox.repo : sandbox.elsewhere;
  const where = { tmp: sandbox.tmp, repo: sandbox.repo, relayCwd };
  const simEnv = simEnvironment(env.root, sandbox);
  const ctx: CaseContext = { profile, sandbox, gentleAi: env.paths.gentleAiSimulator, pi: env.paths.piSimulator, env: simEnv, relayCwd };
  let during: ReturnType<NonNullable<CaseDef["during"]>> | undefined;
  let duringDir: string | undefined;
  let watcher: { stop(): void } | null = null;
  let acting: Promise<void> = Promise.resolve();
  let acted = false;
  try {
    let prepared: { acquired: AcquiredSlot; rctx: RequestContext; request: WireRelayRequest };
    try {
      prepared = await prepare(def, profile, env, ctx);
    } catch (error) {
      return harnessFailure(def, profile, `case setup failed: ${messageOf(error)}`, where);
    }
    const { acquired, rctx, request } = prepared;
    during = def.during?.(rctx);
    const observations: Record<string, unknown> = {};
    watcher = during
      ? watchFor(sandbox.tmp, during, (dir) => {
          duringDir = dir;
          acting = (async () => {
            try {
              acted = false;
              observations.during = await during?.act(dir, { kill: (pid) => killQuietly(env.hostPidOf?.(pid) ?? (env.contained ? -1 : pid)) });
            } catch (error) {
              observations.duringError = messageOf(error);
            } finally {
              acted = true;
            }
          })();
        })
      : null;
    jobIds += 1;
    let evidenceStart = 0;
    const relayStart = observer ? performance.now() : 0;
    const reply = await env.runJob(
      {
        id: jobIds,
        op: "run",
        relayModule: env.relayModule,
        cwd: relayCwd,
        processEnv: def.processEnv?.(rctx) ?? simEnv,
        request,
        ...(def.abort ? { abort: def.abort(rctx) } : {}),
      },
      {
        timeoutMs: def.timeoutMs ?? env.timeoutMs,
        markers: [sandbox.dir],
        ...(signal ? { signal } : {}),
        // A harness action during the call (`during`) may be what moves it: nothing is decided while it may act.
        // RELAY_CONFORMANCE_PATIENT=1 turns it off, to compare with what the bound alone decides (docs/design.md).
        ...(process.env[PATIENT_ENV] === "1" ? {} : { hangWatch: hangWatch(sandbox.transcript, () => duringPending(sandbox.tmp, during, duringDir, acted)) }),
      },
    );
    if (observer) evidenceStart = performance.now();
    watcher?.stop();
    await acting;
    const outcome = toOutcome(reply);
    let transcript;
    let leftovers;
    try {
      transcript = readTranscript(sandbox.transcript);
      leftovers = sandbox.leftovers();
    } catch (error) {
      return harnessFailure(def, profile, `the case's evidence could not be read: ${messageOf(error)}`, where);
    }
    // The host reports (and has killed) what was still running when the relay settled, in the transcript's pid
    // namespace; a transcript pid it could not see (no /proc) is checked here as before.
    const running = reply.status === "reply" && "processes" in reply.reply ? (reply.reply.processes ?? []) : [];
    // Contained, transcript pids are the namespace's: never look them up (or kill them) in ours.
    const contained = env.contained === true;
    const simulated = new Set(transcript.map((e) => e.pid));
    const reported = new Set(running.map((p) => p.pid));
    const survivors = [...simulated].filter((pid) => reported.has(pid) || (!contained && isAlive(pid)));
    if (!contained) for (const pid of survivors) killQuietly(pid);
    const escaped = running.filter((p) => !simulated.has(p.pid)).map((p) => ({ pid: p.pid, argv: p.argv }));
    if (observer) {
      observer.caseProcesses?.({
        caseId: def.id,
        profile,
        relayMs: evidenceStart - relayStart,
        relayTranscript: transcript,
        harnessTranscript: harnessCalls(sandbox.statusTranscript),
      });
      observer.step?.("evidence", since(evidenceStart));
    }
    return {
      caseId: def.id,
      profile,
      slot: acquired.slot,
      request,
      outcome,
      transcript,
      leftovers,
      handles: reply.status === "reply" && "leftovers" in reply.reply ? (reply.reply.leftovers ?? []) : [],
      survivors,
      escaped,
      ...where,
      env: simEnv,
      observations,
    };
  } finally {
    // However the case ended, nothing of it keeps running: the watcher's interval would keep the process alive.
    watcher?.stop();
    await acting.catch(() => undefined);
    if (during && duringDir) {
      try {
        during.cleanup?.(duringDir);
      } catch {
        // best effort; the folder may already be gone
      }
    }
    if (!env.keep) {
      try {
        sandbox.remove();
      } catch {
        // The run root goes at the end; a folder a relay made unremovable must not turn into a verdict here.
      }
    }
  }
}

/** Scenario, STATUS slot, host-side steps and the request: everything before the relay runs (harness-side). */
async function prepare(
  def: CaseDef,
  profile: Profile,
  env: CaseEnvironment,
  ctx: CaseContext,
): Promise<{ acquired: AcquiredSlot; rctx: RequestContext; request: WireRelayRequest }> {
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
      return { type: "timeout", timeoutMs: reply.timeoutMs, wallMs: reply.wallMs, output: reply.evidence.output, ...(reply.hang ? { hang: reply.hang } : {}) };
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
function duringPending(tmp: string, during: DuringPlan | undefined, found: string | undefined, acted: boolean): boolean {
  if (during === undefined || acted) return false;
  if (found !== undefined) return true;
  try {
    return readdirSync(tmp).some((n) => n.startsWith(during.prefix));
  } catch {
    return false;
  }
}

/** Polls dir every 2 ms until an entry with the plan's prefix appears and is ready, then calls found once. */
function watchFor(dir: string, plan: { prefix: string; ready?(dir: string): boolean }, found: (path: string) => void): { stop(): void } {
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
