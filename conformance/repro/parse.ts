import { readFileSync } from "node:fs";
import { basename } from "node:path";
import { ReproductionSchema, type Reproduction } from "./format.ts";
import { ParseContext } from "./parse-context.ts";
import { ScriptParser } from "./parse-script.ts";
import { parseTxtar } from "./txtar.ts";

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
  // The script is the archive's comment; the sections are its files.
  const { comment: script, files: sections } = parseTxtar(text);
  const ctx = new ParseContext(file, sections);
  const parser = new ScriptParser(ctx);
  script.forEach((raw, index) => parser.read(raw, index + 1));
  parser.finish(script.length);
  const id = parser.id ?? basename(file).replace(/\.txtar$/, "");
  if (!/^[a-z0-9][a-z0-9.-]*$/.test(id)) ctx.fail(1, `id "${id}" must be lowercase letters, digits, dots and dashes`);
  if (ctx.problems.length > 0) throw new ReproParseError(file, ctx.problems);
  return ReproductionSchema.parse({
    schema: "gentle-relay-conformance.repro/v1",
    file,
    id,
    title: parser.title,
    ...(parser.issue !== undefined ? { issue: parser.issue } : {}),
    summary: parser.summary,
    phases: parser.phases,
    sections: sections.map((s) => ({ name: s.name, text: s.text })),
  });
}
