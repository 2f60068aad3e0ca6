import { mkdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { existsSync, mkdtempSync } from "node:fs";
import { delimiter, dirname, join, resolve } from "node:path";
import type { TranscriptEntry } from "../../simulator/output/transcript-schema.ts";
import type { Scenario } from "../../simulator/scenario/schema.ts";
import { createShims } from "../record/shim.ts";
import type { GoldenCall, GoldenOutcome, GoldenStep } from "./golden-schema.ts";
import type { RawOutcome } from "./host.ts";
import { normaliseCall, orderByStart } from "./normalise.ts";
import { denormaliseText, normaliseText, placeholderRules, type NormaliseContext } from "../../simulator/output/path-placeholders.ts";
import { paths } from "./paths.ts";
import { packageRoot } from "../paths.ts";
import { trackTempDir } from "../runner/teardown.ts";
import { runTask } from "../host/run-task.ts";
import type { DriverJob, DriverResult } from "./driver.ts";
import { HANDSHAKE_ENV } from "../contract/provider.ts";

const DRIVER_TIMEOUT_MS = 10 * 60_000;
const SIM_ENV = /^GENTLE_AI_SIM_/;

/** One conversation run: live (shims in front of real programs) or replay (simulator in replayer mode). */
export type RunOptions = {
  readonly relayModule: string;
  /** Correction FINALIZE client module; default `finalize.ts` beside the relay module when it exists. */
  readonly finalizeModule?: string;
  /** Base environment (default process.env); simulator variables and the handshake are removed from it. */
  readonly env?: NodeJS.ProcessEnv;
  /** Repository the host works in; default an empty temp dir. */
  readonly cwd?: string;
} & (
  | {
      readonly mode: "live";
      readonly gentleAi: string;
      readonly pi: string;
      /** Simulator scenario (written to a file for GENTLE_AI_SIM_SCENARIO); null leaves the provider unconfigured. */
      readonly scenario: Scenario | null;
      readonly conversation?: string;
      readonly steps?: readonly GoldenStep[];
    }
  | { readonly mode: "replay"; readonly goldenPath: string; readonly steps: readonly GoldenStep[] }
);

/** Normalised steps, outcomes and calls of one run. */
export interface RunResult {
  readonly steps: GoldenStep[];
  readonly outcomes: GoldenOutcome[];
  readonly calls: GoldenCall[];
}

function mapStrings<T>(value: T, f: (s: string) => string): T {
  if (typeof value === "string") return f(value) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => mapStrings(v, f)) as T;
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapStrings(v, f)])) as T;
  }
  return value;
}

function normaliseOutcome(outcome: RawOutcome, rules: ReturnType<typeof placeholderRules>): GoldenOutcome {
  const n = mapStrings(outcome, (s) => normaliseText(s, rules));
  if (n.kind === "relay-error") return { ...n, elapsedMs: n.elapsedMs === null ? null : "<MS>" };
  return n;
}

/** Runs the conversation in a fresh relay host: its tree, and anything carrying runDir, dies with it. */
async function runDriver(job: DriverJob, env: NodeJS.ProcessEnv, runDir: string): Promise<DriverResult> {
  try {
    return (await runTask(
      { module: paths.driver(), export: "runDriverJob", input: job },
      { cwd: packageRoot(), env, timeoutMs: DRIVER_TIMEOUT_MS, markers: [runDir] },
    )) as DriverResult;
  } catch (error) {
    throw new Error(`golden driver failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}

async function readTranscript(path: string): Promise<TranscriptEntry[]> {
  const text = await readFile(path, "utf8").catch(() => "");
  return text
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as TranscriptEntry);
}

/** Runs one conversation and returns it normalised; every temp dir and child is gone when it settles. */
export async function runConversation(options: RunOptions): Promise<RunResult> {
  // Sync: the folder is tracked for an interruption in the same tick it comes to exist.
  const runDir = mkdtempSync(join(tmpdir(), "relay-conformance-run-"));
  const untrack = trackTempDir(runDir);
  try {
    // Inside runDir, so the finally below removes them too.
    const shims = options.mode === "live" ? await createShims({ gentleAi: options.gentleAi, pi: options.pi }, runDir) : undefined;
    const tmp = join(runDir, "tmp");
    const state = join(runDir, "state");
    const bin = join(runDir, "bin");
    const cwd = options.cwd === undefined ? join(runDir, "repo") : resolve(options.cwd);
    await Promise.all([mkdir(tmp), mkdir(state), mkdir(bin), mkdir(cwd, { recursive: true })]);
    const env: NodeJS.ProcessEnv = {};
    for (const [k, v] of Object.entries(options.env ?? process.env)) if (!SIM_ENV.test(k) && k !== HANDSHAKE_ENV) env[k] = v;
    env.TMPDIR = tmp;
    env.GENTLE_AI_SIM_STATE = state;
    let gentleAi: string;
    let pi: string;
    let transcript: string;
    if (options.mode === "live") {
      gentleAi = shims!.gentleAi;
      pi = shims!.pi;
      transcript = shims!.transcript;
      if (options.scenario !== null) {
        const scenarioPath = join(runDir, "scenario.json");
        await writeFile(scenarioPath, `${JSON.stringify(options.scenario, null, 2)}\n`);
        env.GENTLE_AI_SIM_SCENARIO = scenarioPath;
      }
    } else {
      gentleAi = paths.simGentleAi();
      pi = paths.simPi();
      transcript = join(runDir, "transcript.jsonl");
      env.GENTLE_AI_SIM_REPLAY = resolve(options.goldenPath);
      env.GENTLE_AI_SIM_REPLAY_CWD = cwd;
      env.GENTLE_AI_SIM_TRANSCRIPT = transcript;
    }
    // gentle-ai resolves `pi` on PATH for role vectors: that must be the same pi the relay is given.
    await symlink(pi, join(bin, "pi"));
    env.PATH = [bin, env.PATH ?? ""].join(delimiter);
    const context: NormaliseContext = { cwd, tmp, state, gentleAi, pi };
    const steps = options.steps === undefined ? undefined : options.steps.map((s) => mapStrings(s, (t) => denormaliseText(t, context)));
    const besideRelay = join(dirname(resolve(options.relayModule)), "finalize.ts");
    const finalizeModule = options.finalizeModule ?? (existsSync(besideRelay) ? besideRelay : undefined);
    const job: DriverJob = {
      relayModule: resolve(options.relayModule),
      ...(finalizeModule === undefined ? {} : { finalizeModule: resolve(finalizeModule) }),
      gentleAi,
      pi,
      cwd,
      ...(steps === undefined ? (options.mode === "live" && options.conversation !== undefined ? { conversation: options.conversation } : {}) : { steps }),
    };
    const raw = await runDriver(job, env, runDir);
    const rules = placeholderRules(context);
    return {
      steps: raw.steps.map((s) => mapStrings(s, (t) => normaliseText(t, rules))),
      outcomes: raw.outcomes.map((o) => normaliseOutcome(o, rules)),
      // Replayed calls are logged as they start and never nest; shim logs need ordering by start.
      calls:
        options.mode === "live"
          ? orderByStart(await readTranscript(transcript)).map(({ entry, nested }) => normaliseCall(entry, rules, nested))
          : (await readTranscript(transcript)).map((e) => normaliseCall(e, rules)),
    };
  } finally {
    await rm(runDir, { recursive: true, force: true });
    untrack();
  }
}
