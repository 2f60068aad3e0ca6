// `relay-conformance repro`: issue reproductions as one-command scenarios (golden/repro/*.txtar).
import { UsageError, type Command } from "../cli/command.ts";
import { HELP_OPTION, OptionSyntaxError, parseOptions, type OptionProblem, type OptionTable } from "../cli/options.ts";
import { usageText } from "../cli/usage.ts";
import { listShipped, locate } from "./catalogue.ts";
import { parseDefects, type DefectId } from "./client-contract.ts";
import { NAMED_MODULES, ReproInputError } from "./modules.ts";
import { parseReproductionFile, ReproParseError } from "./parse.ts";
import { runReproduction } from "./run.ts";
import { executableOption } from "../cli/executable-option.ts";

const REPRO_OPTIONS = {
  against: {
    type: "string",
    valueName: "module",
    description: `run the subject steps against another relay or client module (a .ts/.mjs path, or a named module: ${Object.keys(NAMED_MODULES).join(", ")})`,
  },
  defects: {
    type: "string",
    valueName: "list",
    description: "defects the subject client keeps, D1,D2,D3 or none (read by the defective variant)",
  },
  module: {
    type: "string",
    multiple: true,
    valueName: "name=path",
    description: "replace a module the file names (e.g. gentle-pi-2.1.2=./my-build-client.ts); repeatable",
  },
  phase: { type: "string", valueName: "N[,N...]", description: "run only these phases (1-based)" },
  binary: {
    type: "string",
    valueName: "gentle-ai",
    description:
      "run every step against this gentle-ai (a real build) instead of the simulator, recorded through shims; phases that need the simulator are skipped with one line",
  },
  list: { type: "boolean", description: "list the shipped reproductions with their titles" },
  help: HELP_OPTION,
} as const satisfies OptionTable;

/** repro's wording of bad option syntax (its lines name the flag, as they always have). */
function flagProblem(p: OptionProblem): string {
  switch (p.kind) {
    case "unknown":
      return `unknown flag ${p.option}`;
    case "needs-value":
      // Another option is never taken as the value (`--against --list`): that is a missing value.
      return `${p.option} needs a value${p.next === undefined ? "" : ` (got the option ${JSON.stringify(p.next)})`}`;
    case "takes-no-value":
      return `${p.option} takes no value`;
    case "other":
      return p.text;
  }
}

/** `--module name=path` values as a map; a value without both sides is bad input. */
function moduleSwaps(values: readonly string[]): Record<string, string> {
  const modules: Record<string, string> = {};
  for (const v of values) {
    const eq = v.indexOf("=");
    if (eq <= 0 || eq === v.length - 1)
      throw new UsageError(`--module takes name=path, got ${JSON.stringify(v)}`, { hint: false });
    modules[v.slice(0, eq)] = v.slice(eq + 1);
  }
  return modules;
}

export const reproCommand: Command = {
  errorPrefix: "relay-conformance repro",
  usage: usageText({
    synopsis: [
      "relay-conformance repro <id|file> [--against <module>] [--defects D1,D2,D3|none]",
      "                        [--module <name>=<path>]... [--phase N[,N...]] [--binary <gentle-ai>]",
      "relay-conformance repro --list",
    ],
    about: `Runs an issue reproduction step by step against the simulator and prints each command, the provider's
answer and expected vs actual. Exit 0: behaves as documented; 1: a mismatch; 2: bad input.`,
    options: REPRO_OPTIONS,
  }),
  async run(args, io) {
    let parsed;
    try {
      parsed = parseOptions(args, REPRO_OPTIONS, true);
    } catch (error) {
      if (error instanceof OptionSyntaxError) throw new UsageError(flagProblem(error.problem));
      throw error;
    }
    const { values, positionals } = parsed;
    if (values.help) {
      io.stdout(this.usage);
      return 0;
    }
    let defects: DefectId[] | undefined;
    if (values.defects !== undefined) {
      try {
        defects = parseDefects(values.defects);
      } catch (error) {
        throw new UsageError(`--defects: ${(error as Error).message}`, { hint: false });
      }
    }
    const modules = moduleSwaps(values.module ?? []);
    if (values.phase !== undefined && !/^[1-9]\d*(,[1-9]\d*)*$/.test(values.phase)) {
      throw new UsageError(`--phase takes phase numbers like 1,3, got ${JSON.stringify(values.phase)}`, {
        hint: false,
      });
    }
    const phases = values.phase?.split(",").map(Number);
    if (positionals.length > 1)
      throw new UsageError(`one reproduction at a time (got ${positionals[0]} and ${positionals[1]})`, { hint: false });
    const target = positionals[0];
    const binary = values.binary === undefined ? undefined : executableOption("--binary", values.binary, io.cwd);
    if (values.list) {
      if (target !== undefined) throw new UsageError("--list takes no reproduction", { hint: false });
      let broken = false;
      for (const r of listShipped()) {
        if (r instanceof ReproParseError) {
          broken = true;
          io.stderr(`${r.message}\n`);
        } else io.stdout(`${r.id.padEnd(12)} ${r.title}\n`);
      }
      return broken ? 2 : 0;
    }
    if (target === undefined) throw new UsageError("name a reproduction (id or file), or --list");
    const file = locate(target, io.cwd);
    if (file === undefined)
      throw new UsageError(`no reproduction "${target}" (see relay-conformance repro --list)`, { hint: false });
    try {
      const repro = parseReproductionFile(file);
      const summary = await runReproduction(repro, {
        ...(values.against !== undefined ? { against: values.against } : {}),
        ...(defects ? { defects } : {}),
        ...(Object.keys(modules).length > 0 ? { modules } : {}),
        ...(phases ? { phases } : {}),
        ...(binary === undefined ? {} : { binary }),
        cwd: io.cwd,
        out: (line) => io.stdout(`${line}\n`),
      });
      return summary.ok ? 0 : 1;
    } catch (error) {
      // These name their file and line (or the option) themselves: printed as they are.
      if (error instanceof ReproParseError || error instanceof ReproInputError) {
        io.stderr(`${error.message}\n`);
        return 2;
      }
      throw error;
    }
  },
};
