// `relay-conformance mutate`: how strong the gate is. Mutates the relay with StrykerJS's instrumenter and runs the
// clause catalogue as the test suite (mutate.ts), then writes the mutation-testing-report-schema JSON, the HTML
// page and the console summary (report.ts).
import { execFileSync } from "node:child_process";
import { dirname } from "node:path";
import { HarnessError } from "../clauses/types.ts";
import { UsageError, type Command } from "../cli/command.ts";
import {
  catalogueSelection,
  CATALOGUE_OPTIONS,
  DEFAULT_CONCURRENCY,
  DEFAULT_TIMEOUT_MS,
  HARNESS_ERROR_EXIT,
} from "../clauses/catalogue-options.ts";
import { HELP_OPTION, outputTarget, parseOptions, resolveRelayPath, type OptionTable } from "../cli/options.ts";
import { usageText } from "../cli/usage.ts";
import { harnessPaths } from "../paths.ts";
import { startProgress } from "../cli/progress.ts";
import { STDOUT_TARGET, writeReportTo } from "../cli/write-report.ts";
import { BaselineFailure, mutateRelay, type MutateOptions, type MutateResult } from "./mutate.ts";
import { consoleSummary, countMutants, htmlReport, mutationReport, mutationScore } from "./report.ts";
import { changedLines, defaultTargets, globTargets, isInside } from "./targets.ts";

const { grep, profile, runs, seed } = CATALOGUE_OPTIONS;

export const MUTATE_OPTIONS = {
  relay: {
    type: "string",
    valueName: "path",
    description: "TS or JS module exporting runReviewHostRelaySlot (gentle-pi's lib/review-host-relay.ts works)",
    default: "this package's relay/index.ts",
  },
  mutate: {
    type: "string",
    multiple: true,
    valueName: "glob",
    description: "files to mutate, relative to the current folder, inside the relay's folder (repeatable)",
    default: "the relay file and the files it imports from its folder",
  },
  since: {
    type: "string",
    valueName: "ref",
    description: "mutate only the lines changed since this git ref (a pull request's base)",
  },
  grep,
  profile,
  runs,
  seed,
  "timeout-ms": {
    type: "string",
    valueName: "n",
    description:
      "per-case bound of the coverage run, in load-scaled time, as for `run`; a mutant's case gets 1.5 × its coverage-run time + 5 s, at most this, and past it the mutant is a timeout",
    default: String(DEFAULT_TIMEOUT_MS),
  },
  concurrency: {
    type: "string",
    valueName: "n",
    description: "lanes: mutants in flight, each lane one relay host",
    default: String(DEFAULT_CONCURRENCY),
  },
  json: {
    type: "string",
    valueName: "file",
    description:
      "write the mutation-testing-report-schema JSON report; `-` writes it to stdout (and the summary to stderr)",
  },
  html: {
    type: "string",
    valueName: "file",
    description: "write the report as one self-contained HTML page (mutation-testing-elements, no network)",
  },
  break: { type: "string", valueName: "score", description: "exit 1 when the mutation score (0-100) is below this" },
  quiet: { type: "boolean", description: "no header and no progress line" },
  help: HELP_OPTION,
} as const satisfies OptionTable;

/** --break: a number from 0 to 100. */
function parseBreak(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === "" || !Number.isFinite(n) || n < 0 || n > 100)
    throw new UsageError(`--break must be a score from 0 to 100, got ${JSON.stringify(value)}`);
  return n;
}

/** The ref must name a commit of the relay's repository. */
function checkRef(ref: string, cwd: string): void {
  try {
    execFileSync("git", ["rev-parse", "--verify", "--quiet", `${ref}^{commit}`], { cwd, stdio: "ignore" });
  } catch {
    throw new UsageError(`--since ${JSON.stringify(ref)} is not a commit of the git repository at ${cwd}`);
  }
}

export const mutateCommand: Command = {
  usage: usageText({
    synopsis: ["relay-conformance mutate [options]"],
    about: `Mutation testing of a relay against the clause catalogue: how strong is the gate? StrykerJS's instrumenter
makes the mutants (its standard mutators); one run of the catalogue on the unmutated relay must pass (else exit 2,
naming the failing clauses) and records which clause cases execute each mutant; each mutant then runs only those
clauses, the likeliest killer first, up to the first that kills it. Mutant switching: each lane loads the
instrumented relay once; cases that wait a prescribed time run on wait lanes beside them. Statuses: killed, survived,
timeout (counted as detected), no coverage, and compile error, runtime error and ignored (a \`// Stryker disable\`
comment's mutant, never run), not counted. Exit 0, or 1 when the score is below --break, 2 on bad input, 3 on a
harness error.`,
    options: MUTATE_OPTIONS,
    footer: `The console shows the score, the counts, then every survivor: file:line, the replacement as a diff, and
"no clause pins this behaviour". The JSON names the clause that killed each mutant. Progress goes to stderr as for
\`run\`: mutants done/total, survivors so far, elapsed time and ETA.`,
  }),
  async run(args, io) {
    const { values, positionals } = parseOptions(args, MUTATE_OPTIONS, true);
    if (values.help) {
      io.stdout(this.usage);
      return 0;
    }
    if (positionals.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(positionals[0])}`);
    const request = mutateRequest(values, io.cwd);
    const human = request.json === STDOUT_TARGET || request.html === STDOUT_TARGET ? { ...io, stdout: io.stderr } : io;
    const quiet = values.quiet ?? false;
    const { progress, io: shown } = startProgress(
      human,
      "relay-conformance mutate",
      "mutants",
      quiet,
      undefined,
      "survived",
    );
    const { relay, files, selection } = request;
    if (!quiet)
      shown.stdout(
        `relay-conformance mutate: ${relay}\n${files.length} file(s); profiles ${selection.profiles.join(", ")}; seed ${selection.seed}; ${selection.runs} property runs\n`,
      );
    let result: MutateResult;
    try {
      result = await mutateWithProgress(request, progress, quiet ? () => undefined : shown.stdout);
    } catch (error) {
      if (!(error instanceof HarnessError)) throw error;
      shown.stderr(`relay-conformance: harness error: ${error.message}\n`);
      return HARNESS_ERROR_EXIT;
    } finally {
      progress.finish();
    }
    return writeReports(result, request, io, shown);
  },
};

type MutateValues = ReturnType<typeof parseOptions<typeof MUTATE_OPTIONS>>["values"];

/** What one `mutate` call asks for, checked: the relay, the files, the lines, the catalogue and the outputs. */
interface MutateRequest {
  readonly relay: string;
  readonly folder: string;
  readonly files: readonly string[];
  readonly lines: MutateOptions["lines"];
  readonly since: string | undefined;
  readonly selection: ReturnType<typeof catalogueSelection>;
  readonly breakAt: number | undefined;
  readonly json: ReturnType<typeof outputTarget>;
  readonly html: ReturnType<typeof outputTarget>;
}

/** Reads and checks the options (a UsageError, exit 2, names the bad one). */
function mutateRequest(values: MutateValues, cwd: string): MutateRequest {
  const relay = values.relay !== undefined ? resolveRelayPath(cwd, values.relay) : harnessPaths().defaultRelay;
  const folder = dirname(relay);
  const selection = catalogueSelection(values);
  const files = values.mutate === undefined ? defaultTargets(relay, folder) : globTargets(folder, cwd, values.mutate);
  if (files.length === 0)
    throw new UsageError(`--mutate ${values.mutate?.join(" ") ?? ""} matches no source file in ${folder}`);
  if (!files.every((f) => f === relay || isInside(folder, f)))
    throw new UsageError(`--mutate must name files inside the relay's folder ${folder}`);
  if (values.since !== undefined) checkRef(values.since, folder);
  const lines = values.since === undefined ? undefined : changedLines(values.since, files);
  const breakAt = parseBreak(values.break);
  const json = outputTarget(cwd, "json", values.json);
  const html = outputTarget(cwd, "html", values.html);
  if (html === STDOUT_TARGET && json === STDOUT_TARGET)
    throw new UsageError("only one report can go to stdout: --json and --html are both -");
  return { relay, folder, files, lines, since: values.since, selection, breakAt, json, html };
}

/** Runs the mutation testing with the progress line; a failing coverage run is bad input (exit 2). */
async function mutateWithProgress(
  request: MutateRequest,
  progress: ReturnType<typeof startProgress>["progress"],
  say: (text: string) => void,
): Promise<MutateResult> {
  const { grep: _grep, ...catalogue } = request.selection;
  let survived = 0;
  try {
    return await mutateRelay({
      relay: request.relay,
      folder: request.folder,
      files: request.files,
      ...(request.lines === undefined ? {} : { lines: request.lines }),
      ...catalogue,
      onPlan: (total, coverageMs) => {
        say(`coverage run passed in ${(coverageMs / 1000).toFixed(1)}s; ${total} mutants to test\n`);
        progress.update({ done: 0, total, failed: 0 });
      },
      onMutant: (mutant, done, total) => {
        if (mutant.status === "Survived" || mutant.status === "NoCoverage") survived += 1;
        progress.update({ done, total, failed: survived });
      },
    });
  } catch (error) {
    if (!(error instanceof BaselineFailure)) throw error;
    throw new UsageError(
      `${error.message}; mutation testing needs a relay that passes: ${error.failing.map((f) => `${f.id}: ${f.message.split("\n")[0] ?? ""}`).join("; ")}`,
      { hint: false },
    );
  }
}

/** Writes the JSON and HTML reports and the console summary; exit 1 below --break. */
function writeReports(
  result: MutateResult,
  request: MutateRequest,
  io: { readonly cwd: string; stdout(text: string): void },
  shown: { stdout(text: string): void },
): number {
  const { profiles, seed, runs, concurrency } = request.selection;
  const { breakAt } = request;
  const report = mutationReport(result, {
    cwd: io.cwd,
    ...(breakAt === undefined ? {} : { breakAt }),
    config: {
      relay: request.relay,
      profiles,
      seed,
      runs,
      concurrency,
      ...(request.since === undefined ? {} : { since: request.since }),
    },
  });
  if (request.json) writeReportTo(request.json, `${JSON.stringify(report, null, 2)}\n`, io.stdout);
  if (request.html) writeReportTo(request.html, htmlReport(report, "relay-conformance mutate"), io.stdout);
  shown.stdout(consoleSummary(result, io.cwd));
  const score = mutationScore(countMutants(result.mutants));
  if (breakAt !== undefined && score < breakAt) {
    shown.stdout(`mutation score ${score.toFixed(2)}% is below --break ${breakAt}\n`);
    return 1;
  }
  return 0;
}
