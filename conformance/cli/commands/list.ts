import { CATALOGUE, selectClauses } from "../../clauses/index.ts";
import type { Command } from "../command.ts";
import { parseGrep, parseOptions } from "../options.ts";

export const listCommand: Command = {
  name: "list",
  summary: "list the clause catalogue (ID, profiles, source, statement)",
  usage: `Usage: relay-conformance list [--grep <regex>] [--markdown]

Prints every clause of the catalogue: ID, profiles, statement and source.

Options:
  --grep <regex>   only clauses whose ID matches (case-insensitive)
  --markdown       a Markdown table instead
  -h, --help       this help
`,
  async run(args, io) {
    const { values } = parseOptions(args, { grep: { type: "string" }, markdown: { type: "boolean" }, help: { type: "boolean", short: "h" } });
    if (values.help) {
      io.stdout(this.usage);
      return 0;
    }
    const clauses = selectClauses(parseGrep(values.grep), CATALOGUE);
    if (values.markdown) {
      io.stdout("| ID | Statement | Source | Profiles |\n|---|---|---|---|\n");
      for (const c of clauses) io.stdout(`| \`${c.id}\` | ${c.statement.replace(/\|/g, "\\|")} | ${c.source} | ${c.profiles.join(", ")} |\n`);
    } else for (const c of clauses) io.stdout(`${c.id}  [${c.profiles.join(",")}]\n    ${c.statement}\n    source: ${c.source}\n`);
    return 0;
  },
};
