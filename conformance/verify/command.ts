import { resolve } from "node:path";
import { writeReportFile } from "../cli/write-report.ts";
import { UsageError, type Command, type CommandIo } from "../cli/command.ts";
import { HELP_OPTION, outputFileOption, parseOptions, resolveRelayPath, type OptionTable } from "../cli/options.ts";
import { usageText } from "../cli/usage.ts";
import { isProfile, PROFILES, type Profile } from "../cli/profile.ts";
import {
  renderQuietVerifyReport,
  renderVerifyReport,
  VerifyInputError,
  verifyBinary,
  verifyProgressText,
  verifyResultText,
} from "./verify.ts";
import type { VerifyReport } from "./report-schema.ts";

/**
 * Shared by `verify` and `release`: prints the report ("full"; "streamed": only the result line, the rest went out
 * as progress; "quiet": header, drifted or inconclusive checks, result), writes --json, returns 0 no drift / 1 drift.
 */
export async function emitVerifyReport(
  report: VerifyReport,
  json: string | undefined,
  io: CommandIo,
  shown: "full" | "streamed" | "quiet" = "full",
): Promise<number> {
  io.stdout(
    shown === "full"
      ? renderVerifyReport(report)
      : shown === "quiet"
        ? renderQuietVerifyReport(report)
        : verifyResultText(report),
  );
  if (json !== undefined) writeReportFile(resolve(io.cwd, json), `${JSON.stringify(report, null, 2)}\n`);
  return report.drift ? 1 : 0;
}

/** Narrows `--profile`. */
export function profileOption(value: string | undefined): Profile | undefined {
  if (value === undefined) return undefined;
  if (!isProfile(value))
    throw new UsageError(`unknown profile ${JSON.stringify(value)} (expected ${PROFILES.join(", ")})`);
  return value;
}

const VERIFY_OPTIONS = {
  binary: { type: "string", valueName: "path", description: "the gentle-ai binary to probe" },
  profile: {
    type: "string",
    valueName: "p",
    description: "expected contract",
    default: "derived from `<binary> version`",
  },
  cwd: {
    type: "string",
    valueName: "repo",
    description: "repository to probe in",
    default: "an empty temp dir; a real binary needs an active review",
  },
  json: {
    type: "string",
    valueName: "file",
    description: "also write the report as JSON (schemas/verify-report.schema.json)",
  },
  "no-goldens": { type: "boolean", description: "skip the golden comparison" },
  relay: {
    type: "string",
    valueName: "module",
    description: "relay that drives the golden conversations",
    default: "this package's relay/index.ts",
  },
  quiet: {
    type: "boolean",
    description:
      "no line per check that passed or does not apply: the header, drifted or inconclusive checks and the result",
  },
  help: HELP_OPTION,
} as const satisfies OptionTable;

export const verifyCommand: Command = {
  usage: usageText({
    synopsis: [
      `relay-conformance verify --binary <path> [--profile ${PROFILES.join("|")}] [--json <file>] [--cwd <repo>] [--no-goldens] [--relay <module>] [--quiet]`,
    ],
    about: `Runs the provider probe suite against the binary: version output, unknown-flag refusal shape, handshake gate and its
text, STATUS submission form, identity formats, materialize determinism and read-only behaviour, refusal codes and
exit codes, role verbs, output discipline. The expected contract comes from the binary's \`version\` output unless
--profile is given. The caller's environment passes through to the binary; GENTLE_AI_SIM_STATE is set to a fresh
temp dir when the caller has not set it. A binary that honours GENTLE_AI_SIM_TRANSCRIPT (a simulator) is also
re-driven through every shipped golden of its profile, byte for byte. Each probe's and golden's line is printed
as soon as it finishes.`,
    options: VERIFY_OPTIONS,
    footer: "Exit 0: no drift; 1: drift; 2: bad input.",
  }),
  async run(args, io) {
    if (args.includes("--help") || args.includes("-h")) {
      io.stdout(this.usage);
      return 0;
    }
    const { values } = parseOptions(args, VERIFY_OPTIONS);
    if (values.binary === undefined) throw new UsageError("verify needs --binary <path>");
    outputFileOption(io.cwd, "json", values.json);
    const profile = profileOption(values.profile);
    try {
      const report = await verifyBinary({
        binary: resolve(io.cwd, values.binary),
        callerCwd: io.cwd,
        ...(profile ? { profile } : {}),
        ...(values.cwd ? { cwd: resolve(io.cwd, values.cwd) } : {}),
        ...(values.relay ? { relayModule: resolveRelayPath(io.cwd, values.relay) } : {}),
        ...(values["no-goldens"] ? { goldens: [] } : {}),
        ...(values.quiet
          ? {}
          : {
              onProgress: (event) => {
                const text = verifyProgressText(event);
                if (text !== "") io.stdout(text);
              },
            }),
      });
      return await emitVerifyReport(report, values.json, io, values.quiet ? "quiet" : "streamed");
    } catch (error) {
      if (error instanceof VerifyInputError) throw new UsageError(error.message);
      throw error;
    }
  },
};
