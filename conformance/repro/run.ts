import { existsSync, readFileSync } from "node:fs";
import { basename, dirname, join, relative } from "node:path";
import { evaluate, type Verdict } from "./assert.ts";
import type { DefectId } from "./client-contract.ts";
import type { Reproduction, Step } from "./format.ts";
import { NAMED_MODULES, ReproInputError, resolveModulePath } from "./modules.ts";
import { errorOutcome, type Outcome } from "./outcome.ts";
import { REPO_ROOT } from "./paths.ts";
import { callLines, outcomeLines, showWord } from "./report.ts";
import { Sandbox } from "./sandbox.ts";
import { runClientStep } from "./steps/client.ts";
import type { Answer, ModuleChoice, StepContext, StepResult } from "./steps/context.ts";
import { runExecStep } from "./steps/exec.ts";
import { runBoundStep, runRelayStep } from "./steps/relay.ts";
import { runStatusStep } from "./steps/status.ts";
import { expandWord, UnsetVariableError } from "./words.ts";

/** How to run a reproduction. */
export interface RunOptions {
  /** Module that replaces the subject (`client=` omitted or `client=subject`). */
  readonly against?: string;
  /** Defects passed to the subject client (the defective variant reads them). */
  readonly defects?: readonly DefectId[];
  /** Replaces named modules (`client=gentle-pi-2.1.2`) by path, e.g. to check another build of a variant. */
  readonly modules?: Readonly<Record<string, string>>;
  /** Runs only these phases (1-based); all when absent. */
  readonly phases?: readonly number[];
  /** Directory that module paths given on the command line resolve against (default process.cwd()). */
  readonly cwd?: string;
  /** Receives every report line as it is produced. */
  readonly out: (line: string) => void;
}

/** What a run found. */
export interface RunSummary {
  readonly ok: boolean;
  readonly mismatches: number;
  readonly checks: number;
  readonly steps: number;
}

function subjectChoice(against: string | undefined, cwd: string): ModuleChoice {
  if (against === undefined) return { label: "ours", ...pick(NAMED_MODULES["ours"]) };
  const named = NAMED_MODULES[against];
  if (named) return { label: against, ...pick(named) };
  const path = resolveModulePath(against, cwd);
  if (!existsSync(path)) throw new ReproInputError(`--against ${against}: no such module`);
  // One path serves both roles; a step reports bad input if the module lacks the export it needs.
  return { label: against, relay: path, client: path };
}

function pick(m: { relay?: string; client?: string } | undefined): { relay?: string; client?: string } {
  const out: { relay?: string; client?: string } = {};
  // Named modules live in this repository, whatever the caller's cwd.
  if (m?.relay) out.relay = join(REPO_ROOT, m.relay);
  if (m?.client) out.client = join(REPO_ROOT, m.client);
  return out;
}

function stepText(step: Step, lines: readonly string[] | undefined): string {
  return lines?.[step.line - 1]?.trim() ?? [step.command, ...step.args, ...Object.entries(step.options).map(([k, v]) => `${k}=${v}`)].map(showWord).join(" ");
}

/** Runs every phase of a reproduction, printing each step, its provider answers and expected vs actual. */
export async function runReproduction(repro: Reproduction, options: RunOptions): Promise<RunSummary> {
  const out = options.out;
  const file = basename(repro.file);
  const lines = existsSync(repro.file) ? readFileSync(repro.file, "utf8").split("\n") : undefined;
  const cwd = options.cwd ?? process.cwd();
  const subject = subjectChoice(options.against, cwd);
  const sections = new Map(repro.sections.map((s) => [s.name, s.text]));
  let mismatches = 0;
  let checks = 0;
  const verdicts: string[] = [];
  let steps = 0;

  out(`repro ${repro.id}: ${repro.title}`);
  if (repro.issue) out(`  issue:   ${repro.issue}`);
  const shown = relative(REPO_ROOT, repro.file);
  out(`  file:    ${shown.startsWith("..") ? repro.file : shown}`);
  out(`  subject: ${subject.label}${options.against === undefined ? ` (${NAMED_MODULES["ours"]?.describe})` : ""}${options.defects ? ` defects=${options.defects.join(",") || "none"}` : ""}`);

  for (const [name, path] of Object.entries(options.modules ?? {})) {
    if (!existsSync(resolveModulePath(path, cwd))) throw new ReproInputError(`--module ${name}=${path}: no such module`);
    out(`  module:  ${name} = ${path}`);
  }
  for (const n of options.phases ?? []) {
    if (!Number.isInteger(n) || n < 1 || n > repro.phases.length) throw new ReproInputError(`--phase ${n}: ${repro.id} has phases 1..${repro.phases.length}`);
  }
  for (const [pi, phase] of repro.phases.entries()) {
    if (options.phases && !options.phases.includes(pi + 1)) continue;
    out("");
    out(`== phase ${pi + 1}/${repro.phases.length}: ${phase.title}`);
    const sc = phase.scenario;
    const r = sc.resolved;
    const over = Object.entries(sc.overrides).map(([k, v]) => `${k}=${typeof v === "string" ? v : JSON.stringify(v)}`).join(" ");
    out(`   scenario ${"section" in sc.source ? sc.source.section : sc.source.path}${over ? " " + over : ""} (profile ${String(r["profile"] ?? "2.4.0")}, identities ${String(r["identities"] ?? "prefixed")})`);
    const before = mismatches;
    const sandbox = new Sandbox(r);
    try {
      const ctx: StepContext = {
        sandbox,
        module: (name) => {
          if (name === undefined || name === "subject") return subject;
          const swapped = options.modules?.[name];
          if (swapped !== undefined) {
            const path = resolveModulePath(swapped, cwd);
            return { label: `${name}=${swapped}`, relay: path, client: path };
          }
          const named = NAMED_MODULES[name];
          if (named) return { label: name, ...pick(named) };
          const path = resolveModulePath(name, dirname(repro.file));
          return { label: name, relay: path, client: path };
        },
        subjectDefects: options.defects,
        section: (name) => {
          const t = sections.get(name);
          if (t === undefined) throw new ReproInputError(`${file}: no section "${name}"`);
          return t;
        },
        expand: (w) => expandWord(w, sandbox.vars),
        say: (l) => said.push(l),
      };
      const said: string[] = [];
      for (const step of phase.steps) {
        said.length = 0;
        if (step.command === "note") {
          out(`   note: ${step.args[0] ?? ""}`);
          continue;
        }
        out(`-- ${file}:${step.line}: ${sandbox.redact(stepText(step, lines))}`);
        if (step.command === "env") {
          for (const w of step.args) {
            const eq = w.indexOf("=");
            if (eq < 0) delete sandbox.env[w];
            else sandbox.env[w.slice(0, eq)] = ctx.expand(w.slice(eq + 1));
          }
          continue;
        }
        steps++;
        const mark = sandbox.mark();
        let result: StepResult;
        try {
          result = await runStep(ctx, step);
        } catch (e) {
          if (e instanceof ReproInputError) throw e;
          if (e instanceof UnsetVariableError) {
            // Set by an earlier check that did not match: this step cannot run, which is a mismatch, not bad input.
            mismatches++;
            out(`   MISMATCH  ${file}:${step.line}: step not run: ${e.message} (the check that sets it did not match)`);
            continue;
          }
          result = { outcome: { ...errorOutcome(e), harnessError: true } };
        }
        const stepCalls = sandbox.callsSince(mark);
        if (step.command !== "exec") for (const c of stepCalls) for (const l of callLines(c, (s) => sandbox.redact(s))) out(`   ${l}`);
        let answer: Answer | undefined = result.answer;
        if (answer) {
          out(`   $ ${answer.argv.map((w) => showWord(sandbox.redact(w))).join(" ")}`);
          const a = answer;
          const direct = { program: a.argv[0] === "pi" ? ("pi" as const) : ("gentle-ai" as const), argv: a.argv.slice(1), verb: undefined, leg: undefined, handshake: null, exitCode: a.exitCode, signal: null, completed: true, stdout: a.stdout, stderr: a.stderr, stdoutLength: a.stdout?.length ?? 0, stderrLength: a.stderr?.length ?? 0 };
          for (const l of callLines({ ...direct, verb: "status" }, (s) => sandbox.redact(s)).slice(1)) out(`   ${l}`);
        } else {
          // The answer is the step's own provider call (FINALIZE for finalize, …), never a STATUS read on the way.
          const verb = ANSWER_VERB[step.command];
          const last = stepCalls.filter((c) => c.program === "gentle-ai" && (verb === undefined || c.verb === verb)).at(-1);
          if (last) answer = { argv: ["gentle-ai", ...last.argv], exitCode: last.exitCode, stdout: last.stdout, stderr: last.stderr };
        }
        for (const l of said) out(`   ${l}`);
        if (step.command !== "exec") for (const l of outcomeLines(result.outcome, (s) => sandbox.redact(s))) out(`   ${l}`);
        Object.assign(sandbox.vars, result.vars ?? {});
        const phaseCalls = sandbox.callsSince(0);
        for (const a of step.assertions) {
          checks++;
          let v: Verdict;
          try {
            v = evaluate(a, { outcome: result.outcome, answer, stepCalls, phaseCalls, expand: ctx.expand, section: ctx.section });
          } catch (e) {
            if (!(e instanceof UnsetVariableError)) throw e;
            v = { ok: false, detail: `${e.message} (the check that sets it did not match)`, vars: {} };
          }
          Object.assign(sandbox.vars, v.vars);
          const text = lines?.[a.line - 1]?.trim() ?? a.kind;
          if (v.ok) out(`   ok        ${sandbox.redact(text)}`);
          else {
            mismatches++;
            out(`   MISMATCH  ${file}:${a.line}: ${sandbox.redact(text)}`);
            out(`             ${sandbox.redact(v.detail)}`);
          }
        }
        if (result.outcome["harnessError"] === true) {
          mismatches++;
          out(`   MISMATCH  ${file}:${step.line}: the step itself failed: ${String(result.outcome["message"])}`);
        }
      }
    } finally {
      sandbox.dispose();
    }
    verdicts.push(`  ${mismatches === before ? "ok  " : "FAIL"}  ${String(pi + 1).padStart(2)}  ${phase.title}`);
  }
  out("");
  out("phases:");
  for (const v of verdicts) out(v);
  out("");
  const ran = options.phases?.length ?? repro.phases.length;
  if (mismatches === 0) out(`PASS ${repro.id}: behaves as documented (${ran} phases, ${steps} steps, ${checks} checks)`);
  else out(`FAIL ${repro.id}: ${mismatches} mismatch${mismatches === 1 ? "" : "es"} (${ran} phases, ${steps} steps, ${checks} checks)`);
  return { ok: mismatches === 0, mismatches, checks, steps };
}

const ANSWER_VERB: Partial<Record<Step["command"], string>> = {
  relay: "capture-result",
  status: "status",
  "capture-evidence": "capture-evidence",
  finalize: "finalize",
};

async function runStep(ctx: StepContext, step: Step): Promise<StepResult> {
  const options: Record<string, string> = {};
  for (const [k, v] of Object.entries(step.options)) options[k] = ctx.expand(v);
  switch (step.command) {
    case "exec":
      return runExecStep(ctx, step.args.map((w) => ctx.expand(w)), step.stdin);
    case "relay":
      return runRelayStep(ctx, options);
    case "bound":
      return runBoundStep(ctx, options);
    case "status":
      return runStatusStep(ctx, options);
    case "capture-evidence":
    case "finalize":
      return runClientStep(ctx, step.command, options);
    default:
      return { outcome: { ok: true } as Outcome };
  }
}
