import { SIM_GENTLE_AI, SIM_PI } from "../paths.ts";
import { runChild } from "../../host/run-child.ts";
import { REPRO_CALL_TIMEOUT_MS, type StepContext, type StepResult } from "./context.ts";

/** `exec gentle-ai|pi ARGS…`: runs a simulator program directly in $WORK with the phase environment. */
export async function runExecStep(ctx: StepContext, args: readonly string[], stdin: string | undefined): Promise<StepResult> {
  const [program, ...argv] = args;
  const exe = program === "pi" ? SIM_PI : SIM_GENTLE_AI;
  const input = stdin === undefined ? undefined : Buffer.from(ctx.section(stdin), "utf8");
  const answer = await runChild(exe, argv, { cwd: ctx.sandbox.work, env: ctx.sandbox.env, timeoutMs: REPRO_CALL_TIMEOUT_MS, ...(input ? { stdin: input } : {}) });
  return {
    outcome: { ok: answer.exitCode === 0, exitCode: answer.exitCode, signal: answer.signal },
    answer: { argv: [program as string, ...argv], exitCode: answer.exitCode, stdout: answer.stdout, stderr: answer.stderr },
  };
}
