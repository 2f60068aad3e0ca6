// `relay-conformance upstream-lanes`: gentle-pi's own real-binary lanes, with the simulator as their gentle-ai.
import { resolve } from "node:path";
import { PROFILES, type Profile } from "../../simulator/scenario/schema.ts";
import { UsageError, type Command } from "../cli/command.ts";
import { HELP_OPTION, outputFileOption, parseCount, parseOptions, type OptionTable } from "../cli/options.ts";
import { usageText } from "../cli/usage.ts";
import { startProgress } from "../cli/progress.ts";
import { writeReportFile } from "../cli/write-report.ts";
import { LaneInputError } from "./checkout.ts";
import { defaultDepsCache } from "./lane-deps.ts";
import { LaneNameSchema, type LaneName, type LanesReport } from "./report-schema.ts";
import { runUpstreamLanes } from "./run-lanes.ts";

const ALL_LANES: readonly LaneName[] = LaneNameSchema.options;

// The positive lane needs a live review session, which only the simulator can pin (a scenario lineage).
const BINARY_LANES: readonly LaneName[] = ["devbinary", "maintainer"];

/**
 * `--lane devbinary|maintainer|positive|all` (repeatable, comma lists); default all (with --binary, those it can run).
 */
function parseLanes(values: readonly string[] | undefined, binary: boolean): LaneName[] {
  const lanes = parseLaneNames(values);
  if (!binary) return lanes ?? [...ALL_LANES];
  if (lanes?.includes("positive")) {
    throw new UsageError("--lane positive cannot run with --binary: it needs the simulator's pinned review session");
  }
  return lanes ?? [...BINARY_LANES];
}

function parseLaneNames(values: readonly string[] | undefined): LaneName[] | undefined {
  if (!values || values.length === 0) return undefined;
  const out = new Set<LaneName>();
  for (const value of values.flatMap((v) => v.split(","))) {
    if (value === "all") ALL_LANES.forEach((l) => out.add(l));
    else if ((ALL_LANES as readonly string[]).includes(value)) out.add(value as LaneName);
    else throw new UsageError(`unknown lane ${JSON.stringify(value)} (expected ${ALL_LANES.join(", ")} or all)`);
  }
  return ALL_LANES.filter((l) => out.has(l));
}

/** The per-test table and the summary line. */
export function renderLanesReport(report: LanesReport): string {
  const width = Math.max(6, ...report.tests.map((t) => t.lane.length));
  const against =
    report.binary === undefined ? `simulator profile ${String(report.profile)}` : `gentle-ai ${report.binary}`;
  let out = `upstream-lanes: gentle-pi ${report.commit.slice(0, 8)} (${report.checkout}), ${against}\n`;
  for (const t of report.tests) {
    const ms = t.durationMs === null ? "" : ` (${t.durationMs} ms)`;
    out += `${t.status.toUpperCase().padEnd(4)}  ${t.lane.padEnd(width)}  ${t.file}: ${t.name}${ms}\n`;
    if (t.status === "fail" && t.detail !== "") out += `      ${t.detail}\n`;
  }
  const s = report.summary;
  out += `${s.passed} passed, ${s.failed} failed${s.skipped > 0 ? `, ${s.skipped} skipped` : ""}\n`;
  return out;
}

const LANES_OPTIONS = {
  "gentle-pi": { type: "string", valueName: "dir", description: "a gentle-pi git checkout" },
  lane: {
    type: "string",
    multiple: true,
    valueName: "l",
    description: "lanes to run (repeatable, comma lists; default all, with --binary devbinary,maintainer)",
  },
  profile: {
    type: "string",
    valueName: "p",
    description: "the simulator's profile (default 2.4.0, the release gentle-pi's compatibility check expects)",
  },
  binary: {
    type: "string",
    valueName: "gentle-ai",
    description:
      "run the devbinary and maintainer lanes against this gentle-ai (a real build) instead of the simulator",
  },
  "deps-cache": {
    type: "string",
    valueName: "dir",
    description: "where to install the lanes' dependencies",
    default: "$XDG_CACHE_HOME or ~/.cache, then gentle-relay-conformance/upstream-lanes",
  },
  "timeout-ms": { type: "string", valueName: "n", description: "bound of one lane file's run", default: "600000" },
  json: {
    type: "string",
    valueName: "file",
    description: "also write the report as JSON (schemas/upstream-lanes-report.schema.json)",
  },
  quiet: { type: "boolean", description: "no progress line" },
  help: HELP_OPTION,
} as const satisfies OptionTable;

export const upstreamLanesCommand: Command = {
  usage: usageText({
    synopsis: [
      "relay-conformance upstream-lanes --gentle-pi <checkout> [--lane devbinary|maintainer|positive|all]",
      "                                 [--profile 2.3.0|2.4.0|2.5.0 | --binary <gentle-ai>] [--deps-cache <dir>]",
      "                                 [--timeout-ms N] [--json <file>] [--quiet]",
    ],
    about: `Runs gentle-pi's real-binary lanes, which its CI cannot run without a real gentle-ai, against the simulator
(or, with --binary, against a real gentle-ai):
  devbinary    tests/devbinary/*.devtest.ts (GENTLE_AI_DEV_BINARY, GENTLE_PI_GENTLE_AI_DEV_BINARY; a missing binary
               fails instead of skipping: GENTLE_PI_REQUIRE_DEV_BINARY=1)
  maintainer   tests/maintainer/*.maintest.ts (a 2.3.0 baseline wrapper and the capable simulator;
               GENTLE_PI_REQUIRE_MAINTAINER=1)
  positive     scripts/maintainer/provider-relay-matrix.mjs, armed (GENTLE_PI_MAINTAINER_ARM_POSITIVE=1), one
               positive-lens case per pi slot of the simulator's STATUS
With --binary, the devbinary lane and the maintainer lane's capable binary are the given gentle-ai (the maintainer
baseline and pi stay the simulator's); the positive lane cannot run, as it needs a pinned review session.
The lanes run from a linked worktree of the checkout's HEAD (uncommitted changes are not in it), with Node's test
runner through this package's tsx, the fake pi first on PATH. Their test dependencies come from the checkout's
node_modules, or are installed once into the cache folder.`,
    options: LANES_OPTIONS,
    footer: `Exit 0: every test passed; 1: some test failed; 2: bad input (checkout, lanes, binary, install).
Progress goes to stderr: on a terminal one live line (lane files done/total, failed tests, elapsed time, ETA),
erased before any other line; otherwise (CI) a plain line every 10% of the files or every 10 s.`,
  }),
  async run(args, io) {
    if (args.includes("--help") || args.includes("-h")) {
      io.stdout(this.usage);
      return 0;
    }
    const { values } = parseOptions(args, LANES_OPTIONS);
    if (values["gentle-pi"] === undefined) throw new UsageError("upstream-lanes needs --gentle-pi <checkout>");
    const json = outputFileOption(io.cwd, "json", values.json);
    const binary = values.binary === undefined ? undefined : resolve(io.cwd, values.binary);
    if (values.binary === "") throw new UsageError("--binary needs a path to a gentle-ai binary");
    if (binary !== undefined && values.profile !== undefined)
      throw new UsageError("--profile and --binary exclude each other: --profile picks the simulator's release");
    const lanes = parseLanes(values.lane, binary !== undefined);
    const profile = (values.profile ?? "2.4.0") as Profile;
    if (!PROFILES.includes(profile))
      throw new UsageError(`unknown profile ${JSON.stringify(values.profile)} (expected ${PROFILES.join(", ")})`);
    const { progress, io: shown } = startProgress(
      io,
      "relay-conformance upstream-lanes",
      "files",
      values.quiet ?? false,
    );
    try {
      const report = await runUpstreamLanes({
        checkout: resolve(io.cwd, values["gentle-pi"]),
        lanes,
        profile,
        ...(binary === undefined ? {} : { binary }),
        depsCache: values["deps-cache"] === undefined ? defaultDepsCache() : resolve(io.cwd, values["deps-cache"]),
        timeoutMs: parseCount("timeout-ms", values["timeout-ms"], 600_000, 1),
        log: (line) => shown.stderr(`${line}\n`),
        onProgress: (counts) => progress.update(counts),
      });
      progress.finish();
      io.stdout(renderLanesReport(report));
      if (json !== undefined) writeReportFile(json, `${JSON.stringify(report, null, 2)}\n`);
      return report.summary.failed === 0 && report.tests.length > 0 ? 0 : 1;
    } catch (error) {
      if (error instanceof LaneInputError) throw new UsageError(error.message);
      throw error;
    } finally {
      progress.finish();
    }
  },
};
