// Replaying a golden: its script runs again with the relay under test, the simulator answering every call from the
// golden in replayer mode (GENTLE_AI_SIM_REPLAY); the relay must make byte-identical calls in the same order.
import { existsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { paths } from "../goldens/paths.ts";
import { firstDivergence, renderDivergence, type Divergence } from "../goldens/diff.ts";
import { GoldenFileError, readGolden, writeGolden } from "../goldens/golden-file.ts";
import type { Golden } from "../goldens/golden-schema.ts";
import { captureScript, goldenScriptProblem, recordGolden } from "../record/record.ts";
import type { Reproduction } from "../repro/format.ts";
import { parseReproductionFile, ReproParseError } from "../repro/parse.ts";

/** How to replay one golden. */
export interface ReplayOptions {
  readonly relayModule: string;
  /** Re-record with the live simulator when the replay diverges or the simulator changed (never under CI). */
  readonly update: boolean;
  readonly env?: NodeJS.ProcessEnv;
}

/** One golden's verdict. */
export interface ReplayReport {
  readonly path: string;
  readonly name: string;
  readonly divergence: Divergence | undefined;
  /** Rendered divergence (empty when green). */
  readonly diff: string;
  readonly rewritten: boolean;
}

/**
 * The golden's script, parsed: relative to the golden's folder, else to the shipped goldens' (a copy of a shipped
 * golden elsewhere still finds its script). A missing or broken one is a golden that cannot be used.
 */
export function goldenScript(path: string, golden: Golden): Reproduction {
  const beside = resolve(dirname(path), golden.script);
  const file = existsSync(beside) ? beside : resolve(paths.goldenDir(), golden.script);
  let repro: Reproduction;
  try {
    repro = parseReproductionFile(file);
  } catch (error) {
    if (error instanceof ReproParseError)
      throw new GoldenFileError(`${path}: script ${golden.script}: ${error.message}`);
    throw error;
  }
  const problem = goldenScriptProblem(repro);
  if (problem !== undefined) throw new GoldenFileError(`${path}: ${problem}`);
  return repro;
}

/** Replays a golden against the relay under test with the simulator in replayer mode; with `update`, re-records it. */
export async function replayGolden(path: string, options: ReplayOptions): Promise<ReplayReport> {
  const golden = readGolden(path);
  const repro = goldenScript(path, golden);
  const env = options.env ?? process.env;
  const actual = await captureScript(repro, {
    recording: "native",
    against: options.relayModule,
    profile: golden.profile,
    env: (sandbox) => ({ GENTLE_AI_SIM_REPLAY: resolve(path), GENTLE_AI_SIM_REPLAY_CWD: sandbox.work }),
  });
  // The replayer answers each host/relay call from the golden, so calls the provider made itself do not recur.
  const divergence = firstDivergence(
    { calls: golden.calls.filter((c) => !c.nested), outcomes: golden.outcomes },
    actual,
  );
  let rewritten = false;
  // CI never rewrites: a golden changes only by a deliberate local --update.
  if (options.update && !env.CI) {
    if (golden.source.kind !== "simulator")
      throw new GoldenFileError(
        `${path}: only simulator goldens can be re-recorded; record a binary golden again with \`record\``,
      );
    const { golden: fresh } = await recordGolden({
      repro,
      name: golden.name,
      source: "simulator",
      profile: golden.profile,
      against: options.relayModule,
      script: golden.script,
    });
    rewritten = writeGolden(path, fresh);
  }
  return {
    path,
    name: golden.name,
    divergence,
    diff: divergence ? renderDivergence(golden.name, divergence) : "",
    rewritten,
  };
}
