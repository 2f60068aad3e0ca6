// `relay-conformance record`: a golden is a scenario script plus the transcript of one run of it, recorded through
// pass-through shims in front of any gentle-ai (the simulator by default, or a real build with its provenance).
import { existsSync, readdirSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { UsageError, type Command } from "../cli/command.ts";
import { executableOption } from "../cli/executable-option.ts";
import { HELP_OPTION, parseOptions, resolveRelayPath, type OptionTable } from "../cli/options.ts";
import { usageText } from "../cli/usage.ts";
import { goldenText } from "../goldens/golden-file.ts";
import { paths } from "../goldens/paths.ts";
import { parseReproductionFile, ReproParseError } from "../repro/parse.ts";
import { isProfile, profileOfVersionOutput, profileOption, PROFILES, type Profile } from "../cli/profile.ts";
import { phaseScenario, simulatorOnlyReason } from "../repro/world.ts";
import { binaryVersion, goldenScriptProblem, recordGolden } from "./record.ts";
import type { Reproduction } from "../repro/format.ts";

/** The shipped golden scripts, from the files (golden/conversations/*.txtar). */
export function shippedScripts(dir = paths.conversationsDir()): string[] {
  return existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => f.endsWith(".txtar"))
        .sort()
    : [];
}

const RECORD_OPTIONS = {
  script: { type: "string", valueName: "file.txtar", description: "the golden's scenario script (one phase)" },
  binary: { type: "string", valueName: "gentle-ai", description: "the gentle-ai to record", default: "the simulator" },
  out: { type: "string", valueName: "file", description: "write the golden there", default: "stdout" },
  name: {
    type: "string",
    valueName: "name",
    description: "the golden's name, lowercase words joined by dashes",
    default: "the script's id",
  },
  relay: {
    type: "string",
    valueName: "module",
    description: "the relay that drives the script's relay steps",
    default: "this package's relay/index.ts",
  },
  profile: {
    type: "string",
    valueName: PROFILES.join("|"),
    description: "the simulator profile",
    default: "the script's, else derived from `<binary> version`",
  },
  commit: {
    type: "string",
    valueName: "sha",
    description: "provenance of a real binary: the source commit it was built from",
  },
  build: {
    type: "string",
    valueName: "text",
    description: "provenance of a real binary: how it was built (toolchain, flags)",
  },
  help: HELP_OPTION,
} as const satisfies OptionTable;

function loadScript(path: string, shown: string): Reproduction {
  if (!existsSync(path)) throw new UsageError(`--script ${shown}: no such file`);
  let repro: Reproduction;
  try {
    repro = parseReproductionFile(path);
  } catch (error) {
    if (error instanceof ReproParseError) throw new UsageError(error.message);
    throw error;
  }
  const problem = goldenScriptProblem(repro);
  if (problem !== undefined) throw new UsageError(problem);
  return repro;
}

/** The profile to record in: --profile, else the script's world, else what the binary's version names. */
async function recordProfile(
  flag: string | undefined,
  repro: Reproduction,
  binary: string | undefined,
): Promise<Profile> {
  const flagged = profileOption(flag);
  if (flagged !== undefined) return flagged;
  const declared = phaseScenario(repro.phases[0]!)["profile"];
  if (typeof declared === "string" && isProfile(declared)) return declared;
  return binary === undefined ? "2.4.0" : profileOfVersionOutput(await binaryVersion(binary, null));
}

export const recordCommand: Command = {
  usage: usageText({
    synopsis: [
      "relay-conformance record --script <file.txtar> [--binary <gentle-ai>] [--out <file>] [--name <name>] [--relay <module>]",
      "                         [--profile p] [--commit <sha>] [--build <text>]",
    ],
    about: `Runs a one-phase scenario script with recording shims (gentle-ai and pi) in front of the binary: every call the
script, the relay or the FINALIZE client makes passes through untouched (argv, env, cwd, stdin, stdout, stderr, exit
code, signals) and is logged. The result is a golden (schemas/golden.schema.json): the script, the calls and each
step's outcome, on stdout or in --out. A real binary's golden carries its provenance (--commit, --build); CI replays
the simulator against it. A new golden is one script and no code change. The shipped scripts (golden/conversations/):
${shippedScripts().join(", ") || "(none)"}.`,
    options: RECORD_OPTIONS,
    footer: "Exit 0: golden written; 1: the script's own checks did not hold; 2: bad input.",
  }),
  async run(args, io) {
    const { values } = parseOptions(args, RECORD_OPTIONS);
    if (values.help) {
      io.stdout(this.usage);
      return 0;
    }
    if (values.script === undefined) throw new UsageError("record needs --script <file.txtar>");
    const repro = loadScript(resolve(io.cwd, values.script), values.script);
    const binary = values.binary === undefined ? undefined : executableOption("--binary", values.binary, io.cwd);
    const name = values.name ?? repro.id;
    if (!/^[a-z0-9]+(?:-[a-z0-9.]+)*$/.test(name))
      throw new UsageError(`--name must be lowercase words joined by dashes, got ${JSON.stringify(name)}`);
    if (binary === undefined && (values.commit !== undefined || values.build !== undefined))
      throw new UsageError("--commit and --build describe a --binary");
    const seeded = binary === undefined ? undefined : simulatorOnlyReason(repro.phases[0]!);
    if (seeded !== undefined)
      throw new UsageError(
        `--script ${values.script}: only the simulator can run it (${seeded}); record it without --binary`,
      );
    const profile = await recordProfile(values.profile, repro, binary);
    const out = values.out === undefined ? undefined : resolve(io.cwd, values.out);
    const { golden, ok, log } = await recordGolden({
      repro,
      name,
      ...(binary === undefined ? {} : { binary }),
      source: binary === undefined ? "simulator" : "binary",
      profile,
      ...(values.relay === undefined ? {} : { against: resolveRelayPath(io.cwd, values.relay) }),
      goldenDir: out === undefined ? paths.goldenDir() : dirname(out),
      ...(values.commit === undefined ? {} : { commit: values.commit }),
      ...(values.build === undefined ? {} : { build: values.build }),
    });
    if (out === undefined) io.stdout(goldenText(golden));
    else {
      await writeFile(out, goldenText(golden));
      io.stdout(
        `recorded ${golden.calls.length} calls of ${golden.source.version || "gentle-ai"} into ${values.out}\n`,
      );
    }
    if (ok) return 0;
    // The golden is written as recorded; what did not hold is said, so a wrong recording is never silent.
    for (const line of log.filter((l) => /MISMATCH|^\s{10}\S/.test(l))) io.stderr(`${line.trim()}\n`);
    return 1;
  },
};

/** The default path of a shipped script's golden (golden/<name>.golden.json). */
export function goldenPathOf(name: string): string {
  return join(paths.goldenDir(), `${name}.golden.json`);
}
