import { readdirSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { Outcome } from "../gentle-ai/invocation.ts";
import type { TranscriptEntry } from "../output/transcript-schema.ts";
import { appendTranscript, blobOf } from "../output/transcript.ts";
import type { LoadedScenario } from "../scenario/loaded.ts";
import { ScenarioLoadError } from "../scenario/load-error.ts";
import { loadConfiguredScenario } from "./load-scenario.ts";
import { resolveBytes } from "../scenario/resolve-bytes.ts";
import { matchFaults } from "../faults/match.ts";
import { planFaults, type FaultPlan } from "../faults/apply.ts";
import { ConfigError, ENV_SCENARIO, ENV_STATE, ENV_TRANSCRIPT, readSimConfig, type SimConfig } from "./env-config.ts";
import { callKey, classifyCall } from "./classify-call.ts";
import { nextCallIndex } from "./call-counter.ts";
import { writeAllSync, writeDripSync } from "./emit.ts";
import { readAllSync } from "./read-stdin.ts";
import { hangForever, sleepSync } from "./sleep.ts";

export const HANDSHAKE_ENV = "GENTLE_PI_REVIEW_RELAY_CONTRACT";

/** What a simulated program computes from: the process as spawned plus the loaded configuration. */
export interface ProcessContext {
  readonly program: "gentle-ai" | "pi";
  readonly argv: readonly string[];
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  readonly config: SimConfig;
  readonly loaded: LoadedScenario;
  readonly callIndex: number;
  /** Whole stdin, read on first use only. */
  readStdin(): Buffer;
  /** A file's bytes (path relative to cwd), recorded in the transcript. */
  readFile(path: string): Buffer;
}

/** One simulated program: its name and how it turns a context into an outcome. */
export interface ProgramSpec {
  readonly program: "gentle-ai" | "pi";
  /** pi records the names in its cwd at start (proof the relay's scratch directory was empty). */
  readonly recordCwdListing?: boolean;
  produce(context: ProcessContext): Outcome | Promise<Outcome>;
}

/** Runs one simulated process end to end: config, scenario, call index, outcome, faults, streams, transcript, exit. */
export async function runProcess(spec: ProgramSpec): Promise<never> {
  const started = process.hrtime.bigint(); // not performance.now(): that loads perf_hooks on every start
  const startedAt = new Date().toISOString();
  const argv = process.argv.slice(2);
  const cwd = process.cwd();
  const env = process.env;
  const cwdListing = spec.recordCwdListing ? listDir(cwd) : undefined;

  // Replayer mode (conformance/goldens): answers from a recorded golden and exits; loaded only when asked for.
  if (env.GENTLE_AI_SIM_REPLAY) {
    const { replayIfRequested } = await import("./replay.ts");
    replayIfRequested(spec.program, env);
  }

  // Configuration errors stop the process before it reads, counts or records anything.
  let config: SimConfig;
  let loaded: LoadedScenario;
  try {
    config = readSimConfig(env, cwd);
    loaded = await loadConfiguredScenario(config, cwd);
  } catch (error) {
    if (!(error instanceof ScenarioLoadError) && !(error instanceof ConfigError)) throw error;
    writeAllSync(2, Buffer.from(`${error instanceof ConfigError ? `gentle-ai-sim: ${error.message}` : error.message}\n`, "utf8"));
    process.exit(2);
  }

  // Children (gentle-ai's --execute spawns pi in a scratch cwd) must find the same scenario, state and transcript.
  absolutizeSimEnv(env, config);

  const call = classifyCall(spec.program, argv);
  const callIndex = nextCallIndex(config.stateDir, callKey(spec.program, call));
  let stdin: Buffer | null = null;
  const files: TranscriptEntry["files"] = [];
  const context: ProcessContext = {
    program: spec.program,
    argv,
    env,
    cwd,
    config,
    loaded,
    callIndex,
    readStdin: () => (stdin ??= readAllSync(0)),
    readFile: (path) => {
      const bytes = readFileSync(resolve(cwd, path));
      files.push({ path, ...blobOf(bytes, config.inlineMax) });
      return bytes;
    },
  };

  let outcome: Outcome;
  try {
    outcome = await spec.produce(context);
  } catch (error) {
    // A simulator defect must be visible as such, never mistaken for provider behaviour.
    const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
    outcome = { stdout: Buffer.alloc(0), stderr: Buffer.from(`gentle-ai-sim: internal error: ${text}\n`, "utf8"), exitCode: SIMULATOR_FAILURE_EXIT };
  }

  const faults = matchFaults(loaded.scenario.faults, { program: spec.program, ...call, callIndex });
  let plan: FaultPlan;
  try {
    plan = planFaults(outcome, faults, (bytes) => resolveBytes(bytes, loaded.dir));
  } catch (error) {
    // e.g. a fault's bytes file removed after the scenario loaded
    return simulatorFailure(`fault bytes: ${error instanceof Error ? error.message : String(error)}`);
  }

  const record = (stdout: Buffer, stderr: Buffer, exit: TranscriptEntry["exit"]): void => {
    if (config.transcriptPath === null) return;
    const entry: TranscriptEntry = {
      schema: "gentle-relay-conformance.transcript/v1",
      program: spec.program,
      pid: process.pid,
      argv,
      cwd,
      ...(cwdListing === undefined ? {} : { cwdListing }),
      // The handshake is the only environment value ever recorded.
      handshake: env[HANDSHAKE_ENV] ?? null,
      ...(call.verb === undefined ? {} : { verb: call.verb }),
      ...(call.leg === undefined ? {} : { leg: call.leg }),
      callIndex,
      faults: [...plan.applied],
      stdin: blobOf(stdin ?? Buffer.alloc(0), config.inlineMax),
      stdinRead: stdin !== null,
      files,
      stdout: blobOf(stdout, config.inlineMax),
      stderr: blobOf(stderr, config.inlineMax),
      exit,
      timing: { startedAt, durationMs: Number(process.hrtime.bigint() - started) / 1e6 },
    };
    try {
      appendTranscript(config.transcriptPath, entry);
    } catch (error) {
      // A lost transcript line would silently weaken every check built on it: fail loudly instead.
      simulatorFailure(`transcript ${config.transcriptPath}: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  return execute(plan, record);
}

const EMPTY = Buffer.alloc(0);

function execute(plan: FaultPlan, record: (stdout: Buffer, stderr: Buffer, exit: TranscriptEntry["exit"]) => void): never {
  if (plan.delayMs > 0) sleepSync(plan.delayMs);
  const write = (fd: number, bytes: Buffer): void => {
    try {
      if (plan.drip) writeDripSync(fd, bytes, plan.drip.chunkBytes, plan.drip.intervalMs);
      else writeAllSync(fd, bytes);
    } catch (error) {
      // The reader went away: the rest of this stream is lost, as for any CLI; the call still ends as planned.
      if ((error as NodeJS.ErrnoException).code !== "EPIPE") throw error;
    }
  };
  const t = plan.termination;
  switch (t.kind) {
    case "exit":
      write(1, plan.stdout);
      write(2, plan.stderr);
      record(plan.stdout, plan.stderr, { code: plan.exitCode, signal: null, completed: true });
      return process.exit(plan.exitCode);
    case "hang":
      // The line goes out first: the relay will SIGKILL this process.
      record(EMPTY, EMPTY, { code: null, signal: null, completed: false });
      return hangForever();
    case "partial-then-hang": {
      const part = plan.stdout.subarray(0, t.bytes);
      write(1, part);
      record(part, EMPTY, { code: null, signal: null, completed: false });
      return hangForever();
    }
    case "crash-mid-write": {
      const part = plan.stdout.subarray(0, t.bytes);
      write(1, part);
      record(part, EMPTY, { code: plan.exitCode, signal: null, completed: false });
      // Abrupt: the rest of stdout and all of stderr are never written.
      return process.exit(plan.exitCode);
    }
    case "signal":
      record(EMPTY, EMPTY, { code: null, signal: t.signal, completed: false });
      process.kill(process.pid, t.signal);
      // Delivery to ourselves is synchronous on Linux; this only guards against an ignored signal.
      sleepSync(5_000);
      return process.exit(128);
  }
}

/** Exit code of a simulator defect (EX_SOFTWARE); real gentle-ai exits only 0 or 1. */
export const SIMULATOR_FAILURE_EXIT = 70;

function simulatorFailure(message: string): never {
  writeAllSync(2, Buffer.from(`gentle-ai-sim: ${message}\n`, "utf8"));
  return process.exit(SIMULATOR_FAILURE_EXIT);
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
