import { existsSync, readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import * as z from "zod/mini";
import en from "zod/v4/locales/en.js";
import { ScenarioSchema, type Scenario } from "./schema.ts";
import { ScenarioLoadError } from "./load-error.ts";
import { bytesFiles } from "./bytes-files.ts";
import { findJsonSyntaxError } from "./json-syntax.ts";
import { formatIssues } from "./format-issues.ts";
import { pinsLineage, type LoadedScenario } from "./loaded.ts";

// Validation pulls in the zod scenario schema; the runtime imports this module lazily (only on a scenario-cache miss).
export { ScenarioLoadError };
export { builtinScenario, type LoadedScenario } from "./loaded.ts";

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
  return { scenario: parsed.data, path: file, dir, lineagePinned: pinsLineage(json) };
}
