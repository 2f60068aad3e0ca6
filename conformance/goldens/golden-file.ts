import { readdirSync, readFileSync, writeFileSync, renameSync } from "node:fs";
import { join } from "node:path";
import { InputFileError, readJsonFile, schemaIssueText } from "../cli/json-file.ts";
import { GoldenSchema, type Golden } from "./golden-schema.ts";
import { paths } from "./paths.ts";

/** A golden file that cannot be used. */
export class GoldenFileError extends Error {
  override readonly name = "GoldenFileError";
}

/** Reads and validates a golden; the error names the file, the JSON path of the first bad field and the reason. */
export function readGolden(path: string): Golden {
  let json: unknown;
  try {
    json = readJsonFile(path);
  } catch (error) {
    if (error instanceof InputFileError) throw new GoldenFileError(error.message);
    throw error;
  }
  const parsed = GoldenSchema.safeParse(json);
  if (!parsed.success) throw new GoldenFileError(`${path}: not a golden: ${schemaIssueText(GoldenSchema, json)}`);
  return parsed.data;
}

/** Serialises a golden the one canonical way (2-space JSON, trailing newline), so rewrites diff cleanly. */
export function goldenText(golden: Golden): string {
  const { $schema: _ignored, ...rest } = golden;
  return `${JSON.stringify({ $schema: "../schemas/golden.schema.json", ...rest }, null, 2)}\n`;
}

/** Writes a golden atomically; returns false when the file already holds exactly these bytes. */
export function writeGolden(path: string, golden: Golden): boolean {
  const text = goldenText(golden);
  try {
    if (readFileSync(path, "utf8") === text) return false;
  } catch {
    // New file.
  }
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, path);
  return true;
}

/** Every shipped golden, `golden/*.golden.json`, in name order. */
export function shippedGoldens(dir = paths.goldenDir()): string[] {
  return readdirSync(dir)
    .filter((n) => n.endsWith(".golden.json"))
    .sort()
    .map((n) => join(dir, n));
}
