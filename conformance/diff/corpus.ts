// The differential corpus: scenario scripts in the one scenario language, golden/diff/*.txtar by default.
import { existsSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { UsageError } from "../cli/command.ts";
import type { Reproduction } from "../repro/format.ts";
import { parseReproductionFile, ReproParseError } from "../repro/parse.ts";
import { REPO_ROOT } from "../repro/paths.ts";

/** The shipped corpus folder. */
export const CORPUS_DIR = join(REPO_ROOT, "golden", "diff");

/** Every shipped corpus script, in name order. */
export function corpusScripts(dir = CORPUS_DIR): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith(".txtar"))
    .sort()
    .map((f) => join(dir, f));
}

/** Parses scripts named on the command line; a missing or broken one is bad input naming its file and line. */
export function loadScripts(files: readonly string[], cwd: string): Reproduction[] {
  if (files.length === 0)
    throw new UsageError("no scenario scripts: pass --script <file.txtar> or ship golden/diff/*.txtar");
  return files.map((f) => {
    const path = resolve(cwd, f);
    if (!existsSync(path)) throw new UsageError(`--script ${f}: no such file`);
    try {
      return parseReproductionFile(path);
    } catch (error) {
      if (error instanceof ReproParseError) throw new UsageError(error.message);
      throw error;
    }
  });
}
