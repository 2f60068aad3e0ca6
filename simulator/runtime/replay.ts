// Replayer mode: with GENTLE_AI_SIM_REPLAY=<golden> the fake gentle-ai and pi answer each call with the bytes the
// golden recorded for that position in the conversation, instead of computing anything. What the caller actually
// sent is appended to GENTLE_AI_SIM_TRANSCRIPT, and the replay command diffs it against the golden.
import { readFileSync, readdirSync } from "node:fs";
import { sha256Hex } from "./sha256.ts";
import { tmpDirOf } from "./env-config.ts";
import { join } from "node:path";
import type { GoldenCall } from "../../conformance/goldens/golden-schema.ts";
import { appendTranscript, capturedInputFiles, transcriptEntry } from "../../conformance/goldens/capture.ts";
import { blobBytes, denormaliseBytes } from "../../conformance/goldens/normalise.ts";
import { nextCallIndex } from "./call-counter.ts";
import { readAllSync } from "./read-stdin.ts";
import { writeAllSync } from "./emit.ts";
import { hangForever } from "./sleep.ts";

export const ENV_REPLAY = "GENTLE_AI_SIM_REPLAY";
/** The repository cwd that `<CWD>` stands for in recorded bytes (default: the call's cwd). */
export const ENV_REPLAY_CWD = "GENTLE_AI_SIM_REPLAY_CWD";
/** Exit code of a call the golden does not have; real gentle-ai never exits 125. */
export const REPLAY_DIVERGED_EXIT = 125;

function stateDirFor(env: NodeJS.ProcessEnv, goldenPath: string): string {
  const state = env.GENTLE_AI_SIM_STATE;
  if (state) return state;
  const key = sha256Hex(`replay:${goldenPath}`).slice(0, 16);
  return join(tmpDirOf(env), "gentle-ai-sim-state", key);
}

function expectedCall(goldenPath: string, index: number, program: string): GoldenCall | string {
  // The replay command validated the golden before starting; each replayed call only needs its calls array.
  let golden: { calls: GoldenCall[] };
  try {
    golden = JSON.parse(readFileSync(goldenPath, "utf8")) as { calls: GoldenCall[] };
    if (!Array.isArray(golden.calls)) throw new Error("no calls array");
  } catch (error) {
    return `cannot load golden ${goldenPath}: ${(error as Error).message.split("\n")[0]}`;
  }
  // Calls the provider made itself (nested) are not replayed: the outer call is answered as a whole.
  const calls = golden.calls.filter((c) => !c.nested);
  const call = calls[index];
  if (call === undefined) return `call ${index} is beyond the golden's ${calls.length} replayable calls`;
  if (call.program !== program) return `call ${index} is ${program} but the golden recorded ${call.program}`;
  return call;
}

/** Answers this process's call from the golden when GENTLE_AI_SIM_REPLAY is set; otherwise returns false at once. */
export function replayIfRequested(program: "gentle-ai" | "pi", env: NodeJS.ProcessEnv = process.env): boolean {
  const goldenPath = env[ENV_REPLAY];
  if (!goldenPath) return false;
  const startedAt = new Date();
  const started = performance.now();
  const argv = process.argv.slice(2);
  const cwd = process.cwd();
  const cwdListing = program === "pi" ? readdirSync(cwd).sort() : undefined;
  const files = capturedInputFiles(argv, cwd);
  const stateDir = stateDirFor(env, goldenPath);
  const index = nextCallIndex(stateDir, "replay") - 1;
  const stdin = readAllSync(0);
  const call = expectedCall(goldenPath, index, program);
  const context = { cwd: env[ENV_REPLAY_CWD] || cwd, tmp: tmpDirOf(env), state: stateDir };
  const stdout = typeof call === "string" ? Buffer.alloc(0) : denormaliseBytes(blobBytes(call.stdout), context);
  const stderr =
    typeof call === "string" ? Buffer.from(`gentle-ai-sim: replay: ${call}\n`) : denormaliseBytes(blobBytes(call.stderr), context);
  const exit = typeof call === "string" ? { code: REPLAY_DIVERGED_EXIT, signal: null, completed: true } : call.exit;
  const transcript = env.GENTLE_AI_SIM_TRANSCRIPT;
  if (transcript) {
    // Written before any output: a caller that kills a recorded hang still leaves this call on record.
    appendTranscript(
      transcript,
      transcriptEntry({
        program,
        pid: process.pid,
        argv,
        cwd,
        ...(cwdListing === undefined ? {} : { cwdListing }),
        env,
        stdin,
        files,
        stdout,
        stderr,
        exit,
        startedAt,
        durationMs: performance.now() - started,
      }),
    );
  }
  writeAllSync(1, stdout);
  writeAllSync(2, stderr);
  if (!exit.completed) hangForever();
  if (exit.signal !== null) process.kill(process.pid, exit.signal as NodeJS.Signals);
  process.exit(exit.code ?? 1);
}
