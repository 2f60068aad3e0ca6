import { existsSync, readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import * as z from "zod/mini";
import en from "zod/v4/locales/en.js";
import { ScenarioSchema, type Scenario } from "./schema.ts";
import type { BytesSpec } from "./bytes-spec.ts";
import { DEFAULT_SCENARIO_INPUT } from "./default.ts";
import { findJsonSyntaxError } from "./json-syntax.ts";
import { formatIssues } from "./format-issues.ts";

/** A scenario file that cannot be used; `message` holds one `gentle-ai-sim: <file>: <where>: <reason>` line per issue. */
export class ScenarioLoadError extends Error {
  override readonly name = "ScenarioLoadError";
  readonly file: string;
  readonly lines: readonly string[];
  constructor(file: string, reasons: readonly string[]) {
    const lines = reasons.map((reason) => `gentle-ai-sim: ${file}: ${reason}`);
    super(lines.join("\n"));
    this.file = file;
    this.lines = lines;
  }
}

/** A validated scenario plus where it came from (null path: the built-in default). */
export interface LoadedScenario {
  readonly scenario: Scenario;
  readonly path: string | null;
  /** Folder that `file` bytes specs resolve against. */
  readonly dir: string;
}

let localeLoaded = false;

/** Parses and validates a scenario file (path resolved against cwd); throws ScenarioLoadError. */
export function loadScenarioFile(path: string): Scenario {
  return loadScenarioFileWithDir(path).scenario;
}

/** Like loadScenarioFile, also returning the absolute path and folder. */
export function loadScenarioFileWithDir(path: string): LoadedScenario {
  const file = resolve(path);
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    const e = error as NodeJS.ErrnoException;
    throw new ScenarioLoadError(file, [`cannot read scenario: ${e.code ?? e.message}`]);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    const at = findJsonSyntaxError(text);
    throw new ScenarioLoadError(file, [
      at ? `invalid JSON at line ${at.line}, column ${at.column}: ${at.reason}` : "invalid JSON",
    ]);
  }
  const parsed = ScenarioSchema.safeParse(json);
  if (!parsed.success) {
    // English messages cost start-up time, so the locale is loaded only on this error path.
    if (!localeLoaded) {
      z.config(en());
      localeLoaded = true;
    }
    const again = ScenarioSchema.safeParse(json);
    throw new ScenarioLoadError(file, formatIssues(again.success ? parsed.error.issues : again.error.issues));
  }
  const dir = dirname(file);
  const missing = bytesFiles(parsed.data)
    .filter(([, spec]) => !existsSync(resolve(dir, spec.file)))
    .map(([where, spec]) => `${where}.file: file not found: ${resolve(dir, spec.file)}`);
  if (missing.length > 0) throw new ScenarioLoadError(file, missing);
  return { scenario: parsed.data, path: file, dir };
}

/** The built-in default scenario, validated like a file. */
export function builtinScenario(dir: string): LoadedScenario {
  return { scenario: ScenarioSchema.parse(DEFAULT_SCENARIO_INPUT), path: null, dir };
}

/** Every `file` bytes spec in a scenario with its JSON path. */
function bytesFiles(scenario: Scenario): Array<[string, Extract<BytesSpec, { file: string }>]> {
  const out: Array<[string, Extract<BytesSpec, { file: string }>]> = [];
  const visit = (where: string, spec: BytesSpec | undefined): void => {
    if (spec && "file" in spec) out.push([where, spec]);
  };
  if (scenario.pi.result.kind === "bytes") visit("$.pi.result.bytes", scenario.pi.result.bytes);
  visit("$.pi.stderr", scenario.pi.stderr);
  scenario.faults.forEach((rule, i) => {
    if (rule.fault.kind === "stdout" || rule.fault.kind === "stderr") visit(`$.faults[${i}].fault.bytes`, rule.fault.bytes);
  });
  return out;
}
