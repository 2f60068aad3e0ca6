import { existsSync, readFileSync } from "node:fs";
import { basename, dirname, join, relative } from "node:path";
import type { DefectId } from "./client-contract.ts";
import type { Reproduction } from "./format.ts";
import { NAMED_MODULES, ReproInputError, resolveModulePath } from "./modules.ts";
import { REPO_ROOT } from "./paths.ts";
import { Sandbox, type Recording } from "./sandbox.ts";
import { describeWorld, phaseScenario, simulatorOnlyReason } from "./world.ts";
import type { Profile } from "../../simulator/scenario/schema.ts";
import { runOneStep, type StepPrinter } from "./run-step.ts";
import type { ModuleChoice, StepContext } from "./steps/context.ts";
import { expandWord } from "./words.ts";

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
  /** The gentle-ai every step calls (default the simulator); any other one is recorded through shims. */
  readonly binary?: string;
  /**
   * Run phases that need the simulator even against `binary` (a build known to be the simulator, as `verify` checks).
   */
  readonly simulatorCompatible?: boolean;
  /** Who writes the transcript (default: the simulator itself; shims for another binary). */
  readonly recording?: Recording;
  /** The simulator profile of every phase (the differential run's `--profile`); default each phase's own. */
  readonly profile?: Profile;
  /** A fixed world root for every phase (the differential run's two sides share paths); default fresh temp dirs. */
  readonly root?: string;
  /** Receives every report line as it is produced. */
  readonly out: (line: string) => void;
  /** Variables added to each phase's environment once its world exists (the replayer's golden and cwd). */
  readonly env?: (sandbox: Sandbox) => Readonly<Record<string, string>>;
  /** Receives each phase's sandbox after its steps, before it is removed (the differential run reads transcripts). */
  readonly onPhaseEnd?: (index: number, sandbox: Sandbox) => void | Promise<void>;
}

/** What a run found. */
export interface RunSummary {
  readonly ok: boolean;
  readonly mismatches: number;
  readonly checks: number;
  readonly steps: number;
  /** Phases skipped because they need the simulator. */
  readonly skipped: number;
  /** Steps the harness could not carry out (a call past its bound, a broken relay host), as `file:line: why`. */
  readonly harnessErrors: readonly string[];
}

function subjectChoice(against: string | undefined, cwd: string): ModuleChoice {
  if (against === undefined) return { label: "ours", ...pick(NAMED_MODULES["ours"]) };
  const named = NAMED_MODULES[against];
  if (named) return { label: against, ...pick(named) };
  const path = resolveModulePath(against, cwd);
  if (!existsSync(path)) throw new ReproInputError(`--against ${against}: no such module`);
  // One path serves both roles, unless a FINALIZE client sits beside the relay as ours does (relay/finalize.ts);
  // a step reports bad input if the module lacks the export it needs.
  const beside = join(dirname(path), "finalize.ts");
  return { label: against, relay: path, client: existsSync(beside) ? beside : path };
}

function pick(m: { relay?: string; client?: string } | undefined): { relay?: string; client?: string } {
  const out: { relay?: string; client?: string } = {};
  // Named modules live in this repository, whatever the caller's cwd.
  if (m?.relay) out.relay = join(REPO_ROOT, m.relay);
  if (m?.client) out.client = join(REPO_ROOT, m.client);
  return out;
}

/** What every phase of one run reads: the reproduction, the options and what was resolved from them once. */
interface ReproRun {
  readonly repro: Reproduction;
  readonly options: RunOptions;
  readonly file: string;
  readonly lines: string[] | undefined;
  readonly cwd: string;
  readonly subject: ModuleChoice;
  readonly sections: ReadonlyMap<string, string>;
}

/** The run's counts so far, and the verdict line of each phase. */
interface Tally {
  mismatches: number;
  checks: number;
  steps: number;
  skipped: number;
  readonly verdicts: string[];
  readonly harnessErrors: string[];
}

/** Runs every phase of a reproduction, printing each step, its provider answers and expected vs actual. */
export async function runReproduction(repro: Reproduction, options: RunOptions): Promise<RunSummary> {
  const file = basename(repro.file);
  const lines = existsSync(repro.file) ? readFileSync(repro.file, "utf8").split("\n") : undefined;
  const cwd = options.cwd ?? process.cwd();
  const subject = subjectChoice(options.against, cwd);
  const sections = new Map(repro.sections.map((s) => [s.name, s.text]));
  const run: ReproRun = { repro, options, file, lines, cwd, subject, sections };
  const tally: Tally = { mismatches: 0, checks: 0, steps: 0, skipped: 0, verdicts: [], harnessErrors: [] };
  printHeader(run);
  for (const [pi, phase] of repro.phases.entries()) {
    if (options.phases && !options.phases.includes(pi + 1)) continue;
    await runPhase(run, tally, pi, phase);
  }
  return printSummary(run, tally);
}

/** The reproduction, its subject and swapped modules; refuses a missing module or a phase out of range. */
function printHeader({ repro, options, cwd, subject }: ReproRun): void {
  const out = options.out;
  out(`repro ${repro.id}: ${repro.title}`);
  if (repro.issue) out(`  issue:   ${repro.issue}`);
  const shown = relative(REPO_ROOT, repro.file);
  out(`  file:    ${shown.startsWith("..") ? repro.file : shown}`);
  out(
    `  subject: ${subject.label}${options.against === undefined ? ` (${NAMED_MODULES["ours"]?.describe})` : ""}${options.defects ? ` defects=${options.defects.join(",") || "none"}${options.against === undefined ? " (ignored: our client has no defects; pass --against gentle-pi-2.1.2)" : ""}` : ""}`,
  );

  for (const [name, path] of Object.entries(options.modules ?? {})) {
    if (!existsSync(resolveModulePath(path, cwd)))
      throw new ReproInputError(`--module ${name}=${path}: no such module`);
    out(`  module:  ${name} = ${path}`);
  }
  for (const n of options.phases ?? []) {
    if (!Number.isInteger(n) || n < 1 || n > repro.phases.length)
      throw new ReproInputError(`--phase ${n}: ${repro.id} has phases 1..${repro.phases.length}`);
  }
}

/** One phase in a fresh sandbox (or its skip line), adding its counts and verdict to the tally. */
async function runPhase(run: ReproRun, tally: Tally, pi: number, phase: Reproduction["phases"][number]): Promise<void> {
  const { repro, options, file, lines, sections } = run;
  const out = options.out;
  out("");
  out(`== phase ${pi + 1}/${repro.phases.length}: ${phase.title}`);
  out(`   ${describeWorld(phase, options.profile)}`);
  const why =
    options.binary === undefined || options.simulatorCompatible === true ? undefined : simulatorOnlyReason(phase);
  if (why !== undefined) {
    out(`   SKIP against ${options.binary}: ${why}`);
    tally.skipped++;
    tally.verdicts.push(`  skip  ${String(pi + 1).padStart(2)}  ${phase.title}`);
    return;
  }
  const before = tally.mismatches;
  const sandbox = await Sandbox.create({
    scenario: phaseScenario(phase, options.profile),
    ...(options.binary === undefined ? {} : { gentleAi: options.binary }),
    recording: options.recording ?? (options.binary === undefined ? "native" : "shim"),
    ...(phase.repo ? { repo: { fixture: phase.repo, section: (name: string) => sections.get(name) ?? "" } } : {}),
    ...(options.root === undefined ? {} : { root: options.root }),
  });
  Object.assign(sandbox.env, options.env?.(sandbox));
  const printer: StepPrinter = { file, lines, out, said: [] };
  try {
    const ctx = stepContext(run, sandbox, printer);
    for (const step of phase.steps) {
      const t = await runOneStep(ctx, step, printer);
      if (t.ran) tally.steps++;
      tally.checks += t.checks;
      tally.mismatches += t.mismatches;
      if (t.harnessError !== undefined) tally.harnessErrors.push(`${file}:${step.line}: ${t.harnessError}`);
    }
    await options.onPhaseEnd?.(pi, sandbox);
  } finally {
    sandbox.dispose();
  }
  tally.verdicts.push(
    `  ${tally.mismatches === before ? "ok  " : "FAIL"}  ${String(pi + 1).padStart(2)}  ${phase.title}`,
  );
}

/** What a phase's steps resolve through: modules by name, sections, words and the printer's notes. */
function stepContext(run: ReproRun, sandbox: Sandbox, printer: StepPrinter): StepContext {
  const { repro, options, file, cwd, subject, sections } = run;
  return {
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
    say: (l) => printer.said.push(l),
  };
}

/** The phase verdicts and the PASS/FAIL line; returns the run's summary. */
function printSummary({ repro, options }: ReproRun, tally: Tally): RunSummary {
  const out = options.out;
  const { mismatches, checks, steps, skipped, harnessErrors } = tally;
  out("");
  out("phases:");
  for (const v of tally.verdicts) out(v);
  out("");
  const ran = (options.phases?.length ?? repro.phases.length) - skipped;
  const skips = skipped > 0 ? `, ${skipped} skipped` : "";
  if (mismatches === 0)
    out(`PASS ${repro.id}: behaves as documented (${ran} phases${skips}, ${steps} steps, ${checks} checks)`);
  else
    out(
      `FAIL ${repro.id}: ${mismatches} mismatch${mismatches === 1 ? "" : "es"} (${ran} phases${skips}, ${steps} steps, ${checks} checks)`,
    );
  return { ok: mismatches === 0, mismatches, checks, steps, skipped, harnessErrors };
}
