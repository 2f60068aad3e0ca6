// `--help` text, generated from a command's option table so the two cannot disagree (the usage blocks of
// README.md and docs/cli.md are checked against it by test/conformance/cli/cli-usage.unit.test.ts).
import type { OptionSpec, OptionTable } from "./options.ts";

/** Width help text wraps at. */
export const HELP_WIDTH = 118;

/** What a command says about itself around its option lines. */
export interface UsageText {
  /** The lines after `Usage: ` (a second form gets its own line, indented to line up). */
  readonly synopsis: readonly string[];
  /** What the command does: paragraphs separated by blank lines, printed as written. */
  readonly about?: string;
  /** The options, under `Options:`. */
  readonly options: OptionTable;
  /** Further option tables under their own headings (`record`'s relay call options after `--`). */
  readonly more?: readonly { readonly heading: string; readonly options: OptionTable }[];
  /** After the options: exit codes, notes. */
  readonly footer?: string;
}

/** `-h, --help` / `--relay <module>`: how an option is written in --help. */
function flagText(name: string, spec: OptionSpec): string {
  const long = `--${name}${spec.type === "string" ? ` <${spec.valueName ?? "value"}>` : ""}`;
  return spec.short === undefined ? long : `-${spec.short}, ${long}`;
}

/**
 * Words wrapped so no line passes `width` columns, for text that starts at column `indent` (later lines indented to
 * it).
 */
export function wrap(text: string, width = HELP_WIDTH, indent = 0): string {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter((w) => w !== "")) {
    if (line !== "" && indent + line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === "" ? word : `${line} ${word}`;
  }
  lines.push(line);
  return lines.join(`\n${" ".repeat(indent)}`);
}

/** The option lines of a table: flags in one column, descriptions (with their defaults) wrapped in the next. */
export function optionLines(options: OptionTable, width = HELP_WIDTH): string {
  const flags = Object.entries(options).map(([name, spec]) => [flagText(name, spec), spec] as const);
  const column = 2 + Math.max(...flags.map(([f]) => f.length)) + 2;
  return flags
    .map(([flag, spec]) => {
      const description =
        spec.default === undefined ? spec.description : `${spec.description} (default ${spec.default})`;
      return `  ${flag.padEnd(column - 2)}${wrap(description, width, column)}\n`;
    })
    .join("");
}

/** A command's whole --help text. */
export function usageText(u: UsageText): string {
  const [first = "", ...more] = u.synopsis;
  const synopsis = [`Usage: ${first}`, ...more.map((l) => `       ${l}`)].join("\n");
  const tables = [{ heading: "Options:", options: u.options }, ...(u.more ?? [])];
  const sections = [
    synopsis,
    ...(u.about === undefined ? [] : [u.about.trimEnd()]),
    ...tables.map((t) => `${t.heading}\n${optionLines(t.options).trimEnd()}`),
    ...(u.footer === undefined ? [] : [u.footer.trimEnd()]),
  ];
  return `${sections.join("\n\n")}\n`;
}
