// `relay-conformance fidelity --contracts <dir>`: is every document the simulator prints valid against gentle-ai's own
// published schemas?
import { writeReportFile } from "../cli/write-report.ts";
import { UsageError, type Command, type CommandIo } from "../cli/command.ts";
import {
  HELP_OPTION,
  outputFileOption,
  parseCount,
  parseOptions,
  parseProfiles,
  type OptionTable,
} from "../cli/options.ts";
import { usageText } from "../cli/usage.ts";
import { ContractsTreeError } from "./contracts-tree.ts";
import { checkFidelity, renderFidelityReport } from "./fidelity.ts";
import { shippedScenarios, type SweepScenario } from "./sweep.ts";
import { resolve } from "node:path";

/** The shipped scenarios `--scenario` names (all when none is named); an unknown name is a usage error. */
export function scenarioOption(wanted: readonly string[] | undefined): SweepScenario[] {
  const all = shippedScenarios();
  for (const name of wanted ?? [])
    if (!all.some((s) => s.name === name))
      throw new UsageError(
        `unknown scenario ${JSON.stringify(name)} (expected one of ${all.map((s) => s.name).join(", ")})`,
      );
  return wanted === undefined || wanted.length === 0 ? all : all.filter((s) => wanted.includes(s.name));
}

/** Progress on stderr, every 10% of the lanes, so stdout stays the report. */
export function laneProgress(io: CommandIo): (done: number, total: number) => void {
  let shown = 0;
  return (done, total) => {
    const step = Math.floor((done * 10) / total);
    if (step > shown || done === total) {
      shown = step;
      io.stderr(`fidelity: swept ${done}/${total} scenario × profile lanes\n`);
    }
  };
}

const FIDELITY_OPTIONS = {
  contracts: {
    type: "string",
    valueName: "dir",
    description: "a gentle-ai checkout or unpacked source release (or its contracts/review-integration)",
  },
  profile: {
    type: "string",
    multiple: true,
    valueName: "p",
    description: "profiles to sweep (repeatable, comma lists; default all)",
  },
  scenario: {
    type: "string",
    multiple: true,
    valueName: "name",
    description: 'only this shipped scenario (repeatable; "builtin" is the default scenario)',
  },
  concurrency: { type: "string", valueName: "n", description: "scenario × profile lanes in flight", default: "2" },
  json: {
    type: "string",
    valueName: "file",
    description: "also write the report as JSON (schemas/fidelity-report.schema.json)",
  },
  help: HELP_OPTION,
} as const satisfies OptionTable;

export const fidelityCommand: Command = {
  usage: usageText({
    synopsis: [
      "relay-conformance fidelity --contracts <dir> [--profile 2.3.0|2.4.0|2.5.0|all] [--scenario <name>]",
      "                           [--concurrency N] [--json <file>]",
    ],
    about: `Drives the simulator through every verb and document kind (capabilities, STATUS in each contract and state, the
lens leg: materialize, pi, preflights, a refused and an admitted submission, and the execute transition STATUS
offers), in each profile and shipped scenario (golden/scenarios/ and the built-in default; their faults dropped),
and validates each JSON document against the schema the tree publishes for it in contracts/review-integration/.
Prints one line per document kind, and under an invalid kind its first documents (scenario, profile, call) with
the JSON path and reason of each violation.`,
    options: FIDELITY_OPTIONS,
    footer: `Exit 0: every document valid; 1: some document invalid, or the simulator prints a kind the tree does not publish;
2: bad input (a missing or unreadable directory, a schema that does not parse).`,
  }),
  async run(args, io) {
    if (args.includes("--help") || args.includes("-h")) {
      io.stdout(this.usage);
      return 0;
    }
    const { values } = parseOptions(args, FIDELITY_OPTIONS);
    if (values.contracts === undefined) throw new UsageError("fidelity needs --contracts <dir> (a gentle-ai checkout)");
    const json = outputFileOption(io.cwd, "json", values.json);
    const profiles = parseProfiles(values.profile);
    const concurrency = parseCount("concurrency", values.concurrency, 2, 1);
    const scenarios = scenarioOption(values.scenario);
    try {
      const report = await checkFidelity({
        contracts: resolve(io.cwd, values.contracts),
        profiles,
        scenarios,
        concurrency,
        onLane: laneProgress(io),
      });
      io.stdout(renderFidelityReport(report));
      if (json !== undefined) writeReportFile(json, `${JSON.stringify(report, null, 2)}\n`);
      return report.verdict === "valid" ? 0 : 1;
    } catch (error) {
      if (error instanceof ContractsTreeError) throw new UsageError(error.message);
      throw error;
    }
  },
};
