import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Scenario } from "../../simulator/scenario/schema.ts";
import { GOLDEN_SCHEMA_ID, type Golden, type GoldenStep } from "../goldens/golden-schema.ts";
import { runConversation } from "../goldens/run.ts";
import { runChild } from "../host/run-child.ts";

/** What to record: a conversation (or fixed steps) driven by a relay against one gentle-ai binary. */
export interface RecordOptions {
  readonly name: string;
  readonly description?: string;
  readonly gentleAi: string;
  readonly pi: string;
  readonly relayModule: string;
  /** Simulator scenario; null for a real binary. */
  readonly scenario: Scenario | null;
  readonly source: "simulator" | "binary";
  readonly conversation?: string;
  readonly steps?: readonly GoldenStep[];
  readonly cwd?: string;
  readonly env?: NodeJS.ProcessEnv;
}

/** `gentle-ai version` stdout without its trailing newline (run outside the recording, with the scenario applied). */
export async function binaryVersion(gentleAi: string, scenario: Scenario | null, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "relay-conformance-version-"));
  try {
    const runEnv: NodeJS.ProcessEnv = { ...env, GENTLE_AI_SIM_STATE: join(dir, "state") };
    delete runEnv.GENTLE_AI_SIM_REPLAY;
    if (scenario !== null) {
      await writeFile(join(dir, "scenario.json"), JSON.stringify(scenario));
      runEnv.GENTLE_AI_SIM_SCENARIO = join(dir, "scenario.json");
    }
    const r = await runChild(gentleAi, ["version"], { cwd: dir, env: runEnv, timeoutMs: 60_000 });
    return r.stdout.toString("utf8").replace(/\r?\n$/, "");
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Records one golden through the recording shims; the relay drives the binary exactly as in production. */
export async function recordGolden(options: RecordOptions): Promise<Golden> {
  const version = await binaryVersion(options.gentleAi, options.scenario, options.env);
  const result = await runConversation({
    mode: "live",
    relayModule: options.relayModule,
    gentleAi: options.gentleAi,
    pi: options.pi,
    scenario: options.scenario,
    ...(options.conversation === undefined ? {} : { conversation: options.conversation }),
    ...(options.steps === undefined ? {} : { steps: options.steps }),
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    ...(options.env === undefined ? {} : { env: options.env }),
  });
  return {
    schema: GOLDEN_SCHEMA_ID,
    name: options.name,
    ...(options.description === undefined ? {} : { description: options.description }),
    source: { kind: options.source, version },
    scenario: options.scenario,
    ...(options.conversation === undefined ? {} : { conversation: options.conversation }),
    steps: result.steps,
    outcomes: result.outcomes,
    calls: result.calls,
  };
}
