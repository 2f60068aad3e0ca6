import { CATALOGUE } from "../clauses/index.ts";
import { clauseLine, consoleTable } from "./console.ts";
import { junitXml } from "./junit.ts";
import { markdownSummary } from "./markdown.ts";
import { MergeInputError, mergeReports } from "./merge.ts";
import { ReportSchema, type Report } from "./report-schema.ts";
import { writeReportFile } from "../cli/write-report.ts";
import { InputFileError, readJsonFile, schemaIssueText } from "../cli/json-file.ts";
import { UsageError, type Command } from "../cli/command.ts";
import { HELP_OPTION, outputFileOption, parseOptions, type OptionTable } from "../cli/options.ts";
import { usageText } from "../cli/usage.ts";
import { resolve } from "node:path";
import { verdictExit } from "../clauses/catalogue-options.ts";

const MERGE_OPTIONS = {
  json: { type: "string", valueName: "file", description: "write the merged JSON report (schemas/report.schema.json)" },
  junit: { type: "string", valueName: "file", description: "write JUnit XML (one suite per profile)" },
  markdown: { type: "string", valueName: "file", description: "write a Markdown summary" },
  help: HELP_OPTION,
} as const satisfies OptionTable;

export const mergeReportsCommand: Command = {
  usage: usageText({
    synopsis: ["relay-conformance merge-reports <report.json>… [--json <file>] [--junit <file>] [--markdown <file>]"],
    about: `Merges the JSON reports of every shard of one sharded run (\`run --shard i/n\` with the same --seed, --runs, --grep
and --profile) into the report the unsharded run gives: the same clauses in catalogue order, verdict and summary.
Prints the failing clauses' lines and the clause table. Reports with different seeds, relays, catalogues, profiles
or runs, a shard given twice or missing, are bad input (exit 2).`,
    options: MERGE_OPTIONS,
    footer: "Exit 0 every clause passes, 1 a clause fails, 2 bad input, 3 a harness error and no failure (as `run`).",
  }),
  async run(args, io) {
    const { values, positionals } = parseOptions(args, MERGE_OPTIONS, true);
    if (values.help) {
      io.stdout(this.usage);
      return 0;
    }
    if (positionals.length === 0) throw new UsageError("merge-reports needs the shards' JSON reports");
    const outputs = {
      json: outputFileOption(io.cwd, "json", values.json),
      junit: outputFileOption(io.cwd, "junit", values.junit),
      markdown: outputFileOption(io.cwd, "markdown", values.markdown),
    };
    let merged: Report;
    try {
      const reports = positionals.map((name) => {
        const value = readJsonFile(resolve(io.cwd, name), name);
        const parsed = ReportSchema.safeParse(value);
        if (!parsed.success)
          throw new InputFileError(`${name}: not a run report: ${schemaIssueText(ReportSchema, value)}`);
        return { name, report: parsed.data };
      });
      merged = mergeReports(
        reports,
        CATALOGUE.map((c) => c.id),
      );
    } catch (error) {
      if (error instanceof InputFileError || error instanceof MergeInputError) throw new UsageError(error.message);
      throw error;
    }
    if (outputs.json) writeReportFile(outputs.json, `${JSON.stringify(merged, null, 2)}\n`);
    if (outputs.junit) writeReportFile(outputs.junit, junitXml(merged));
    if (outputs.markdown) writeReportFile(outputs.markdown, markdownSummary(merged));
    for (const clause of merged.clauses)
      if (clause.status === "fail" || clause.status === "error") io.stdout(clauseLine(clause));
    io.stdout(consoleTable(merged));
    return verdictExit(merged.summary);
  },
};
