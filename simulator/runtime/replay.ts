// Replayer mode: with GENTLE_AI_SIM_REPLAY=<golden> the fake gentle-ai and pi answer each call with the bytes the
// golden recorded for that position in the conversation, instead of computing anything. It is a `produce` variant
// run through planCall like any call: what the caller actually sent (stdin, files handed by path) goes to
// GENTLE_AI_SIM_TRANSCRIPT, and the replay command diffs it against the golden.
import { readFileSync } from "node:fs";
import type { Blob, TranscriptEntry } from "../output/transcript-schema.ts";
import { blobBytes } from "../output/transcript.ts";
import { denormaliseBytes } from "../output/path-placeholders.ts";
import { inputFilePaths } from "../output/captured-files.ts";
import { nextCallIndex } from "./call-counter.ts";
import { tmpDirOf } from "./env-config.ts";
import type { ProcessContext, ProducedOutcome, ProgramSpec } from "./plan-call.ts";

export const ENV_REPLAY = "GENTLE_AI_SIM_REPLAY";
/** The repository cwd that `<CWD>` stands for in recorded bytes (default: the call's cwd). */
export const ENV_REPLAY_CWD = "GENTLE_AI_SIM_REPLAY_CWD";
/** Exit code of a call the golden does not have; real gentle-ai never exits 125. */
export const REPLAY_DIVERGED_EXIT = 125;

/** What the replayer reads of one recorded call (a golden's `calls[i]`, conformance/goldens/golden-schema.ts). */
export interface RecordedCall {
  readonly program: "gentle-ai" | "pi";
  /** Made by the provider itself during another call: not replayed (the outer call is answered as a whole). */
  readonly nested?: true;
  readonly stdout: Pick<Blob, "base64">;
  readonly stderr: Pick<Blob, "base64">;
  readonly exit: TranscriptEntry["exit"];
}

function expectedCall(goldenPath: string, index: number, program: string): RecordedCall | string {
  // The replay command validated the golden before starting; each replayed call only needs its calls array.
  let golden: { calls: RecordedCall[] };
  try {
    golden = JSON.parse(readFileSync(goldenPath, "utf8")) as { calls: RecordedCall[] };
    if (!Array.isArray(golden.calls)) throw new Error("no calls array");
  } catch (error) {
    return `cannot load golden ${goldenPath}: ${(error as Error).message.split("\n")[0]}`;
  }
  const calls = golden.calls.filter((c) => !c.nested);
  const call = calls[index];
  if (call === undefined) return `call ${index} is beyond the golden's ${calls.length} replayable calls`;
  if (call.program !== program) return `call ${index} is ${program} but the golden recorded ${call.program}`;
  return call;
}

/** The program answering from the golden at `goldenPath` instead of computing; cwd listing as the real spec. */
export function replaySpec(spec: ProgramSpec, goldenPath: string): ProgramSpec {
  return { ...spec, produce: (context) => replayCall(context, goldenPath) };
}

function replayCall(context: ProcessContext, goldenPath: string): ProducedOutcome {
  const { program, argv, cwd, env, config } = context;
  // Files handed by path and stdin are recorded for every call, as the recorder's shims capture them.
  for (const path of inputFilePaths(argv, cwd)) {
    try {
      context.readFile(path);
    } catch {
      // gone since it was found: as if it had never been there
    }
  }
  context.readStdin();
  // One counter over both programs: the call's position in the whole conversation.
  const index = nextCallIndex(config.stateDir, "replay") - 1;
  const call = expectedCall(goldenPath, index, program);
  if (typeof call === "string") {
    const exit = { code: REPLAY_DIVERGED_EXIT, signal: null, completed: true };
    return {
      stdout: Buffer.alloc(0),
      stderr: Buffer.from(`gentle-ai-sim: replay: ${call}\n`),
      exitCode: REPLAY_DIVERGED_EXIT,
      recordedExit: exit,
    };
  }
  const placeholders = { cwd: env[ENV_REPLAY_CWD] || cwd, tmp: tmpDirOf(env), state: config.stateDir };
  return {
    stdout: denormaliseBytes(blobBytes(call.stdout), placeholders),
    stderr: denormaliseBytes(blobBytes(call.stderr), placeholders),
    exitCode: call.exit.code ?? 1,
    recordedExit: call.exit,
  };
}
