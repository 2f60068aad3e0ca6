// A script's step lines: `exec PROGRAM ARGS…`, `gentle-ai ARGS…`, `git ARGS…`, `env NAME=VALUE…`, and the `key=value`
// steps of the step table, each read into its positional words and options. `note` is not here: its text is the raw
// rest of the line.
import type { Step } from "./format.ts";
import { stepDef } from "./steps/index.ts";
import type { StepDef } from "./steps/step-def.ts";
import type { TxtarFile } from "./txtar.ts";

/** A step command that a step line (not `note`) starts. */
export type StepVerb = Exclude<Step["command"], "note">;

/** A step line's checked words: `args` for exec and env, `options` for a `key=value` step. */
export interface StepWords {
  readonly args: string[];
  readonly options: Record<string, string>;
}

/** Whether `verb` starts a step line. */
export function isStepVerb(verb: string): verb is StepVerb {
  return stepDef(verb) !== undefined || RAW_STEPS.has(verb);
}

/** The builtin steps whose words are argv as written. */
const RAW_STEPS: ReadonlySet<string> = new Set(["exec", "gentle-ai", "git", "env"]);

/** Reads the words after a step's verb; returns them checked, or the reason they are wrong. */
export function parseStepWords(
  verb: StepVerb,
  words: readonly string[],
  sections: ReadonlyMap<string, TxtarFile>,
): StepWords | string {
  if (verb === "exec") {
    if (words[0] !== "gentle-ai" && words[0] !== "pi")
      return `exec runs "gentle-ai" or "pi", not ${JSON.stringify(words[0] ?? "")}`;
    return { args: [...words], options: {} };
  }
  if (verb === "gentle-ai" || verb === "git") return { args: [...words], options: {} };
  if (verb === "env") {
    if (words.length === 0) return "env needs NAME=VALUE (or NAME to unset)";
    for (const w of words) {
      if (!/^[A-Za-z_][A-Za-z0-9_]*(=|$)/.test(w)) return `env: bad assignment ${JSON.stringify(w)}`;
    }
    return { args: [...words], options: {} };
  }
  const options: Record<string, string> = {};
  const why = stepOptions(stepDef(verb) as StepDef, words, sections, options);
  return why ?? { args: [], options };
}

/**
 * Reads a step's `key=value` words into `into`, each value checked by the step's option schema (values holding
 * `$VAR` are checked when the step runs); returns the first problem, or undefined.
 */
function stepOptions(
  def: StepDef,
  words: readonly string[],
  sections: ReadonlyMap<string, TxtarFile>,
  into: Record<string, string>,
): string | undefined {
  const known = Object.keys(def.options.shape);
  for (const [index, w] of words.entries()) {
    // A step may name one option by position, first (`mode enable`): it is checked like `action=enable`.
    if (index === 0 && def.positional !== undefined && !w.includes("=")) {
      const checked = def.options.shape[def.positional]?.safeParse(w);
      if (checked && !checked.success) return `${def.name}: ${checked.error.issues[0]?.message ?? "invalid"}`;
      into[def.positional] = w;
      continue;
    }
    const eq = w.indexOf("=");
    if (eq <= 0) return `${def.name}: expected key=value, got ${JSON.stringify(w)}`;
    const key = w.slice(0, eq);
    const field = Object.hasOwn(def.options.shape, key) ? def.options.shape[key] : undefined;
    if (!field) return `${def.name}: unknown option "${key}" (known: ${known.join(", ")})`;
    if (key in into) return `${def.name}: duplicate option "${key}"`;
    const value = w.slice(eq + 1);
    const checked = field.safeParse(value);
    if (!checked.success) return `${def.name}: ${key}: ${checked.error.issues[0]?.message ?? "invalid"}`;
    if (def.sectionOptions?.includes(key) && !value.includes("$") && !sections.has(value))
      return `${def.name}: ${key}: no section "-- ${value} --" in this file`;
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
