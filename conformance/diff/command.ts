// `relay-conformance diff`: the verified fake. Every scenario of a corpus runs against a gentle-ai build and against
// the simulator in the same profile, and the two transcripts must match byte for byte after the documented rules.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { UsageError, type Command, type CommandIo } from "../cli/command.ts";
import { executableOption } from "../cli/executable-option.ts";
import { HELP_OPTION, outputFileOption, parseCount, parseOptions, type OptionTable } from "../cli/options.ts";
import { usageText } from "../cli/usage.ts";
import { binaryVersion } from "../record/record.ts";
import { startProgress, type Progress } from "../cli/progress.ts";
import { writeReportFile } from "../cli/write-report.ts";
import { trackTempDir } from "../process/teardown.ts";
import { profileOfVersionOutput, profileOption, PROFILES } from "../cli/profile.ts";
import { corpusScripts, loadScripts } from "./corpus.ts";
import { runGenerated } from "./generate.ts";
import { summaryLines, verdictLines } from "./render.ts";
import { DIFF_REPORT_SCHEMA_ID, type DiffReport, type ScenarioVerdict } from "./report-schema.ts";
import { diffScript, worldRoot, type DiffSides } from "./run-diff.ts";
import type { Reproduction } from "../repro/format.ts";

const DIFF_OPTIONS = {
  binary: { type: "string", valueName: "gentle-ai", description: "the gentle-ai build to compare with the simulator" },
  profile: {
    type: "string",
    valueName: PROFILES.join("|"),
    description: "the simulator profile",
    default: "derived from `<binary> version`",
  },
  script: {
    type: "string",
    multiple: true,
    valueName: "file.txtar",
    description: "scenario scripts to run (repeatable)",
    default: "the shipped corpus, golden/diff/*.txtar, unless --generated is given",
  },
  generated: {
    type: "string",
    valueName: "N",
    description: "also run N generated calls (fast-check); a divergence shrinks to a minimal call, saved as a script",
  },
  seed: { type: "string", valueName: "S", description: "the generator's seed", default: "1" },
  json: {
    type: "string",
    valueName: "file",
    description: "write the whole report (schemas/diff-report.schema.json) there",
  },
  keep: { type: "string", valueName: "dir", description: "keep each side's raw transcripts and step log there" },
  quiet: { type: "boolean", description: "no progress line" },
  help: HELP_OPTION,
} as const satisfies OptionTable;

function summarise(scenarios: readonly ScenarioVerdict[]): DiffReport["summary"] {
  const count = (s: ScenarioVerdict["status"]): number => scenarios.filter((v) => v.status === s).length;
  return {
    scenarios: scenarios.length,
    passed: count("pass"),
    diverged: count("diverge"),
    skipped: count("skip"),
    errors: count("error"),
    calls: scenarios.reduce((n, v) => n + v.calls, 0),
  };
}

export const diffCommand: Command = {
  usage: usageText({
    synopsis: [
      "relay-conformance diff --binary <gentle-ai> [--profile p] [--script f.txtar]... [--generated N --seed S]",
      "                       [--json <file>] [--keep <dir>] [--quiet]",
    ],
    about: `Runs each scenario twice: against the binary, then against the simulator in the same profile, each side in a
fresh world at the same paths (a repository built with pinned Git identity and dates, a fresh HOME and TMPDIR, the
environment allow-list CI=1 GENTLE_AI_NO_SELF_UPDATE=1, closed stdin, no claude or codex on PATH), every call
recorded through the same shims. Exit code, stdout, stderr, stdin and the files a call read are compared byte for
byte after the rules in docs/differential.md; everything else is compared raw. One line per scenario; a divergence
prints its call, the first differing byte and both sides' bytes.`,
    options: DIFF_OPTIONS,
    footer: "Exit 0: no divergence; 1: a divergence; 2: bad input; 3: harness error (a binary that timed out).",
  }),
  async run(args, io) {
    const { values } = parseOptions(args, DIFF_OPTIONS);
    if (values.help) {
      io.stdout(this.usage);
      return 0;
    }
    if (values.binary === undefined) throw new UsageError("diff needs --binary <gentle-ai>");
    const binary = executableOption("--binary", values.binary, io.cwd);
    const json = outputFileOption(io.cwd, "json", values.json);
    const generated = values.generated === undefined ? undefined : parseCount("generated", values.generated, 0, 1);
    const seed = parseCount("seed", values.seed, 1);
    if (values.generated === undefined && values.seed !== undefined)
      throw new UsageError("--seed goes with --generated");
    const flagged = profileOption(values.profile);
    // --generated alone runs only generated calls; the corpus runs when no --script names other scripts.
    const scripts =
      values.script === undefined && generated !== undefined
        ? []
        : loadScripts(values.script ?? corpusScripts(), io.cwd);
    const version = await binaryVersion(binary, null);
    const profile = flagged ?? profileOfVersionOutput(version);
    const runDir = mkdtempSync(join(tmpdir(), "relay-conformance-diff-"));
    const untrack = trackTempDir(runDir);
    const { progress, io: shown } = startProgress(io, "relay-conformance diff", "scenarios", values.quiet ?? false);
    const sides = {
      binary,
      profile,
      root: worldRoot(runDir),
      ...(values.keep === undefined ? {} : { keep: resolve(io.cwd, values.keep) }),
    };
    try {
      const scenarios = await runScripts(scripts, sides, progress, shown);
      progress.finish();
      const gen =
        generated === undefined
          ? undefined
          : await runGeneratedCalls(io, { runs: generated, seed, sides, quiet: values.quiet ?? false });
      progress.finish();
      const report: DiffReport = {
        schema: DIFF_REPORT_SCHEMA_ID,
        binary: { path: binary, version },
        profile,
        scenarios,
        ...(gen ? { generated: gen } : {}),
        summary: summarise(scenarios),
      };
      for (const l of summaryLines(report)) io.stdout(`${l}\n`);
      if (json !== undefined) writeReportFile(json, `${JSON.stringify(report, null, 2)}\n`);
      if (report.summary.diverged > 0 || gen?.divergence !== undefined) return 1;
      return report.summary.errors > 0 ? 3 : 0;
    } finally {
      progress.finish();
      rmSync(runDir, { recursive: true, force: true });
      untrack();
    }
  },
};

/** Each script on both sides in turn, printing its verdict lines; returns the verdicts. */
async function runScripts(
  scripts: readonly Reproduction[],
  sides: DiffSides,
  progress: Progress,
  shown: CommandIo,
): Promise<ScenarioVerdict[]> {
  const scenarios: ScenarioVerdict[] = [];
  for (const script of scripts) {
    progress.update({
      done: scenarios.length,
      total: scripts.length,
      failed: scenarios.filter((v) => v.status !== "pass" && v.status !== "skip").length,
    });
    const verdict = await diffScript(script, sides);
    scenarios.push(verdict);
    for (const l of verdictLines(verdict)) shown.stdout(`${l}\n`);
  }
  return scenarios;
}

/** --generated: fast-check calls on both sides, with a progress line of their own (they count calls, not scenarios). */
async function runGeneratedCalls(
  io: CommandIo,
  options: { readonly runs: number; readonly seed: number; readonly sides: DiffSides; readonly quiet: boolean },
): Promise<NonNullable<DiffReport["generated"]>> {
  const { runs, seed, sides } = options;
  const calls = startProgress(io, "relay-conformance diff --generated", "calls", options.quiet);
  try {
    calls.progress.update({ done: 0, total: runs, failed: 0 });
    return await runGenerated({
      runs,
      seed,
      sides,
      saveDir: io.cwd,
      onCalls: (done, diverged) => calls.progress.update({ done, total: runs, failed: diverged ? 1 : 0 }),
      log: (l) => calls.io.stderr(`${l}\n`),
    });
  } finally {
    calls.progress.finish();
  }
}
