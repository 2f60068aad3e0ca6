import { resolve } from "node:path";
import { harnessPaths } from "../paths.ts";
import { clauseLine, consoleTable } from "../report/console.ts";
import { junitXml } from "../report/junit.ts";
import { markdownSummary } from "../report/markdown.ts";
import { startProgress, type Progress } from "../cli/progress.ts";
import { STDOUT_TARGET, writeReportTo } from "../cli/write-report.ts";
import { HarnessError } from "../clauses/types.ts";
import { RelayLoadError, runCatalogue, type RunOptions as CatalogueRunOptions } from "./run-catalogue.ts";
import { catalogueDigest, parseShard, shardClauses } from "./shard.ts";
import { CATALOGUE } from "../clauses/index.ts";
import {
  CATALOGUE_OPTIONS,
  catalogueSelection,
  HARNESS_ERROR_EXIT,
  verdictExit,
} from "../clauses/catalogue-options.ts";
import { UsageError, type Command, type CommandIo } from "../cli/command.ts";
import {
  HELP_OPTION,
  outputTarget,
  parseDuration,
  parseOptions,
  resolveRelayPath,
  type OptionTable,
} from "../cli/options.ts";
import { usageText } from "../cli/usage.ts";

export const RUN_OPTIONS = {
  relay: {
    type: "string",
    valueName: "path",
    description: "TS or JS module exporting runReviewHostRelaySlot (gentle-pi's lib/review-host-relay.ts works)",
    default: "this package's relay/index.ts",
  },
  ...CATALOGUE_OPTIONS,
  deadline: {
    type: "string",
    valueName: "d",
    description:
      'wall-clock bound on the whole run (90s, 10m, 1h): past it the run stops, reports what finished and marks every unfinished clause "error"',
  },
  json: {
    type: "string",
    valueName: "file",
    description:
      "write the JSON report (schemas/report.schema.json); `-` writes it to stdout, and then every other line goes to stderr (--junit and --markdown take `-` too, one of them at a time)",
  },
  junit: { type: "string", valueName: "file", description: "write JUnit XML (one suite per profile)" },
  markdown: { type: "string", valueName: "file", description: "write a Markdown summary" },
  counterexamples: {
    type: "string",
    valueName: "dir",
    description: "where failing properties save counterexamples",
    default: ".relay-conformance/counterexamples",
  },
  isolate: {
    type: "boolean",
    description: "a fresh adapter process per case (slower; default: one per lane, replaced after a crash or timeout)",
  },
  keep: {
    type: "boolean",
    description: "keep the run's temp folders, also when interrupted (for debugging; their path goes to stderr)",
  },
  quiet: {
    type: "boolean",
    description:
      "no header, no progress line and no line for a clause that passed or was skipped: the failing (and harness error) clauses' lines with their reasons, the table and the summary",
  },
  shard: {
    type: "string",
    valueName: "i/n",
    description:
      "run only shard i of n (a CI job matrix): every clause, with all its profiles and checks, runs in exactly one shard, chosen deterministically; pass the same --seed, --runs, --grep and --profile to every shard, then `relay-conformance merge-reports` their --json reports",
  },
  help: HELP_OPTION,
} as const satisfies OptionTable;

export const runCommand: Command = {
  usage: usageText({
    synopsis: ["relay-conformance run [options]"],
    about: `Runs every clause of the relay contract against a relay module (default: this package's relay/index.ts)
on every selected gentle-ai profile. Exit 0 when every applicable clause passes, 1 when any clause fails,
2 on bad input, 3 on a harness error (a clause the harness could not decide, reported as "error", and no failure).`,
    options: RUN_OPTIONS,
    footer: `Progress goes to stderr: on a terminal one live line (cases done/total, failed clauses, elapsed time, ETA),
erased before any other line; otherwise (CI) a plain line every 10% of the cases or every 10 s.`,
  }),
  async run(args, io) {
    const { values, positionals } = parseOptions(args, RUN_OPTIONS, true);
    if (values.help) {
      io.stdout(this.usage);
      return 0;
    }
    if (positionals.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(positionals[0])}`);
    const relayModule =
      values.relay !== undefined ? resolveRelayPath(io.cwd, values.relay) : harnessPaths().defaultRelay;
    const { clauses, profiles, seed, runs, timeoutMs, concurrency } = catalogueSelection(values);
    const shard = values.shard === undefined ? undefined : parseShard(values.shard);
    if (values.shard !== undefined && shard === undefined)
      throw new UsageError(`--shard must be i/n with 1 ≤ i ≤ n, got ${JSON.stringify(values.shard)}`);
    const planned = shard === undefined ? clauses : shardClauses(clauses, profiles, runs, shard);
    const deadlineMs = parseDuration("deadline", values.deadline);
    const { outputs, toStdout } = reportOutputs(io.cwd, values);
    // With a report on stdout, every line for people goes to stderr.
    const human = toStdout ? { ...io, stdout: io.stderr } : io;
    const { progress, io: shown } = startProgress(human, "relay-conformance run", "cases", values.quiet ?? false);
    let report;
    try {
      report = await runCatalogue({
        relayModule,
        clauses: planned,
        profiles,
        runs,
        seed,
        timeoutMs,
        concurrency,
        ...(deadlineMs === undefined ? {} : { deadlineMs }),
        counterexampleDir: resolve(io.cwd, values.counterexamples ?? ".relay-conformance/counterexamples"),
        catalogue: catalogueDigest(CATALOGUE),
        ...(shard === undefined ? {} : { shard: { ...shard, selected: clauses.length } }),
        isolate: values.isolate ?? false,
        keep: values.keep ?? false,
        ...(values.keep
          ? {
              onRunRoot: (dir: string) =>
                shown.stderr(`relay-conformance: --keep: the run's temp folders stay in ${dir}\n`),
            }
          : {}),
        ...(values.quiet
          ? {}
          : {
              onStart: () =>
                shown.stdout(
                  `relay-conformance: ${relayModule}\nprofiles ${profiles.join(", ")}; ${shard === undefined ? "" : `shard ${shard.index}/${shard.count}: ${planned.length} of `}${clauses.length} clauses; seed ${seed}; ${runs} property runs\n\n`,
                ),
            }),
        ...progressCallbacks(progress, shown, values.quiet ?? false),
      });
    } catch (error) {
      if (error instanceof RelayLoadError) throw new UsageError(error.message);
      if (error instanceof HarnessError) {
        progress.finish();
        shown.stderr(`relay-conformance: harness error: ${error.message}\n`);
        return HARNESS_ERROR_EXIT;
      }
      throw error;
    } finally {
      progress.finish();
    }
    if (outputs.json) writeReportTo(outputs.json, `${JSON.stringify(report, null, 2)}\n`, io.stdout);
    if (outputs.junit) writeReportTo(outputs.junit, junitXml(report), io.stdout);
    if (outputs.markdown) writeReportTo(outputs.markdown, markdownSummary(report), io.stdout);
    shown.stdout(consoleTable(report));
    return verdictExit(report.summary);
  },
};

/** Where --json, --junit and --markdown go, and whether one of them is stdout (at most one may be). */
function reportOutputs(
  cwd: string,
  values: { readonly json?: string; readonly junit?: string; readonly markdown?: string },
): { outputs: { json?: string; junit?: string; markdown?: string }; toStdout: boolean } {
  const outputs = {
    json: outputTarget(cwd, "json", values.json),
    junit: outputTarget(cwd, "junit", values.junit),
    markdown: outputTarget(cwd, "markdown", values.markdown),
  };
  const toStdout = Object.entries(outputs).flatMap(([name, target]) => (target === STDOUT_TARGET ? [`--${name}`] : []));
  if (toStdout.length > 1)
    throw new UsageError(`only one report can go to stdout: ${toStdout.join(" and ")} are both -`);
  return { outputs, toStdout: toStdout.length > 0 };
}

/** The run's callbacks that print clause lines and keep the progress line's counts. */
function progressCallbacks(
  progress: Progress,
  shown: CommandIo,
  quiet: boolean,
): Pick<CatalogueRunOptions, "onClause" | "onPlan" | "onCase"> {
  let [done, total, failed] = [0, 0, 0];
  const tally = (): void => progress.update({ done, total, failed });
  return {
    onClause: (c) => {
      const bad = c.status === "fail" || c.status === "error";
      // A CI log must say why a clause failed, not only that it did: under --quiet failures keep their line.
      if (bad || !quiet) shown.stdout(clauseLine(c));
      if (bad) {
        failed += 1;
        tally();
      }
    },
    onPlan: (count) => {
      total = count;
      tally();
    },
    onCase: (_id, _profile, finished) => {
      done = finished;
      tally();
    },
  };
}
