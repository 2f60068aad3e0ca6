import { readdirSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { Outcome } from "../output/outcome.ts";
import type { TranscriptEntry } from "../output/transcript-schema.ts";
import { appendTranscript, blobOf } from "../output/transcript.ts";
import type { LoadedScenario } from "../scenario/loaded.ts";
import { ScenarioLoadError } from "../scenario/load-error.ts";
import { loadConfiguredScenario } from "./load-scenario.ts";
import { resolveBytes } from "../scenario/resolve-bytes.ts";
import { matchFaults } from "../faults/match.ts";
import { planFaults, type FaultPlan } from "../faults/apply.ts";
import { ConfigError, ENV_SCENARIO, ENV_STATE, ENV_TRANSCRIPT, readSimConfig, type SimConfig } from "./env-config.ts";
import { callKey, classifyCall, type CallClass } from "./classify-call.ts";
import { nextCallIndex } from "./call-counter.ts";
import type { CallIo } from "./call-io.ts";
import { failureLine, SIMULATOR_FAILURE_EXIT } from "./simulator-failure.ts";

// The runtime records the handshake for both programs; gates/handshake.ts keeps its own copy so that the pi bundle
// never loads the gentle-ai gate (importing it reorders the bundle's module init and breaks the fake pi).
export const HANDSHAKE_ENV = "GENTLE_PI_REVIEW_RELAY_CONTRACT";

/** What a simulated program computes from: the process as spawned plus the loaded configuration. */
export interface ProcessContext {
  readonly program: "gentle-ai" | "pi";
  readonly argv: readonly string[];
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  /** Absolute path the program was started as, for capabilities' executable digest. */
  readonly executablePath: string;
  readonly config: SimConfig;
  readonly loaded: LoadedScenario;
  /** 1-based index among calls of the same class; 0 when nothing needs it (the built-in scenario, no transcript). */
  readonly callIndex: number;
  /** Whole stdin, read on first use only. */
  readStdin(): Buffer;
  /** A file's bytes (path relative to cwd), recorded in the transcript. */
  readFile(path: string): Buffer;
}

/**
 * What a program produces: an outcome, which a replayed call (simulator/runtime/replay.ts) gives with the ending its
 * recording had; such a call's transcript line goes out before its output, so a caller that kills a recorded hang
 * still leaves it on record.
 */
export interface ProducedOutcome extends Outcome {
  readonly recordedExit?: TranscriptEntry["exit"];
}

/** One simulated program: its name and how it turns a context into an outcome. */
export interface ProgramSpec {
  readonly program: "gentle-ai" | "pi";
  /** pi records the names in its cwd at start (proof the relay's scratch directory was empty). */
  readonly recordCwdListing?: boolean;
  produce(context: ProcessContext): ProducedOutcome | Promise<ProducedOutcome>;
}

/** A call whose configuration and scenario loaded: what is known before it is counted or produces anything. */
export interface PreparedCall {
  readonly spec: ProgramSpec;
  readonly io: CallIo;
  readonly config: SimConfig;
  readonly loaded: LoadedScenario;
  readonly call: CallClass;
  readonly cwdListing: readonly string[] | undefined;
  readonly started: bigint;
  readonly startedAt: string;
}

/** Writes the call's transcript line (if one is configured); returns an error message instead of throwing. */
export type RecordCall = (stdout: Buffer, stderr: Buffer, exit: TranscriptEntry["exit"]) => string | null;

/** A counted, produced call: the fault plan to carry out and how to record it (and a replayed call's ending). */
export interface PlannedCall {
  readonly plan: FaultPlan;
  readonly record: RecordCall;
  readonly recordedExit?: TranscriptEntry["exit"];
}

/** Stamps the start, lists cwd (pi) and loads configuration and scenario; a bad configuration gives its stderr line. */
export async function prepareCall(
  spec: ProgramSpec,
  io: CallIo,
): Promise<PreparedCall | { readonly configError: string }> {
  const started = process.hrtime.bigint(); // not performance.now(): that loads perf_hooks on every start
  const startedAt = new Date().toISOString();
  const cwdListing = spec.recordCwdListing ? listDir(io.cwd) : undefined;
  // Configuration errors stop the call before it reads, counts or records anything.
  let config: SimConfig;
  let loaded: LoadedScenario;
  try {
    config = readSimConfig(io.env, io.cwd);
    loaded = await loadConfiguredScenario(config, io.cwd);
  } catch (error) {
    if (!(error instanceof ScenarioLoadError) && !(error instanceof ConfigError)) throw error;
    return { configError: `${error instanceof ConfigError ? `gentle-ai-sim: ${error.message}` : error.message}\n` };
  }
  // Children (gentle-ai's --execute spawns pi in a scratch cwd) must find the same scenario, state and transcript.
  absolutizeSimEnv(io.env, config);
  return { spec, io, config, loaded, call: classifyCall(spec.program, io.argv), cwdListing, started, startedAt };
}

/** Counts the call, produces its outcome, plans its faults; a fault-bytes failure gives its message. */
export async function planCall(prepared: PreparedCall): Promise<PlannedCall | { readonly failure: string }> {
  const { spec, io, config, loaded, call } = prepared;
  // The count serves nth-call faults and the transcript. A scenario file may gain faults between calls (the count
  // must then include the calls before), but the built-in scenario never has any: without a transcript its calls
  // leave no file behind, as gentle-ai keeps none (a client that sets only HOME finds nothing of ours in TMPDIR).
  const counted = config.scenarioPath !== null || config.transcriptPath !== null;
  const callIndex = counted ? nextCallIndex(config.stateDir, callKey(spec.program, call)) : 0;
  const reads: CallReads = { stdin: null, files: [] };
  const context: ProcessContext = {
    program: spec.program,
    argv: io.argv,
    env: io.env,
    cwd: io.cwd,
    executablePath: io.executablePath,
    config,
    loaded,
    callIndex,
    readStdin: () => (reads.stdin ??= io.readStdin()),
    readFile: (path) => {
      const bytes = readFileSync(resolve(io.cwd, path));
      reads.files.push({ path, ...blobOf(bytes, config.inlineMax) });
      return bytes;
    },
  };
  const outcome = await produceOutcome(spec, context);

  const faults = matchFaults(loaded.scenario.faults, { program: spec.program, ...call, callIndex });
  let plan: FaultPlan;
  try {
    plan = planFaults(outcome, faults, (bytes) => resolveBytes(bytes, loaded.dir));
  } catch (error) {
    // e.g. a fault's bytes file removed after the scenario loaded
    return { failure: `fault bytes: ${error instanceof Error ? error.message : String(error)}` };
  }
  const record = recorderOf(prepared, callIndex, plan, reads);
  return outcome.recordedExit === undefined ? { plan, record } : { plan, record, recordedExit: outcome.recordedExit };
}

/** What a call read while it ran (stdin once read, and files), for its transcript line. */
interface CallReads {
  stdin: Buffer | null;
  readonly files: TranscriptEntry["files"];
}

/** The program's outcome, or a simulator failure when it throws. */
async function produceOutcome(spec: ProgramSpec, context: ProcessContext): Promise<ProducedOutcome> {
  try {
    return await spec.produce(context);
  } catch (error) {
    // A simulator defect must be visible as such, never mistaken for provider behaviour.
    const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
    return {
      stdout: Buffer.alloc(0),
      stderr: failureLine(`internal error: ${text}`),
      exitCode: SIMULATOR_FAILURE_EXIT,
    };
  }
}

/** The call's RecordCall: one transcript line with what it read, the faults applied and how it ended. */
function recorderOf(prepared: PreparedCall, callIndex: number, plan: FaultPlan, reads: CallReads): RecordCall {
  const { spec, io, config, call } = prepared;
  return (stdout, stderr, exit) => {
    if (config.transcriptPath === null) return null;
    const stdin = reads.stdin;
    const entry: TranscriptEntry = {
      schema: "gentle-relay-conformance.transcript/v1",
      program: spec.program,
      pid: io.pid,
      argv: [...io.argv],
      cwd: io.cwd,
      ...(prepared.cwdListing === undefined ? {} : { cwdListing: [...prepared.cwdListing] }),
      // The handshake is the only environment value ever recorded.
      handshake: io.env[HANDSHAKE_ENV] ?? null,
      ...(call.verb === undefined ? {} : { verb: call.verb }),
      ...(call.leg === undefined ? {} : { leg: call.leg }),
      callIndex,
      faults: [...plan.applied],
      stdin: blobOf(stdin ?? Buffer.alloc(0), config.inlineMax),
      stdinRead: stdin !== null,
      files: reads.files,
      stdout: blobOf(stdout, config.inlineMax),
      stderr: blobOf(stderr, config.inlineMax),
      exit,
      timing: { startedAt: prepared.startedAt, durationMs: Number(process.hrtime.bigint() - prepared.started) / 1e6 },
    };
    try {
      appendTranscript(config.transcriptPath, entry);
      return null;
    } catch (error) {
      // A lost transcript line would silently weaken every check built on it: the caller fails loudly instead.
      return `transcript ${config.transcriptPath}: ${error instanceof Error ? error.message : String(error)}`;
    }
  };
}

function absolutizeSimEnv(env: NodeJS.ProcessEnv, config: SimConfig): void {
  if (env[ENV_SCENARIO] && config.scenarioPath !== null) env[ENV_SCENARIO] = config.scenarioPath;
  if (env[ENV_STATE]) env[ENV_STATE] = config.stateDir;
  if (env[ENV_TRANSCRIPT] && config.transcriptPath !== null) env[ENV_TRANSCRIPT] = config.transcriptPath;
}

function listDir(dir: string): string[] {
  try {
    return readdirSync(dir).sort();
  } catch {
    return [];
  }
}
