import { realpathSync } from "node:fs";
import { resolve } from "node:path";
import type { FaultRule } from "../scenario/fault-schema.ts";
import { insideWorkTree } from "../repository/locate.ts";
import type { CallIo } from "./call-io.ts";
import { planCall, prepareCall, type ProgramSpec } from "./plan-call.ts";
import { ENV_REPLAY } from "./replay.ts";
import { failureLine, SIMULATOR_FAILURE_EXIT } from "./simulator-failure.ts";

/** One simulated call as a caller would spawn it. */
export interface InProcessRequest {
  /** Arguments after the program name. */
  readonly argv: readonly string[];
  /** The whole environment the process would get. */
  readonly env: Readonly<Record<string, string>>;
  readonly cwd: string;
  /** The path the program would be started as (simulator/bin/<name>). */
  readonly executablePath: string;
  readonly stdin?: Buffer;
}

/** The bytes and exit code the spawned process would have given. */
export interface InProcessResult {
  readonly stdout: Buffer;
  readonly stderr: Buffer;
  readonly exitCode: number;
}

/**
 * Answers a call inside the calling process through the planner a spawned simulator runs (configuration, scenario,
 * call counter, outcome, transcript line), so its bytes, state and transcript are the process path's; only the
 * transcript's pid is the caller's. Returns null, before the call is counted or recorded, when only a real process
 * gives the call's ending: a replayed golden, a cwd inside a Git work tree (the repository world runs git with the
 * process's own environment), or a fault rule that may select the call (delays, hangs, signals, dripped writes).
 */
export async function callInProcess(spec: ProgramSpec, request: InProcessRequest): Promise<InProcessResult | null> {
  if (request.env[ENV_REPLAY]) return null;
  // A spawned process's cwd is the physical directory (getcwd), whatever symlinks the caller's path went through.
  const cwd = realpathSync.native(request.cwd);
  if (insideWorkTree(cwd) || cwdFlags(request.argv).some((dir) => insideWorkTree(resolve(cwd, dir)))) return null;
  const stdin = request.stdin ?? Buffer.alloc(0);
  const io: CallIo = {
    argv: [...request.argv],
    // prepareCall rewrites the simulator's own variables in place: the caller's object stays untouched.
    env: { ...request.env },
    cwd,
    pid: process.pid,
    executablePath: resolve(request.executablePath),
    readStdin: () => stdin,
  };
  const prepared = await prepareCall(spec, io);
  if ("configError" in prepared)
    return { stdout: Buffer.alloc(0), stderr: Buffer.from(prepared.configError, "utf8"), exitCode: 2 };
  if (prepared.loaded.scenario.faults.some((rule) => mayApply(rule, spec.program, prepared.call))) return null;
  const planned = await planCall(prepared);
  if ("failure" in planned)
    return { stdout: Buffer.alloc(0), stderr: failureLine(planned.failure), exitCode: SIMULATOR_FAILURE_EXIT };
  const { plan } = planned;
  // No fault applies, so the plan is the outcome itself; anything else is a defect here, not a provider behaviour.
  if (planned.recordedExit !== undefined || plan.termination.kind !== "exit" || plan.delayMs > 0 || plan.trapSigterm) {
    throw new Error("simulator: an in-process call planned a process-only ending");
  }
  const failure = planned.record(plan.stdout, plan.stderr, { code: plan.exitCode, signal: null, completed: true });
  // The process writes its streams before recording, then reports a lost transcript line and exits 70.
  if (failure !== null)
    return {
      stdout: plan.stdout,
      stderr: Buffer.concat([plan.stderr, failureLine(failure)]),
      exitCode: SIMULATOR_FAILURE_EXIT,
    };
  return { stdout: plan.stdout, stderr: plan.stderr, exitCode: plan.exitCode };
}

/** Whether a fault rule could select a call of this program, verb and leg at some call index. */
function mayApply(rule: FaultRule, program: string, call: { readonly verb?: string; readonly leg?: string }): boolean {
  return (
    rule.program === program &&
    (rule.verb === undefined || rule.verb === call.verb) &&
    (rule.leg === undefined || rule.leg === call.leg)
  );
}

/** Every directory a call names with --cwd (either form). */
function cwdFlags(argv: readonly string[]): string[] {
  const dirs: string[] = [];
  argv.forEach((arg, i) => {
    if (arg.startsWith("--cwd=")) dirs.push(arg.slice("--cwd=".length));
    else if (arg === "--cwd" && argv[i + 1] !== undefined) dirs.push(argv[i + 1] ?? "");
  });
  return dirs;
}
