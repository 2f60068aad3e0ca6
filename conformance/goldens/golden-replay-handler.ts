// `relay-conformance replay` for goldens: plugs into the harness's schema-dispatched replay registry.
import { existsSync } from "node:fs";
import { UsageError, type CommandIo } from "../cli/command.ts";
import { parseOptions, resolveRelayPath, type OptionTable } from "../cli/options.ts";
import { QUIET_REPLAY_OPTION, type ReplayHandler } from "../replay/replay-handler.ts";
import { buildCatalogueGolden, CATALOGUE, cataloguePath } from "./catalogue.ts";
import { GoldenFileError, writeGolden } from "./golden-file.ts";
import { GOLDEN_SCHEMA_ID } from "./golden-schema.ts";
import { paths } from "./paths.ts";
import { replayGolden, type ReplayReport } from "./replay-golden.ts";

interface GoldenReplayArgs {
  readonly relayModule: string;
  readonly update: boolean;
  /** No PASS line per golden. */
  readonly quiet: boolean;
}

const OPTIONS = {
  relay: { type: "string", valueName: "module", description: "goldens: the relay under test (default this package's relay/index.ts)" },
  update: { type: "boolean", description: "goldens: re-record a diverging golden with the live simulator, create missing catalogue goldens (never when CI is set)" },
  quiet: QUIET_REPLAY_OPTION,
} as const satisfies OptionTable;

function parse(args: readonly string[], io: CommandIo): GoldenReplayArgs {
  const { values } = parseOptions(args, OPTIONS);
  return { relayModule: values.relay === undefined ? paths.ourRelay() : resolveRelayPath(io.cwd, values.relay), update: values.update === true, quiet: values.quiet === true };
}

function print(report: ReplayReport, io: CommandIo, quiet: boolean): number {
  if (report.divergence === undefined) {
    if (!quiet || report.rewritten) io.stdout(`PASS golden ${report.name}${report.rewritten ? " (re-recorded)" : ""}\n`);
  } else if (report.rewritten) io.stdout(`UPDATED golden ${report.name}: it diverged and was re-recorded\n${report.diff}\n`);
  else io.stdout(`FAIL golden ${report.name}\n${report.diff}\n`);
  return report.divergence !== undefined && !report.rewritten ? 1 : 0;
}

async function one(path: string, options: GoldenReplayArgs, io: CommandIo): Promise<number> {
  try {
    return print(await replayGolden(path, { relayModule: options.relayModule, update: options.update }), io, options.quiet);
  } catch (error) {
    if (error instanceof GoldenFileError) throw new UsageError(error.message);
    throw error;
  }
}

function ciNotice(options: GoldenReplayArgs, io: CommandIo): void {
  if (options.update && process.env.CI) io.stderr("relay-conformance replay: CI is set, so --update rewrites nothing; a divergence fails\n");
}

export const goldenReplay: ReplayHandler = {
  schemas: [GOLDEN_SCHEMA_ID],
  options: OPTIONS,
  describe:
    "golden conversation: the relay under test (--relay <module>, default ours) must make byte-identical calls, in order, against the simulator in replayer mode; --update re-records with the live simulator (never when CI is set)",
  async replay(file, _data, args, io) {
    const options = parse(args, io);
    ciNotice(options, io);
    return one(file, options, io);
  },
  async replaysAll(args, io, onProgress) {
    const options = parse(args, io);
    ciNotice(options, io);
    if (!options.quiet) io.stdout(`replaying ${CATALOGUE.length} goldens against ${options.relayModule}\n`);
    let worst = 0;
    let failed = 0;
    for (const [index, spec] of CATALOGUE.entries()) {
      onProgress?.({ done: index, total: CATALOGUE.length, failed });
      const path = cataloguePath(spec);
      if (!existsSync(path)) {
        if (options.update && !process.env.CI) {
          writeGolden(path, await buildCatalogueGolden(spec, options.relayModule));
          io.stdout(`CREATED golden ${spec.name}\n`);
          continue;
        }
        io.stdout(`FAIL golden ${spec.name}: ${path} is missing (create it with \`replay --update\`)\n`);
        worst = 1;
        failed += 1;
        continue;
      }
      const code = await one(path, options, io);
      if (code !== 0) failed += 1;
      worst = Math.max(worst, code);
    }
    onProgress?.({ done: CATALOGUE.length, total: CATALOGUE.length, failed });
    io.stdout(`${failed === 0 ? "PASS" : "FAIL"}: ${CATALOGUE.length - failed} of ${CATALOGUE.length} goldens replay clean\n`);
    return worst;
  },
};
