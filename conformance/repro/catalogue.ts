import { existsSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Reproduction } from "./format.ts";
import { parseReproductionFile, ReproParseError } from "./parse.ts";
import { REPRO_DIR } from "./paths.ts";

/** Every shipped reproduction file (golden/repro/*.txtar), sorted by name. */
export function shippedFiles(dir = REPRO_DIR): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith(".txtar"))
    .sort((a, b) => a.localeCompare(b, "en", { numeric: true }))
    .map((f) => join(dir, f));
}

/** Parses every shipped reproduction; broken files come back as their parse error. */
export function listShipped(dir = REPRO_DIR): (Reproduction | ReproParseError)[] {
  return shippedFiles(dir).map((f) => {
    try {
      return parseReproductionFile(f);
    } catch (e) {
      if (e instanceof ReproParseError) return e;
      throw e;
    }
  });
}

/** Finds a reproduction by shipped id or by file path; undefined when neither exists. */
export function locate(idOrFile: string, cwd = process.cwd(), dir = REPRO_DIR): string | undefined {
  const asFile = resolve(cwd, idOrFile);
  if ((idOrFile.includes("/") || idOrFile.endsWith(".txtar")) && existsSync(asFile)) return asFile;
  const shipped = join(dir, `${idOrFile}.txtar`);
  if (existsSync(shipped)) return shipped;
  for (const f of shippedFiles(dir)) {
    try {
      if (parseReproductionFile(f).id === idOrFile) return f;
    } catch {
      // A broken file cannot claim an id.
    }
  }
  return existsSync(asFile) ? asFile : undefined;
}
