import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Profile } from "../../simulator/scenario/schema.ts";
import type { CaseContext, CaseDef, CaseRun, RelayOutcome, RequestContext } from "../clauses/types.ts";
import type { HarnessPaths } from "../paths.ts";
import { acquireSlot, type AcquiredSlot } from "./acquire-slot.ts";
import type { AdapterWorker, JobOutcome } from "./adapter-worker.ts";
import type { WireRelayRequest } from "./protocol.ts";
import { createCaseSandbox, type CaseSandbox, type RunRoot } from "./sandbox.ts";
import { readTranscript } from "./transcript.ts";

/** What a case needs from the run. */
export interface CaseEnvironment {
  readonly paths: HarnessPaths;
  readonly root: RunRoot;
  readonly relayModule: string;
  readonly timeoutMs: number;
  /** A worker for this lane, spawned lazily and replaced after a timeout or crash. */
  worker(): AdapterWorker;
  dropWorker(): Promise<void>;
  readonly keep?: boolean;
  /** STATUS answers shared by cases with the same lineage (STATUS is read-only and identities are seeded). */
  readonly slotCache?: Map<string, Promise<AcquiredSlot>>;
}

let jobIds = 0;

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
    ...root.simEnv,
  };
}

/** Runs one case on one profile: fresh sandbox, scenario, STATUS slot, relay call in the adapter child, evidence. */
export async function runCase(def: CaseDef, profile: Profile, env: CaseEnvironment): Promise<CaseRun> {
  const sandbox = createCaseSandbox(env.root, `${def.id}@${profile}`);
  const simEnv = simEnvironment(env.root, sandbox);
  const ctx: CaseContext = { profile, sandbox, gentleAi: env.paths.gentleAiSimulator, pi: env.paths.piSimulator, env: simEnv };
  let during: ReturnType<NonNullable<CaseDef["during"]>> | undefined;
  let duringDir: string | undefined;
  try {
    const scenario = { name: def.id, ...(def.scenario?.(ctx) ?? {}), profile };
    writeFileSync(sandbox.scenarioFile, `${JSON.stringify(scenario, null, 2)}\n`);
    const fresh = (): Promise<AcquiredSlot> =>
      acquireSlot({
        gentleAi: ctx.gentleAi,
        cwd: sandbox.repo,
        env: { ...simEnv, GENTLE_AI_SIM_TRANSCRIPT: sandbox.statusTranscript },
        profile,
        ...(def.slotIndex === undefined ? {} : { index: def.slotIndex }),
      });
    const cacheKey = JSON.stringify([profile, def.slotIndex ?? 0, (scenario as { identities?: unknown }).identities ?? null, (scenario as { lineage?: unknown }).lineage ?? null]);
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
    const defaultRequest: WireRelayRequest = {
      captureArgumentTokens: [...acquired.slot.captureArgumentTokens],
      targetCwd: sandbox.repo,
      ...(acquired.slot.submission === undefined ? {} : { submission: acquired.slot.submission }),
      gentleAiExecutable: ctx.gentleAi,
      piExecutable: ctx.pi,
      environment: simEnv,
    };
    const rctx: RequestContext = { ...ctx, slot: acquired.slot, defaultRequest };
    await def.before?.(rctx);
    const request = def.request?.(rctx) ?? defaultRequest;
    during = def.during?.(rctx);
    const observations: Record<string, unknown> = {};
    let acting: Promise<void> = Promise.resolve();
    const watcher = during
      ? watchFor(sandbox.tmp, during, (dir) => {
          duringDir = dir;
          acting = (async () => {
            try {
              observations.during = await during?.act(dir);
            } catch (error) {
              observations.duringError = error instanceof Error ? error.message : String(error);
            }
          })();
        })
      : null;
    jobIds += 1;
    const reply = await env.worker().run(
      {
        id: jobIds,
        op: "run",
        relayModule: env.relayModule,
        cwd: sandbox.repo,
        processEnv: def.processEnv?.(rctx) ?? simEnv,
        request,
        ...(def.abort ? { abort: def.abort(rctx) } : {}),
      },
      def.timeoutMs ?? env.timeoutMs,
    );
    watcher?.stop();
    await acting;
    const outcome = await toOutcome(reply, env);
    const transcript = readTranscript(sandbox.transcript);
    const survivors = transcript.map((e) => e.pid).filter(isAlive);
    for (const pid of survivors) killQuietly(pid);
    if (during && duringDir) during.cleanup?.(duringDir);
    return {
      caseId: def.id,
      profile,
      slot: acquired.slot,
      request,
      outcome,
      transcript,
      leftovers: sandbox.leftovers(),
      survivors,
      tmp: sandbox.tmp,
      repo: sandbox.repo,
      env: simEnv,
      observations,
    };
  } finally {
    if (during && duringDir) {
      try {
        during.cleanup?.(duringDir);
      } catch {
        // best effort; the folder may already be gone
      }
    }
    if (!env.keep) sandbox.remove();
  }
}

async function toOutcome(reply: JobOutcome, env: CaseEnvironment): Promise<RelayOutcome> {
  if (reply.status === "timeout") {
    await env.dropWorker();
    return { type: "timeout", timeoutMs: reply.timeoutMs, output: reply.output };
  }
  if (reply.status === "exited") {
    await env.dropWorker();
    return { type: "crashed", detail: `exit ${reply.code ?? "null"} signal ${reply.signal ?? "null"}: ${reply.output.trim().slice(-600)}` };
  }
  const r = reply.reply;
  if (r.type === "result") return { type: "result", value: r.value };
  if (r.type === "error") return { type: "error", error: r.error };
  if (r.type === "load-error") return { type: "crashed", detail: `relay module failed to load: ${r.message}` };
  return { type: "crashed", detail: "unexpected probe reply" };
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
  try {
    process.kill(pid, "SIGKILL");
  } catch {
    // already gone
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
