// One-line errors for input files: `<file>: <JSON path>: <reason>` (the simulator's scenario errors read the same way).
import { readFileSync } from "node:fs";
import * as z from "zod/mini";
import en from "zod/v4/locales/en.js";
import { formatIssues } from "../../simulator/scenario/format-issues.ts";
import { findJsonSyntaxError } from "../../simulator/scenario/json-syntax.ts";

let localeLoaded = false;

/**
 * The first problem a schema finds in a value, as `$.json.path: reason` on one line (the simulator's scenario
 * wording). English messages are loaded only on this error path.
 */
export function schemaIssueText(
  schema: { safeParse(value: unknown): { success: boolean; error?: { issues: readonly z.core.$ZodIssue[] } } },
  value: unknown,
): string {
  if (!localeLoaded) {
    z.config(en());
    localeLoaded = true;
  }
  const parsed = schema.safeParse(value);
  return (parsed.success ? undefined : formatIssues(parsed.error?.issues ?? [])[0]) ?? "$: invalid";
}

/** Why a file could not be read, in words (ENOENT → "no such file"). */
export function readErrorText(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  if (code === "ENOENT") return "no such file";
  if (code === "EISDIR") return "is a directory, not a file";
  if (code === "EACCES") return "permission denied";
  return error instanceof Error ? error.message : String(error);
}

/** Where and why a text is not JSON: line, column and reason. */
function syntaxErrorText(text: string, error: unknown): string {
  const at = findJsonSyntaxError(text);
  if (at) return `invalid JSON at line ${at.line}, column ${at.column}: ${at.reason}`;
  return `invalid JSON: ${(error instanceof Error ? error.message : String(error)).split("\n")[0] ?? ""}`;
}

/** A file that cannot be used: the message is `<file>: <reason>` on one line. */
export class InputFileError extends Error {
  override readonly name = "InputFileError";
}

/** Reads and parses a JSON file; `shown` is how the file is named in errors (as the user typed it). */
export function readJsonFile(path: string, shown = path): unknown {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new InputFileError(`${shown}: ${readErrorText(error)}`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new InputFileError(`${shown}: ${syntaxErrorText(text, error)}`);
  }
}
