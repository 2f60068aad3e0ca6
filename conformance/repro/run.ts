import { existsSync, readFileSync } from "node:fs";
import { basename, dirname, join, relative } from "node:path";
import type { DefectId } from "./client-contract.ts";
import type { Reproduction } from "./format.ts";
import { NAMED_MODULES, ReproInputError, resolveModulePath } from "./modules.ts";
import { REPO_ROOT } from "./paths.ts";
import { Sandbox } from "./sandbox.ts";
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
  out(
    `  subject: ${subject.label}${options.against === undefined ? ` (${NAMED_MODULES["ours"]?.describe})` : ""}${options.defects ? ` defects=${options.defects.join(",") || "none"}${options.against === undefined ? " (ignored: our client has no defects; pass --against gentle-pi-2.1.2)" : ""}` : ""}`,
  );

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
    const over = Object.entries(sc.overrides)
      .map(([k, v]) => `${k}=${typeof v === "string" ? v : JSON.stringify(v)}`)
      .join(" ");
    out(
      `   scenario ${"section" in sc.source ? sc.source.section : sc.source.path}${over ? " " + over : ""} (profile ${String(r["profile"] ?? "2.4.0")}, identities ${String(r["identities"] ?? "prefixed")})`,
    );
    const before = mismatches;
    const sandbox = new Sandbox(r);
    const printer: StepPrinter = { file, lines, out, said: [] };
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
        say: (l) => printer.said.push(l),
      };
      for (const step of phase.steps) {
        const t = await runOneStep(ctx, step, printer);
        if (t.ran) steps++;
        checks += t.checks;
        mismatches += t.mismatches;
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
