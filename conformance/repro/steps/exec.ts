import { runChild } from "../../process/run-child.ts";
import { flattenInto, type Outcome } from "../outcome.ts";
import { git } from "../world-repo.ts";
import { REPRO_CALL_TIMEOUT_MS, type StepContext, type StepResult } from "./context.ts";

/** An answer's outcome: its exit code, and the fields of a JSON object on stdout as `json.…` for `expect`. */
export function answerOutcome(exitCode: number | null, stdout: Buffer): Outcome {
  const outcome: Outcome = { ok: exitCode === 0, exitCode };
  const text = stdout.toString("utf8");
  if (!text.trimStart().startsWith("{")) return outcome;
  try {
    flattenInto(outcome, "json", JSON.parse(text) as unknown);
  } catch {
    // Not one JSON document: `stdout` lines check it as text.
  }
  return outcome;
}

/** Runs the world's gentle-ai (or pi) in $WORK with the phase environment, and returns its answer. */
export async function providerCall(
  ctx: StepContext,
  program: "gentle-ai" | "pi",
  argv: readonly string[],
  stdin?: Buffer,
  env: Record<string, string> = {},
): Promise<StepResult> {
  const exe = program === "pi" ? ctx.sandbox.pi : ctx.sandbox.gentleAi;
  const answer = await runChild(exe, argv, {
    cwd: ctx.sandbox.work,
    env: { ...ctx.sandbox.env, ...env },
    timeoutMs: REPRO_CALL_TIMEOUT_MS,
    ...(stdin ? { stdin } : {}),
  });
  const outcome: Outcome = { ...answerOutcome(answer.exitCode, answer.stdout), signal: answer.signal };
  if (answer.timedOut)
    Object.assign(outcome, {
      harnessError: true,
      message: `${program} ${argv.join(" ")} did not answer within ${REPRO_CALL_TIMEOUT_MS}ms`,
    });
  return {
    outcome,
    answer: { argv: [program, ...argv], exitCode: answer.exitCode, stdout: answer.stdout, stderr: answer.stderr },
  };
}

/** `exec gentle-ai|pi ARGS…` and `gentle-ai ARGS…`: one raw call, stdin from the `stdin` section named before it. */
export async function runExecStep(
  ctx: StepContext,
  args: readonly string[],
  stdin: string | undefined,
): Promise<StepResult> {
  const [program, ...argv] = args;
  const input = stdin === undefined ? undefined : Buffer.from(ctx.section(stdin), "utf8");
  return providerCall(ctx, program === "pi" ? "pi" : "gentle-ai", argv, input);
}

/** `git ARGS…`: git in $WORK with the world's pinned identity; a failing git is the step's failure. */
export async function runGitStep(ctx: StepContext, args: readonly string[]): Promise<StepResult> {
  const r = await git(ctx.sandbox.work, args, ctx.sandbox.env);
  const outcome: Outcome = { ok: r.exitCode === 0, exitCode: r.exitCode };
  if (r.exitCode !== 0)
    Object.assign(outcome, {
      harnessError: true,
      message: `git ${args.join(" ")} exited ${r.exitCode}: ${r.stderr.toString("utf8").trim()}`,
    });
  return { outcome, answer: { argv: ["git", ...args], exitCode: r.exitCode, stdout: r.stdout, stderr: r.stderr } };
}
