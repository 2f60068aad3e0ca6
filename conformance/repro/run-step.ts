import { evaluate, type Verdict } from "./assert.ts";
import type { Step } from "./format.ts";
import { ReproInputError } from "./modules.ts";
import { errorOutcome } from "./outcome.ts";
import { callLines, outcomeLines, showWord } from "./report.ts";
import type { Answer, StepContext, StepResult } from "./steps/context.ts";
import { runExecStep, runGitStep } from "./steps/exec.ts";
import { stepDef } from "./steps/index.ts";
import type { SimCall } from "./transcript.ts";
import { UnsetVariableError } from "./words.ts";

/** Where a step prints and how its lines are named. */
export interface StepPrinter {
  readonly file: string;
  /** The file's lines, to echo each step and assertion as written. */
  readonly lines: readonly string[] | undefined;
  readonly out: (line: string) => void;
  /** Lines the step itself said (ctx.say), printed after its provider calls. */
  readonly said: string[];
}

/** What one step counted. */
export interface StepTally {
  readonly ran: boolean;
  readonly checks: number;
  readonly mismatches: number;
  /** Why the harness could not carry the step out, when it could not. */
  readonly harnessError?: string;
}

function dispatch(ctx: StepContext, step: Step): Promise<StepResult> {
  const options: Record<string, string> = {};
  for (const [k, v] of Object.entries(step.options)) options[k] = ctx.expand(v);
  const args = step.args.map((w) => ctx.expand(w));
  if (step.command === "exec") return runExecStep(ctx, args, step.stdin);
  if (step.command === "gentle-ai") return runExecStep(ctx, ["gentle-ai", ...args], step.stdin);
  if (step.command === "git") return runGitStep(ctx, args);
  return stepDef(step.command)?.run(ctx, options) ?? Promise.resolve({ outcome: { ok: true } });
}

function stepText(step: Step, lines: readonly string[] | undefined): string {
  return (
    lines?.[step.line - 1]?.trim() ??
    [step.command, ...step.args, ...Object.entries(step.options).map(([k, v]) => `${k}=${v}`)].map(showWord).join(" ")
  );
}

function answerOf(step: Step, result: StepResult, calls: readonly SimCall[]): Answer | undefined {
  if (result.answer) return result.answer;
  // The provider call whose answer `exit`/`stdout`/`stderr`/`cmp` check: the step's own, never a STATUS read on the
  // way.
  const verb = stepDef(step.command)?.answerVerb;
  const own = calls.filter((c) => c.program === "gentle-ai" && c.verb === verb).at(-1);
  return own && { argv: ["gentle-ai", ...own.argv], exitCode: own.exitCode, stdout: own.stdout, stderr: own.stderr };
}

function directCall(a: Answer): SimCall {
  return {
    program: a.argv[0] === "pi" ? "pi" : "gentle-ai",
    argv: a.argv.slice(1),
    verb: undefined,
    leg: undefined,
    handshake: null,
    exitCode: a.exitCode,
    signal: null,
    completed: true,
    stdout: a.stdout,
    stderr: a.stderr,
    stdoutLength: a.stdout?.length ?? 0,
    stderrLength: a.stderr?.length ?? 0,
  };
}

/** Runs one step line and its assertions, printing the argv, the provider's answers and expected vs actual. */
export async function runOneStep(ctx: StepContext, step: Step, p: StepPrinter): Promise<StepTally> {
  const redact = (s: string): string => ctx.sandbox.redact(s);
  const indent = (l: string): void => p.out(`   ${l}`);
  p.said.length = 0;
  if (step.command === "note") {
    indent(`note: ${step.args[0] ?? ""}`);
    return { ran: false, checks: 0, mismatches: 0 };
  }
  p.out(`-- ${p.file}:${step.line}: ${redact(stepText(step, p.lines))}`);
  if (step.command === "env") {
    applyEnv(ctx, step);
    return { ran: false, checks: 0, mismatches: 0 };
  }

  const mark = ctx.sandbox.mark();
  let result: StepResult;
  try {
    result = await dispatch(ctx, step);
  } catch (e) {
    if (e instanceof ReproInputError) throw e;
    if (e instanceof UnsetVariableError) {
      // Set by an earlier check that did not match: this step cannot run, which is a mismatch, not bad input.
      indent(`MISMATCH  ${p.file}:${step.line}: step not run: ${e.message} (the check that sets it did not match)`);
      return { ran: false, checks: 0, mismatches: 1 };
    }
    result = { outcome: { ...errorOutcome(e), harnessError: true } };
  }

  ctx.sandbox.outcomes.push(result.outcome);
  const calls = ctx.sandbox.callsSince(mark);
  printAnswers(ctx, p, result, calls);
  Object.assign(ctx.sandbox.vars, result.vars ?? {});

  let mismatches = checkAssertions(ctx, step, p, answerOf(step, result, calls), result, calls);
  if (result.outcome["harnessError"] === true) {
    mismatches++;
    indent(`MISMATCH  ${p.file}:${step.line}: the step itself failed: ${String(result.outcome["message"])}`);
    return { ran: true, checks: step.assertions.length, mismatches, harnessError: String(result.outcome["message"]) };
  }
  return { ran: true, checks: step.assertions.length, mismatches };
}

/** `env NAME=word …` sets (expanded) and `env NAME` unsets the sandbox's variables. */
function applyEnv(ctx: StepContext, step: Step): void {
  for (const w of step.args) {
    const eq = w.indexOf("=");
    if (eq < 0) delete ctx.sandbox.env[w];
    else ctx.sandbox.env[w.slice(0, eq)] = ctx.expand(w.slice(eq + 1));
  }
}

/** A direct answer's argv and streams, else the step's provider calls, its own notes and its outcome. */
function printAnswers(ctx: StepContext, p: StepPrinter, result: StepResult, calls: readonly SimCall[]): void {
  const redact = (s: string): string => ctx.sandbox.redact(s);
  const indent = (l: string): void => p.out(`   ${l}`);
  if (result.answer) {
    indent(`$ ${result.answer.argv.map((w) => showWord(redact(w))).join(" ")}`);
    for (const l of callLines(directCall(result.answer), redact).slice(1)) indent(l);
  } else {
    for (const c of calls) for (const l of callLines(c, redact)) indent(l);
    for (const l of p.said) indent(l);
    for (const l of outcomeLines(result.outcome, redact)) indent(l);
  }
}

/** Evaluates and prints the step's assertions in order; returns how many did not match. */
function checkAssertions(
  ctx: StepContext,
  step: Step,
  p: StepPrinter,
  answer: Answer | undefined,
  result: StepResult,
  calls: readonly SimCall[],
): number {
  const redact = (s: string): string => ctx.sandbox.redact(s);
  const indent = (l: string): void => p.out(`   ${l}`);
  const phaseCalls = ctx.sandbox.callsSince(0);
  let mismatches = 0;
  for (const a of step.assertions) {
    let v: Verdict;
    try {
      v = evaluate(a, {
        outcome: result.outcome,
        answer,
        stepCalls: calls,
        phaseCalls,
        expand: ctx.expand,
        section: ctx.section,
      });
    } catch (e) {
      if (!(e instanceof UnsetVariableError)) throw e;
      v = { ok: false, detail: `${e.message} (the check that sets it did not match)`, vars: {} };
    }
    Object.assign(ctx.sandbox.vars, v.vars);
    const text = redact(p.lines?.[a.line - 1]?.trim() ?? a.kind);
    if (v.ok) indent(`ok        ${text}`);
    else {
      mismatches++;
      indent(`MISMATCH  ${p.file}:${a.line}: ${text}`);
      indent(`          ${redact(v.detail)}`);
    }
  }
  return mismatches;
}
