import { CATALOGUE, selectClauses } from "./index.ts";
import type { Command } from "../cli/command.ts";
import { HELP_OPTION, parseGrep, parseOptions, type OptionTable } from "../cli/options.ts";
import { usageText } from "../cli/usage.ts";

const LIST_OPTIONS = {
  grep: { type: "string", valueName: "regex", description: "only clauses whose ID matches (case-insensitive)" },
  markdown: { type: "boolean", description: "a Markdown table instead" },
  help: HELP_OPTION,
} as const satisfies OptionTable;

export const listCommand: Command = {
  usage: usageText({
    synopsis: ["relay-conformance list [--grep <regex>] [--markdown]"],
    about: "Prints every clause of the catalogue: ID, profiles, statement and source.",
    options: LIST_OPTIONS,
  }),
  async run(args, io) {
    const { values } = parseOptions(args, LIST_OPTIONS);
    if (values.help) {
      io.stdout(this.usage);
      return 0;
    }
    const clauses = selectClauses(parseGrep(values.grep), CATALOGUE);
    if (values.markdown) {
      io.stdout("| ID | Statement | Source | Profiles |\n|---|---|---|---|\n");
      for (const c of clauses)
        io.stdout(`| \`${c.id}\` | ${c.statement.replace(/\|/g, "\\|")} | ${c.source} | ${c.profiles.join(", ")} |\n`);
    } else
      for (const c of clauses)
        io.stdout(`${c.id}  [${c.profiles.join(",")}]\n    ${c.statement}\n    source: ${c.source}\n`);
    return 0;
  },
};
