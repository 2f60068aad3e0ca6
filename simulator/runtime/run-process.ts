import type { TranscriptEntry } from "../output/transcript-schema.ts";
import type { FaultPlan } from "../faults/apply.ts";
import { nativeCallIo } from "./call-io.ts";
import { planCall, prepareCall, type ProgramSpec, type RecordCall } from "./plan-call.ts";
import { writeAllSync, writeUnlessClosed } from "../platform/emit.ts";
import { simulatorFailure } from "./simulator-failure.ts";
import { hangForever, sleepSync } from "../platform/sleep.ts";

/** Runs one simulated process end to end: config, scenario, call index, outcome, faults, streams, transcript, exit. */
export async function runProcess(program: ProgramSpec): Promise<never> {
  const io = nativeCallIo();
  // Replayer mode (the replay command): the outcome comes from a recorded golden; loaded only when asked for.
  const goldenPath = io.env.GENTLE_AI_SIM_REPLAY;
  const spec = goldenPath ? (await import("./replay.ts")).replaySpec(program, goldenPath) : program;
  const prepared = await prepareCall(spec, io);
  if ("configError" in prepared) {
    writeAllSync(2, Buffer.from(prepared.configError, "utf8"));
    return process.exit(2);
  }
  const planned = await planCall(prepared);
  if ("failure" in planned) return simulatorFailure(planned.failure);
  if (planned.recordedExit !== undefined) return endAsRecorded(planned.plan, planned.record, planned.recordedExit);
  return execute(planned.plan, planned.record);
}

/** A replayed call: its line on the transcript first, then all of its output, then the recorded ending. */
function endAsRecorded(plan: FaultPlan, recordCall: RecordCall, exit: TranscriptEntry["exit"]): never {
  const failure = recordCall(plan.stdout, plan.stderr, exit);
  if (failure !== null) simulatorFailure(failure);
  writeAllSync(1, plan.stdout);
  writeAllSync(2, plan.stderr);
  if (!exit.completed) return hangForever();
  if (exit.signal !== null) process.kill(process.pid, exit.signal as NodeJS.Signals);
  return process.exit(exit.code ?? 1);
}

const EMPTY = Buffer.alloc(0);

function execute(plan: FaultPlan, recordCall: RecordCall): never {
  const record = (stdout: Buffer, stderr: Buffer, exit: TranscriptEntry["exit"]): void => {
    const failure = recordCall(stdout, stderr, exit);
    if (failure !== null) simulatorFailure(failure);
  };
  // A handler that does nothing replaces SIGTERM's default action; the blocked event loop never even runs it.
  if (plan.trapSigterm) process.on("SIGTERM", () => undefined);
  if (plan.delayMs > 0) sleepSync(plan.delayMs);
  const write = (fd: number, bytes: Buffer): void => writeUnlessClosed(fd, bytes, plan.drip);
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
