import { readFileSync } from "node:fs";
import { basename, dirname, resolve } from "node:path";
import { ScenarioSchema } from "../../simulator/scenario/schema.ts";
import { ReproductionSchema, type Assertion, type Check, type Phase, type Reproduction, type ScenarioRef, type Step } from "./format.ts";
import { stepDef } from "./steps/index.ts";
import type { StepDef } from "./steps/step-def.ts";
import { parseTxtar, type TxtarFile } from "./txtar.ts";
import { splitWords, WordError } from "./words.ts";

/** A reproduction file that does not parse: every problem with its line. */
export class ReproParseError extends Error {
  constructor(
    readonly file: string,
    readonly problems: readonly { line: number; reason: string }[],
  ) {
    super(problems.map((p) => `${file}:${p.line}: ${p.reason}`).join("\n"));
    this.name = "ReproParseError";
  }
}

const CHECK = /^([A-Za-z][A-Za-z0-9_.:-]*)(!=|>=|<=|=|~)(.*)$/s;

/** Reads and parses a reproduction file; throws ReproParseError naming file, line and reason. */
export function parseReproductionFile(file: string): Reproduction {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    throw new ReproParseError(file, [{ line: 1, reason: `cannot read: ${(e as Error).message}` }]);
  }
  return parseReproduction(text, file);
}

/** Parses reproduction text (txtar: script lines, then sections) into the validated structure. */
export function parseReproduction(text: string, file: string): Reproduction {
  const problems: { line: number; reason: string }[] = [];
  const fail = (line: number, reason: string): void => void problems.push({ line, reason });
  // The script is the archive's comment; the sections are its files.
  const { comment: script, files: sections } = parseTxtar(text);
  const sectionNames = new Map<string, TxtarFile>();
  for (const s of sections) {
    if (sectionNames.has(s.name)) fail(s.line, `duplicate section "${s.name}"`);
    sectionNames.set(s.name, s);
  }
  const needSection = (line: number, name: string): void => {
    if (!sectionNames.has(name)) fail(line, `no section "-- ${name} --" in this file`);
  };

  let id: string | undefined;
  let title: string | undefined;
  let issue: string | undefined;
  const summary: string[] = [];
  let inSummary = true;
  const phases: Phase[] = [];
  let phase: Phase | undefined;
  let step: Step | undefined;
  let pendingStdin: string | undefined;
  let lastScenario: ScenarioRef | undefined;

  const openPhase = (line: number, phaseTitle: string): Phase => {
    const p: Phase = { line, title: phaseTitle, scenario: lastScenario as ScenarioRef, steps: [] };
    phases.push(p);
    step = undefined;
    return p;
  };

  script.forEach((raw, index) => {
    const line = index + 1;
    const trimmed = raw.trim();
    if (trimmed.startsWith("#")) {
      if (inSummary) summary.push(trimmed.replace(/^# ?/, ""));
      return;
    }
    if (trimmed === "") {
      if (inSummary && summary.length > 0) summary.push("");
      return;
    }
    inSummary = false;
    const head = /^(\S+)\s*(.*)$/.exec(trimmed) as RegExpExecArray;
    const verb = head[1] as string;
    const rest = head[2] as string;

    // Directives whose argument is the raw rest of the line.
    if (verb === "title" || verb === "issue" || verb === "id") {
      if (rest === "") return fail(line, `${verb} needs a value`);
      if ((verb === "title" ? title : verb === "issue" ? issue : id) !== undefined) return fail(line, `duplicate ${verb}`);
      if (verb === "title") title = rest;
      else if (verb === "issue") issue = rest;
      else id = rest;
      return;
    }
    if (verb === "phase") {
      if (rest === "") return fail(line, "phase needs a title");
      phase = openPhase(line, rest);
      return;
    }
    if (verb === "note") {
      phase ??= openPhase(line, title ?? "reproduction");
      step = { line, command: "note", args: [rest], options: {}, assertions: [] };
      phase.steps.push(step);
      return;
    }

    let words: string[];
    try {
      words = splitWords(trimmed);
    } catch (e) {
      if (e instanceof WordError) return fail(line, e.message);
      throw e;
    }

    if (verb === "scenario") {
      const ref = parseScenarioLine(line, words.slice(1), file, sectionNames, fail);
      if (!ref) return;
      if (phase && phase.steps.length > 0) phase = openPhase(line, phase.title);
      phase ??= openPhase(line, title ?? "reproduction");
      if (phase.scenario !== undefined && phase.scenario !== lastScenario) return fail(line, "duplicate scenario in one phase");
      phase.scenario = ref;
      lastScenario = ref;
      return;
    }
    if (verb === "stdin") {
      if (words.length !== 2) return fail(line, "stdin takes one section name");
      needSection(line, words[1] as string);
      pendingStdin = words[1] as string;
      return;
    }

    const negate = verb === "!";
    const aWords = negate ? words.slice(1) : words;
    const aVerb = aWords[0];
    if (aVerb === "exit" || aVerb === "stdout" || aVerb === "stderr" || aVerb === "cmp" || aVerb === "expect" || aVerb === "calls") {
      if (!step || step.command === "note" || step.command === "env") return fail(line, `${aVerb} must follow a step line`);
      const a = parseAssertion(line, negate, aWords, needSection, fail);
      if (a) step.assertions.push(a);
      return;
    }
    if (negate) return fail(line, `"!" negates only exit, stdout and stderr`);

    const def = stepDef(verb);
    if (!def && verb !== "exec" && verb !== "env") return fail(line, `unknown command "${verb}"`);
    const command = verb as Step["command"];
    phase ??= openPhase(line, title ?? "reproduction");
    const s: Step = { line, command, args: [], options: {}, assertions: [] };
    if (command === "exec") {
      s.args = words.slice(1);
      if (s.args[0] !== "gentle-ai" && s.args[0] !== "pi") return fail(line, `exec runs "gentle-ai" or "pi", not ${JSON.stringify(s.args[0] ?? "")}`);
      if (pendingStdin !== undefined) s.stdin = pendingStdin;
      pendingStdin = undefined;
    } else if (command === "env") {
      if (words.length < 2) return fail(line, "env needs NAME=VALUE (or NAME to unset)");
      for (const w of words.slice(1)) {
        if (!/^[A-Za-z_][A-Za-z0-9_]*(=|$)/.test(w)) return fail(line, `env: bad assignment ${JSON.stringify(w)}`);
      }
      s.args = words.slice(1);
    } else if (def) {
      const why = stepOptions(def, words.slice(1), sectionNames, s.options);
      if (why) return fail(line, why);
    }
    step = s;
    phase.steps.push(s);
  });

  if (title === undefined) fail(1, "missing `title` line");
  // Structure checks only on otherwise clean files: a bad step line would also leave its phase empty.
  if (problems.length === 0) {
    if (phases.length === 0) fail(1, "no steps");
    for (const p of phases) {
      if (p.scenario === undefined) fail(p.line, "phase has no `scenario` line (and no earlier one to reuse)");
      if (p.steps.length === 0) fail(p.line, "phase has no steps");
    }
  }
  if (pendingStdin !== undefined) fail(script.length, "stdin line with no exec after it");
  const fileId = id ?? basename(file).replace(/\.txtar$/, "");
  if (!/^[a-z0-9][a-z0-9-]*$/.test(fileId)) fail(1, `id "${fileId}" must be lowercase letters, digits and dashes`);
  if (problems.length > 0) throw new ReproParseError(file, problems);

  while (summary.length > 0 && summary[summary.length - 1] === "") summary.pop();
  return ReproductionSchema.parse({
    schema: "gentle-relay-conformance.repro/v1",
    file,
    id: fileId,
    title,
    ...(issue !== undefined ? { issue } : {}),
    summary,
    phases,
    sections: sections.map((s) => ({ name: s.name, text: s.text })),
  });
}

/**
 * Reads a step's `key=value` words into `into`, each value checked by the step's option schema (values holding
 * `$VAR` are checked when the step runs); returns the first problem, or undefined.
 */
function stepOptions(def: StepDef, words: readonly string[], sections: ReadonlyMap<string, TxtarFile>, into: Record<string, string>): string | undefined {
  const known = Object.keys(def.options.shape);
  for (const w of words) {
    const eq = w.indexOf("=");
    if (eq <= 0) return `${def.name}: expected key=value, got ${JSON.stringify(w)}`;
    const key = w.slice(0, eq);
    const field = Object.hasOwn(def.options.shape, key) ? def.options.shape[key] : undefined;
    if (!field) return `${def.name}: unknown option "${key}" (known: ${known.join(", ")})`;
    if (key in into) return `${def.name}: duplicate option "${key}"`;
    const value = w.slice(eq + 1);
    const checked = field.safeParse(value);
    if (!checked.success) return `${def.name}: ${key}: ${checked.error.issues[0]?.message ?? "invalid"}`;
    if (def.sectionOptions?.includes(key) && !value.includes("$") && !sections.has(value)) return `${def.name}: ${key}: no section "-- ${value} --" in this file`;
    into[key] = value;
  }
  // A required option left out: its schema's message is the whole error (`bound needs bytes=N`).
  for (const key of known) {
    if (key in into) continue;
    const missing = def.options.shape[key]?.safeParse(undefined);
    if (missing && !missing.success) return missing.error.issues[0]?.message ?? `${def.name} needs ${key}=`;
  }
  return undefined;
}

function parseChecks(line: number, words: string[], needSection: (l: number, n: string) => void, fail: (l: number, r: string) => void): Check[] | undefined {
  const checks: Check[] = [];
  for (const w of words) {
    if (/^[A-Za-z][A-Za-z0-9_.:-]*$/.test(w)) {
      checks.push({ key: w, op: "=", value: "true" });
      continue;
    }
    const m = CHECK.exec(w);
    if (!m) return void fail(line, `expected key=value, key~regex, key>=n or key<=n, got ${JSON.stringify(w)}`);
    const [, key, op, value] = m as unknown as [string, string, Check["op"], string];
    if ((op === ">=" || op === "<=") && !/^-?\d+$/.test(value) && !value.includes("$")) return void fail(line, `${key}${op} needs a number`);
    if (op === "~" && !value.includes("$")) {
      try {
        new RegExp(value);
      } catch (e) {
        return void fail(line, `${key}: bad regex: ${(e as Error).message}`);
      }
    }
    if (op === "=" && value.startsWith("@")) {
      needSection(line, value.slice(1));
      checks.push({ key, op, value: "", section: value.slice(1) });
    } else checks.push({ key, op, value });
  }
  return checks;
}

function parseAssertion(
  line: number,
  negate: boolean,
  words: string[],
  needSection: (l: number, n: string) => void,
  fail: (l: number, r: string) => void,
): Assertion | undefined {
  const [verb, ...args] = words as [string, ...string[]];
  switch (verb) {
    case "exit":
      if (negate) {
        if (args.length !== 0) return void fail(line, "`! exit` takes no code (it means any non-zero exit)");
        return { kind: "exit", line, code: "nonzero" };
      }
      if (args.length !== 1 || !/^\d{1,3}$/.test(args[0] as string)) return void fail(line, "exit takes one exit code");
      return { kind: "exit", line, code: Number(args[0]) };
    case "stdout":
    case "stderr": {
      if (args.length !== 1) return void fail(line, `${verb} takes one regex (quote it with '...')`);
      const pattern = args[0] as string;
      try {
        new RegExp(pattern.replaceAll("$$", "$"), "m");
      } catch (e) {
        return void fail(line, `${verb}: bad regex: ${(e as Error).message}`);
      }
      return { kind: "match", line, stream: verb, pattern, negate };
    }
    case "cmp":
      if (negate) return void fail(line, `"!" negates only exit, stdout and stderr`);
      if (args.length !== 2 || (args[0] !== "stdout" && args[0] !== "stderr")) return void fail(line, "cmp takes stdout|stderr and a section name");
      needSection(line, args[1] as string);
      return { kind: "cmp", line, stream: args[0], section: args[1] as string };
    case "expect": {
      if (negate) return void fail(line, `"!" negates only exit, stdout and stderr; use key!=value`);
      if (args.length === 0) return void fail(line, "expect needs at least one check");
      const checks = parseChecks(line, args, needSection, fail);
      return checks && { kind: "expect", line, checks };
    }
    case "calls": {
      if (negate) return void fail(line, `"!" negates only exit, stdout and stderr`);
      const scope = args[0] === "phase" ? "phase" : "step";
      const rest = scope === "phase" ? args.slice(1) : args;
      if (rest.length === 0) return void fail(line, "calls needs at least one name=count");
      const checks = parseChecks(line, rest, needSection, fail);
      if (!checks) return undefined;
      for (const c of checks) {
        if (c.op === "~" || c.op === "!=" || !/^\d+$/.test(c.value)) return void fail(line, `calls: ${c.key} needs =N, >=N or <=N`);
      }
      return { kind: "calls", line, scope, checks };
    }
    default:
      return void fail(line, `unknown assertion "${verb}"`);
  }
}

function parseScenarioLine(line: number, words: string[], file: string, sections: Map<string, TxtarFile>, fail: (l: number, r: string) => void): ScenarioRef | undefined {
  const [source, ...sets] = words;
  if (source === undefined) return void fail(line, "scenario needs a section name or a path");
  let text: string;
  let ref: ScenarioRef["source"];
  const section = sections.get(source);
  if (section) {
    text = section.text;
    ref = { section: source };
  } else if (source.endsWith(".json")) {
    try {
      text = readFileSync(resolve(dirname(file), source), "utf8");
    } catch (e) {
      return void fail(line, `scenario ${source}: not a section of this file and not readable: ${(e as Error).message}`);
    }
    ref = { path: source };
  } else return void fail(line, `scenario ${source}: no section "-- ${source} --" in this file`);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    return void fail(line, `scenario ${source}: not JSON: ${(e as Error).message}`);
  }
  if (typeof json !== "object" || json === null || Array.isArray(json)) return void fail(line, `scenario ${source}: must be a JSON object`);
  const resolved = structuredClone(json) as Record<string, unknown>;
  const overrides: Record<string, unknown> = {};
  for (const s of sets) {
    const m = /^([A-Za-z$][A-Za-z0-9_.$]*)=(.*)$/s.exec(s);
    if (!m) return void fail(line, `scenario: expected path=value override, got ${JSON.stringify(s)}`);
    const path = m[1] as string;
    const raw = (m[2] as string).replaceAll("$$", "$");
    let value: unknown = raw;
    try {
      value = JSON.parse(raw);
    } catch {
      // A bare word is a string value.
    }
    overrides[path] = value;
    setPath(resolved, path.split("."), value);
  }
  const checked = ScenarioSchema.safeParse(resolved);
  if (!checked.success) {
    for (const issue of checked.error.issues) {
      fail(line, `scenario ${source}: ${issue.path.length ? "$." + issue.path.join(".") : "$"}: ${issue.message}`);
    }
    return undefined;
  }
  return { line, source: ref, overrides, resolved };
}

function setPath(target: Record<string, unknown>, path: string[], value: unknown): void {
  let node = target;
  for (const key of path.slice(0, -1)) {
    const next = node[key];
    if (typeof next !== "object" || next === null || Array.isArray(next)) node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  node[path[path.length - 1] as string] = value;
}
