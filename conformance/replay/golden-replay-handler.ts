// `relay-conformance replay` for goldens: plugs into the harness's schema-dispatched replay registry.
import { UsageError, type CommandIo } from "../cli/command.ts";
import { parseOptions, resolveRelayPath, type OptionTable } from "../cli/options.ts";
import { QUIET_REPLAY_OPTION, type ReplayHandler } from "./replay-handler.ts";
import { GoldenFileError, shippedGoldens } from "../goldens/golden-file.ts";
import { GOLDEN_SCHEMA_ID } from "../goldens/golden-schema.ts";
import { paths } from "../goldens/paths.ts";
import { replayGolden, type ReplayReport } from "./golden-replay.ts";

interface GoldenReplayArgs {
  readonly relayModule: string;
  readonly update: boolean;
  /** No PASS line per golden. */
  readonly quiet: boolean;
}

const OPTIONS = {
  relay: {
    type: "string",
    valueName: "module",
    description: "goldens: the relay under test (default this package's relay/index.ts)",
  },
  update: {
    type: "boolean",
    description: "goldens: re-record a diverging simulator golden with the live simulator (never when CI is set)",
  },
  quiet: QUIET_REPLAY_OPTION,
} as const satisfies OptionTable;

function parse(args: readonly string[], io: CommandIo): GoldenReplayArgs {
  const { values } = parseOptions(args, OPTIONS);
  return {
    relayModule: values.relay === undefined ? paths.ourRelay() : resolveRelayPath(io.cwd, values.relay),
    update: values.update === true,
    quiet: values.quiet === true,
  };
}

function print(report: ReplayReport, io: CommandIo, quiet: boolean): number {
  if (report.divergence === undefined) {
    if (!quiet || report.rewritten)
      io.stdout(`PASS golden ${report.name}${report.rewritten ? " (re-recorded)" : ""}\n`);
  } else if (report.rewritten)
    io.stdout(`UPDATED golden ${report.name}: it diverged and was re-recorded\n${report.diff}\n`);
  else io.stdout(`FAIL golden ${report.name}\n${report.diff}\n`);
  return report.divergence !== undefined && !report.rewritten ? 1 : 0;
}

async function one(path: string, options: GoldenReplayArgs, io: CommandIo): Promise<number> {
  try {
    return print(
      await replayGolden(path, { relayModule: options.relayModule, update: options.update }),
      io,
      options.quiet,
    );
  } catch (error) {
    if (error instanceof GoldenFileError) throw new UsageError(error.message);
    throw error;
  }
}

function ciNotice(options: GoldenReplayArgs, io: CommandIo): void {
  if (options.update && process.env.CI)
    io.stderr("relay-conformance replay: CI is set, so --update rewrites nothing; a divergence fails\n");
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
    const goldens = shippedGoldens();
    if (!options.quiet) io.stdout(`replaying ${goldens.length} goldens against ${options.relayModule}\n`);
    let worst = 0;
    let failed = 0;
    for (const [index, path] of goldens.entries()) {
      onProgress?.({ done: index, total: goldens.length, failed });
      const code = await one(path, options, io);
      if (code !== 0) failed += 1;
      worst = Math.max(worst, code);
    }
    onProgress?.({ done: goldens.length, total: goldens.length, failed });
    io.stdout(
      `${failed === 0 ? "PASS" : "FAIL"}: ${goldens.length - failed} of ${goldens.length} goldens replay clean\n`,
    );
    return worst;
  },
};
