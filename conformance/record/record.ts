// Recording a golden: a scenario script runs against a gentle-ai with the recording shims in front of it (or the
// simulator in replayer mode, for `replay`), and its transcript and step outcomes are normalised into golden form.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { readTranscript } from "../../simulator/output/transcript.ts";
import { normaliseText, placeholderRules, type PlaceholderRule } from "../../simulator/output/path-placeholders.ts";
import type { Profile } from "../../simulator/scenario/schema.ts";
import { GOLDEN_SCHEMA_ID, type Golden, type GoldenCall, type GoldenOutcome } from "../goldens/golden-schema.ts";
import { normaliseCall, orderByStart } from "../goldens/normalise.ts";
import { runChild } from "../process/run-child.ts";
import type { Reproduction } from "../repro/format.ts";
import type { Outcome } from "../repro/outcome.ts";
import { runReproduction, type RunOptions } from "../repro/run.ts";
import type { Sandbox } from "../repro/sandbox.ts";
import { SIM_GENTLE_AI } from "../repro/paths.ts";
import { phaseScenario } from "../repro/world.ts";

/** A golden script's run in golden form. */
export interface CapturedRun {
  readonly calls: GoldenCall[];
  readonly outcomes: GoldenOutcome[];
  /** The run's report lines (what `repro` would print). */
  readonly log: readonly string[];
  readonly ok: boolean;
}

/** How to run a golden script: the engine's options without the output, which is captured. */
export type CaptureOptions = Omit<RunOptions, "out" | "onPhaseEnd">;

const TIMING_KEYS = /^(elapsedMs|durationMs|hostPid)$/;

function normaliseOutcome(outcome: Outcome, rules: readonly PlaceholderRule[]): GoldenOutcome {
  return Object.fromEntries(
    Object.entries(outcome).map(([k, v]) => [
      k,
      TIMING_KEYS.test(k) && v !== null ? "<MS>" : typeof v === "string" ? normaliseText(v, rules) : v,
    ]),
  );
}

/** Checks that a script can be a golden: one phase, since a golden's calls are numbered across one world. */
export function goldenScriptProblem(repro: Reproduction): string | undefined {
  return repro.phases.length === 1
    ? undefined
    : `${repro.file}: a golden script has exactly one phase (this one has ${repro.phases.length})`;
}

/** Runs a one-phase script and returns its calls and step outcomes normalised as a golden stores them. */
export async function captureScript(repro: Reproduction, options: CaptureOptions): Promise<CapturedRun> {
  const log: string[] = [];
  let captured: { calls: GoldenCall[]; outcomes: GoldenOutcome[] } = { calls: [], outcomes: [] };
  const onPhaseEnd = async (_index: number, sandbox: Sandbox): Promise<void> => {
    const rules = placeholderRules({
      cwd: sandbox.work,
      tmp: sandbox.tmp,
      state: sandbox.state,
      gentleAi: sandbox.gentleAi,
      pi: sandbox.pi,
    });
    const entries = readTranscript(sandbox.transcript);
    // Shim lines are written as calls end: ordered by start, with the calls the provider made itself marked nested.
    const calls =
      options.recording === "shim"
        ? orderByStart(entries).map(({ entry, nested }) => normaliseCall(entry, rules, nested))
        : entries.map((e) => normaliseCall(e, rules));
    captured = { calls, outcomes: sandbox.outcomes.map((o) => normaliseOutcome(o, rules)) };
  };
  const summary = await runReproduction(repro, { ...options, out: (l) => log.push(l), onPhaseEnd });
  return { ...captured, log, ok: summary.ok };
}

/** `gentle-ai version` stdout without its trailing newline (run outside the recording, in a scratch folder). */
export async function binaryVersion(
  gentleAi: string,
  scenario: Record<string, unknown> | null,
  env: NodeJS.ProcessEnv = process.env,
): Promise<string> {
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

/** What to record: a golden script, the gentle-ai it runs against, and the provenance to store. */
export interface RecordOptions {
  readonly repro: Reproduction;
  readonly name: string;
  /** The gentle-ai to record (default the simulator). */
  readonly binary?: string;
  readonly source: "simulator" | "binary";
  readonly profile: Profile;
  /** The relay module that drives the script's relay steps (default ours). */
  readonly against?: string;
  /** Where the golden will be written: its `script` is stored relative to that folder… */
  readonly goldenDir?: string;
  /** …unless given as it is stored (a re-recording keeps its golden's reference). */
  readonly script?: string;
  readonly commit?: string;
  readonly build?: string;
}

/** A recording: the golden, and whether the script's own checks held (with its report lines). */
export interface Recording {
  readonly golden: Golden;
  readonly ok: boolean;
  readonly log: readonly string[];
}

/** Records one golden through the recording shims; the relay drives the binary exactly as in production. */
export async function recordGolden(options: RecordOptions): Promise<Recording> {
  const scenario = phaseScenario(options.repro.phases[0]!, options.profile);
  const version = await binaryVersion(options.binary ?? SIM_GENTLE_AI, options.binary === undefined ? scenario : null);
  const run = await captureScript(options.repro, {
    recording: "shim",
    profile: options.profile,
    ...(options.binary === undefined ? {} : { binary: options.binary }),
    simulatorCompatible: options.source === "simulator",
    ...(options.against === undefined ? {} : { against: options.against }),
  });
  const description = options.repro.title;
  const golden: Golden = {
    schema: GOLDEN_SCHEMA_ID,
    name: options.name,
    description,
    script: options.script ?? relative(resolve(options.goldenDir ?? "."), resolve(options.repro.file)),
    source: {
      kind: options.source,
      version,
      ...(options.commit ? { commit: options.commit } : {}),
      ...(options.build ? { build: options.build } : {}),
    },
    profile: options.profile,
    calls: run.calls,
    outcomes: run.outcomes,
  };
  return { golden, ok: run.ok, log: run.log };
}
