import { resolve } from "node:path";
import { ScenarioSchema, type Scenario } from "../../simulator/scenario/schema.ts";
import { UsageError, type Command } from "../cli/command.ts";
import { HELP_OPTION, parseOptions, resolveRelayPath, type OptionTable } from "../cli/options.ts";
import { usageText } from "../cli/usage.ts";
import { InputFileError, readJsonFile, schemaIssueText } from "../cli/json-file.ts";
import { CONVERSATIONS } from "../goldens/conversations.ts";
import { goldenText } from "../goldens/golden-file.ts";
import { GoldenSubmissionSchema, type GoldenStep, type GoldenSubmission } from "../goldens/golden-schema.ts";
import { paths } from "../goldens/paths.ts";
import { decodeSubmission } from "../status/decode.ts";
import { recordGolden } from "./record.ts";
import { writeFile } from "node:fs/promises";

function jsonOption(name: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--${name} is not JSON: ${(error as Error).message}`);
  }
}

function submissionOption(text: string): GoldenSubmission {
  const value = jsonOption("submission", text) as Record<string, unknown>;
  // Accept the STATUS wire form (snake_case, `value` or `values`) as well as the relay's typed form.
  const typed = "operation_token" in value ? decodeSubmission(value) : value;
  const parsed = GoldenSubmissionSchema.safeParse(JSON.parse(JSON.stringify(typed)));
  if (!parsed.success) throw new UsageError(`--submission is not a submission form: ${parsed.error.issues[0]?.message ?? "invalid"}`);
  return parsed.data;
}

function scenarioOption(path: string, shown: string): Scenario {
  let json: unknown;
  try {
    json = readJsonFile(path, `--scenario ${shown}`);
  } catch (error) {
    if (error instanceof InputFileError) throw new UsageError(error.message);
    throw error;
  }
  const parsed = ScenarioSchema.safeParse(json);
  if (!parsed.success) throw new UsageError(`--scenario ${shown}: not a scenario: ${schemaIssueText(ScenarioSchema, json)}`);
  return parsed.data;
}

const RECORD_OPTIONS = {
  binary: { type: "string", valueName: "gentle-ai", description: "the gentle-ai binary to record" },
  out: { type: "string", valueName: "file", description: "write the golden there", default: "stdout" },
  name: { type: "string", valueName: "name", description: "the golden's name, lowercase words joined by dashes", default: "recorded" },
  description: { type: "string", valueName: "text", description: "the golden's description" },
  relay: { type: "string", valueName: "module", description: "the relay that drives the binary", default: "this package's relay/index.ts" },
  pi: { type: "string", valueName: "path", description: "the pi the relay launches", default: "the simulator's fake pi" },
  scenario: { type: "string", valueName: "file", description: "simulator scenario to export (only for a simulator binary; stored in the golden)" },
  help: HELP_OPTION,
} as const satisfies OptionTable;

/** What the relay is asked to do: the options after `--`. */
const RELAY_CALL_OPTIONS = {
  conversation: {
    type: "string",
    valueName: "name",
    description: `a shipped conversation: STATUS, relay slots, STATUS … (${Object.keys(CONVERSATIONS).join(", ")})`,
    default: "lens-capture",
  },
  "capture-tokens": { type: "string", valueName: "json", description: "one relay slot with these capture tokens instead" },
  submission: { type: "string", valueName: "json", description: "its submission form (STATUS wire form or the relay's typed form)" },
  cwd: { type: "string", valueName: "repo", description: "repository the host and the binary work in", default: "an empty temp dir" },
} as const satisfies OptionTable;

export const recordCommand: Command = {
  usage: usageText({
    synopsis: [
      "relay-conformance record --binary <gentle-ai> [--out <file>] [--name <name>] [--relay <module>] [--pi <path>] [--scenario <file>]",
      `                         -- [--conversation ${Object.keys(CONVERSATIONS).join("|")}] [--cwd <repo>]`,
      "                            | --capture-tokens <json array> [--submission <json>] [--cwd <repo>]",
    ],
    about: `Places recording shims (gentle-ai and pi) in a temp dir and passes them to the relay as gentleAiExecutable and
piExecutable. Each shim passes its call through untouched (argv, env, cwd, stdin, stdout, stderr, exit code,
signals) and logs it in the simulator's transcript format; the relay drives them exactly as in production. The
result is a golden (schemas/golden.schema.json) on stdout or in --out.`,
    options: RECORD_OPTIONS,
    more: [{ heading: "Relay call options (after --):", options: RELAY_CALL_OPTIONS }],
    footer: "Exit 0: golden written; 2: bad input.",
  }),
  async run(args, io) {
    if (args.includes("--help") || args.includes("-h")) {
      io.stdout(this.usage);
      return 0;
    }
    const split = args.indexOf("--");
    const own = split === -1 ? args : args.slice(0, split);
    const call = split === -1 ? [] : args.slice(split + 1);
    const { values } = parseOptions(own, RECORD_OPTIONS);
    const relayCall = parseOptions(call, RELAY_CALL_OPTIONS).values;
    if (values.binary === undefined) throw new UsageError("record needs --binary <path to gentle-ai>");
    const name = values.name ?? "recorded";
    if (!/^[a-z0-9]+(?:-[a-z0-9.]+)*$/.test(name)) throw new UsageError(`--name must be lowercase words joined by dashes, got ${JSON.stringify(name)}`);
    if (relayCall.conversation !== undefined && relayCall["capture-tokens"] !== undefined) throw new UsageError("--conversation and --capture-tokens are exclusive");
    let steps: GoldenStep[] | undefined;
    let conversation: string | undefined;
    if (relayCall["capture-tokens"] !== undefined) {
      const tokens = jsonOption("capture-tokens", relayCall["capture-tokens"]);
      if (!Array.isArray(tokens) || tokens.some((t) => typeof t !== "string")) throw new UsageError("--capture-tokens must be a JSON array of strings");
      const submission = relayCall.submission === undefined ? undefined : submissionOption(relayCall.submission);
      steps = [{ kind: "slot", captureArgumentTokens: tokens as string[], ...(submission ? { submission } : {}) }];
    } else {
      conversation = relayCall.conversation ?? "lens-capture";
      if (CONVERSATIONS[conversation] === undefined)
        throw new UsageError(`unknown conversation ${JSON.stringify(conversation)} (expected ${Object.keys(CONVERSATIONS).join(", ")})`);
    }
    const scenario = values.scenario === undefined ? null : scenarioOption(resolve(io.cwd, values.scenario), values.scenario);
    const golden = await recordGolden({
      name,
      ...(values.description ? { description: values.description } : {}),
      gentleAi: resolve(io.cwd, values.binary),
      pi: values.pi === undefined ? paths.simPi() : resolve(io.cwd, values.pi),
      relayModule: values.relay === undefined ? paths.ourRelay() : resolveRelayPath(io.cwd, values.relay),
      scenario,
      source: scenario === null ? "binary" : "simulator",
      ...(conversation ? { conversation } : {}),
      ...(steps ? { steps } : {}),
      ...(relayCall.cwd ? { cwd: resolve(io.cwd, relayCall.cwd) } : {}),
    });
    if (values.out === undefined) io.stdout(goldenText(golden));
    else {
      await writeFile(resolve(io.cwd, values.out), goldenText(golden));
      io.stdout(`recorded ${golden.calls.length} calls of ${golden.source.version || "gentle-ai"} into ${values.out}\n`);
    }
    return 0;
  },
};
