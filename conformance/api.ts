// The programmatic API (`import { runConformance } from "gentle-relay-conformance"`): the same runs and reports as the
// CLI's `run`, `list` and `verify`, without process exits or console output unless the caller asks for it.
import { resolve } from "node:path";
import { CATALOGUE, selectClauses } from "./clauses/index.ts";
import { UsageError } from "./cli/command.ts";
import { DEFAULT_RUNS, DEFAULT_TIMEOUT_MS, verdictExit } from "./clauses/catalogue-options.ts";
import { parseGrep, parseProfiles, resolveRelayPath } from "./cli/options.ts";
import { harnessPaths } from "./paths.ts";
import { clauseLine, consoleTable } from "./report/console.ts";
import { ReportSchema, type ClauseResult, type Report } from "./report/report-schema.ts";
import { RelayLoadError, runCatalogue } from "./runner/run-catalogue.ts";
import { catalogueDigest, parseShard, shardClauses } from "./runner/shard.ts";
import { verifyBinary as verifyBinaryReport, VerifyInputError, type VerifyOptions } from "./verify/verify.ts";
import { VerifyReportSchema, type VerifyReport } from "./verify/report-schema.ts";
import type { Profile } from "../simulator/scenario/schema.ts";

export {
  ReportSchema,
  REPORT_SCHEMA_ID,
  type ClauseResult,
  type ClauseStatus,
  type ProfileResult,
  type Report,
} from "./report/report-schema.ts";
export {
  VerifyReportSchema,
  VERIFY_REPORT_SCHEMA_ID,
  type VerifyReport,
  type ProbeResult,
  type GoldenCheck,
} from "./verify/report-schema.ts";
export { HarnessError } from "./clauses/types.ts";
export { junitXml } from "./report/junit.ts";
export { markdownSummary } from "./report/markdown.ts";
export { verdictExit } from "./clauses/catalogue-options.ts";
export type { Profile } from "../simulator/scenario/schema.ts";
export type { VerifyProgress } from "./verify/verify.ts";

/** Bad input to the API (what the CLI reports with exit 2): an unknown profile, a missing relay, a bad pattern. */
export class ConformanceInputError extends Error {
  override readonly name = "ConformanceInputError";
}

/** What `runConformance` runs; every field mirrors a `relay-conformance run` option and defaults like it. */
export interface RunConformanceOptions {
  /** Relay module exporting runReviewHostRelaySlot (default: this package's relay/index.ts); relative to `cwd`. */
  readonly relay?: string;
  /** Only clauses whose ID matches this case-insensitive regular expression. */
  readonly grep?: string;
  /** "2.3.0" | "2.4.0" | "2.5.0" | "all" (default all). */
  readonly profiles?: readonly string[];
  /** fast-check runs per property and profile (default 4). */
  readonly runs?: number;
  /** fast-check seed (default: random; the report carries it). */
  readonly seed?: number;
  /** Per-case bound on the relay call, in load-scaled ms (default 20000). */
  readonly timeoutMs?: number;
  /** Wall-clock bound on the whole run, in ms. */
  readonly deadlineMs?: number;
  /** Cases in flight (default 2). */
  readonly concurrency?: number;
  /** Where failing properties save counterexamples (default `<cwd>/.relay-conformance/counterexamples`). */
  readonly counterexampleDir?: string;
  /** Run only this shard of a sharded run, `"i/n"` (see `run --shard`); merge the reports with merge-reports. */
  readonly shard?: string;
  /** A fresh adapter process per case. */
  readonly isolate?: boolean;
  /** Folder relative paths are resolved against (default process.cwd()). */
  readonly cwd?: string;
  /** Called with each clause's result as it finishes. */
  readonly onClause?: (result: ClauseResult) => void;
  /** Write the CLI's lines (one per clause, then the table) here; nothing is written when absent. */
  readonly log?: (text: string) => void;
}

const count = (name: string, value: number | undefined, fallback: number, min = 0): number => {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < min)
    throw new ConformanceInputError(`${name} must be an integer ≥ ${min}, got ${value}`);
  return value;
};

/** The CLI's bad-input errors (its exit 2) as ConformanceInputError; anything else unchanged. */
function inputError(error: unknown): unknown {
  return error instanceof UsageError || error instanceof RelayLoadError || error instanceof VerifyInputError
    ? new ConformanceInputError(error.message)
    : error;
}

/** Runs `f`, rethrowing bad input as ConformanceInputError. */
function asInputError<T>(f: () => T): T {
  try {
    return f();
  } catch (error) {
    throw inputError(error);
  }
}

/** Awaits `f`, rethrowing bad input as ConformanceInputError. */
async function asInputErrorAsync<T>(f: () => Promise<T>): Promise<T> {
  try {
    return await f();
  } catch (error) {
    throw inputError(error);
  }
}

/**
 * Runs the clause catalogue against a relay and returns the report `run --json` writes, validated by ReportSchema.
 * Throws ConformanceInputError on bad input and HarnessError when the harness cannot run at all.
 */
export async function runConformance(options: RunConformanceOptions = {}): Promise<Report> {
  const cwd = options.cwd ?? process.cwd();
  const relayModule =
    options.relay !== undefined
      ? asInputError(() => resolveRelayPath(cwd, options.relay!))
      : harnessPaths().defaultRelay;
  const profiles: Profile[] = asInputError(() => parseProfiles(options.profiles));
  const grep = asInputError(() => parseGrep(options.grep));
  const clauses = selectClauses(grep, CATALOGUE);
  if (clauses.length === 0) throw new ConformanceInputError(`grep ${JSON.stringify(grep)} matches no clause`);
  const seed = count("seed", options.seed, Math.floor(Math.random() * 2 ** 31));
  const runs = count("runs", options.runs, DEFAULT_RUNS);
  const shard = options.shard === undefined ? undefined : parseShard(options.shard);
  if (options.shard !== undefined && shard === undefined)
    throw new ConformanceInputError(`shard must be i/n with 1 ≤ i ≤ n, got ${JSON.stringify(options.shard)}`);
  const log = options.log;
  const report = await asInputErrorAsync(() =>
    runCatalogue({
      relayModule,
      clauses: shard === undefined ? clauses : shardClauses(clauses, profiles, runs, shard),
      profiles,
      runs,
      seed,
      timeoutMs: count("timeoutMs", options.timeoutMs, DEFAULT_TIMEOUT_MS, 1),
      concurrency: count("concurrency", options.concurrency, 2, 1),
      ...(options.deadlineMs === undefined ? {} : { deadlineMs: count("deadlineMs", options.deadlineMs, 0, 1) }),
      counterexampleDir: resolve(cwd, options.counterexampleDir ?? ".relay-conformance/counterexamples"),
      catalogue: catalogueDigest(CATALOGUE),
      ...(shard === undefined ? {} : { shard: { ...shard, selected: clauses.length } }),
      isolate: options.isolate ?? false,
      onClause: (c) => {
        options.onClause?.(c);
        log?.(clauseLine(c));
      },
    }),
  );
  log?.(consoleTable(report));
  return ReportSchema.parse(report);
}

/** One catalogue entry, as `relay-conformance list` prints it. */
export interface ClauseInfo {
  readonly id: string;
  readonly statement: string;
  readonly source: string;
  readonly profiles: readonly Profile[];
}

/** The clause catalogue, optionally only the IDs matching `grep` (case-insensitive). */
export function listClauses(options: { readonly grep?: string } = {}): ClauseInfo[] {
  const grep = asInputError(() => parseGrep(options.grep));
  return selectClauses(grep, CATALOGUE).map((c) => ({
    id: c.id,
    statement: c.statement,
    source: c.source,
    profiles: [...c.profiles],
  }));
}

/** What `verifyBinary` probes; the fields of `relay-conformance verify`. */
export type VerifyBinaryOptions = VerifyOptions;

/**
 * Probes a gentle-ai binary for drift and returns the report `verify --json` writes, validated by VerifyReportSchema.
 */
export async function verifyBinary(options: VerifyBinaryOptions): Promise<VerifyReport> {
  const report = await asInputErrorAsync(() =>
    verifyBinaryReport({ ...options, binary: resolve(options.callerCwd ?? process.cwd(), options.binary) }),
  );
  return VerifyReportSchema.parse(report);
}

/** True when the report passes (what `run` exits 0 for). */
export function passed(report: Report): boolean {
  return verdictExit(report.summary) === 0;
}
