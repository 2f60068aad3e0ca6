// One call inside the warm server: the same prepare/plan steps as a simulator process, minus the process. Calls
// whose behaviour lives in the process itself (scripted faults: delays, drips, hangs, signals; role verbs that
// spawn pi; configuration errors) are handed back to the launcher, which then runs them exactly as it always has.
import { gentleAiProgram } from "../gentle-ai/program.ts";
import { dispatch, ROLE_VERBS } from "../gentle-ai/dispatch.ts";
import { piProgram } from "../pi/program.ts";
import type { CallIo } from "../runtime/call-io.ts";
import { planCall, prepareCall, type PreparedCall } from "../runtime/plan-call.ts";
import { failureLine, SIMULATOR_FAILURE_EXIT } from "../runtime/simulator-failure.ts";
import type { ScenarioMemory } from "../scenario/scenario-cache.ts";
import { responseParts, type WarmRequest } from "./protocol.ts";

const gentleAi = gentleAiProgram(dispatch);
// Validated scenarios, kept for the server's life: a call re-reads its scenario file, but not the zod validation.
const scenarios: ScenarioMemory = new Map();

/** Runs one call, or decides to hand it back; returns the response file's parts. */
export async function serveCall(request: WarmRequest, stdin: Buffer | null): Promise<Buffer[]> {
  const io: CallIo = {
    argv: [...request.argv],
    env: { ...request.env },
    cwd: request.cwd,
    pid: request.pid,
    executablePath: request.executablePath,
    readStdin: () => {
      // The launcher sends stdin for pi only, and runs gentle-ai calls that read it itself.
      if (stdin === null) throw new Error("warm simulator: this call read stdin, which its launcher did not send");
      return stdin;
    },
  };
  const spec = request.program === "pi" ? piProgram : gentleAi;
  const prepared = await prepareCall(spec, io, scenarios);
  if ("configError" in prepared) return local("configuration error");
  if (prepared.loaded.scenario.faults.some((rule) => rule.program === request.program)) return local(`the scenario scripts faults for ${request.program}`);
  if (request.program === "gentle-ai" && prepared.call.verb !== undefined && ROLE_VERBS.has(prepared.call.verb)) {
    return local(`review ${prepared.call.verb} may spawn pi`);
  }
  return run(prepared);
}

function local(why: string): Buffer[] {
  return responseParts({ kind: "local", why });
}

async function run(prepared: PreparedCall): Promise<Buffer[]> {
  const planned = await planCall(prepared);
  if ("failure" in planned) return exitWith(Buffer.alloc(0), failureLine(planned.failure), SIMULATOR_FAILURE_EXIT);
  const { plan } = planned;
  // No fault rule names this program, so the plan is the plain outcome: anything else is a simulator defect.
  if (plan.termination.kind !== "exit" || plan.delayMs > 0 || plan.drip !== null) {
    return exitWith(Buffer.alloc(0), failureLine(`warm simulator planned ${plan.termination.kind} without a fault rule`), SIMULATOR_FAILURE_EXIT);
  }
  const failure = planned.record(plan.stdout, plan.stderr, { code: plan.exitCode, signal: null, completed: true });
  // As in the process: the streams went out, then the transcript failure is reported and the call exits 70.
  if (failure !== null) return exitWith(plan.stdout, Buffer.concat([plan.stderr, failureLine(failure)]), SIMULATOR_FAILURE_EXIT);
  return exitWith(plan.stdout, plan.stderr, plan.exitCode);
}

/** A served call's response: its streams and exit code. */
export function exitWith(stdout: Buffer, stderr: Buffer, code: number): Buffer[] {
  return responseParts({ kind: "exit", code, stdout: stdout.length, stderr: stderr.length }, stdout, stderr);
}
