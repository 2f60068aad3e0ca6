import { recordGolden } from "../record/record.ts";
import { firstDivergence, renderDivergence, type Divergence } from "./diff.ts";
import { GoldenFileError, readGolden, writeGolden } from "./golden-file.ts";
import { paths } from "./paths.ts";
import { runConversation } from "./run.ts";

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

/** Replays a golden against the relay under test with the simulator in replayer mode; with `update`, re-records it. */
export async function replayGolden(path: string, options: ReplayOptions): Promise<ReplayReport> {
  const golden = readGolden(path);
  const env = options.env ?? process.env;
  const actual = await runConversation({ mode: "replay", relayModule: options.relayModule, goldenPath: path, steps: golden.steps, env });
  // The replayer answers each host/relay call from the golden, so calls the provider made itself do not recur.
  const divergence = firstDivergence({ calls: golden.calls.filter((c) => !c.nested), outcomes: golden.outcomes }, actual);
  let rewritten = false;
  // CI never rewrites: a golden changes only by a deliberate local --update.
  if (options.update && !env.CI) {
    if (golden.source.kind !== "simulator") throw new GoldenFileError(`${path}: only simulator goldens can be re-recorded; record a binary golden again with \`record\``);
    const fresh = await recordGolden({
      name: golden.name,
      ...(golden.description === undefined ? {} : { description: golden.description }),
      gentleAi: paths.simGentleAi(),
      pi: paths.simPi(),
      relayModule: options.relayModule,
      scenario: golden.scenario,
      source: "simulator",
      ...(golden.conversation === undefined ? { steps: golden.steps } : { conversation: golden.conversation }),
      env,
    });
    rewritten = writeGolden(path, fresh);
  }
  return { path, name: golden.name, divergence, diff: divergence ? renderDivergence(golden.name, divergence) : "", rewritten };
}
