import { tmpdir } from "node:os";
import { harnessPaths } from "../paths.ts";
import type { HostTask } from "./protocol.ts";
import { describeOutcome, type JobOutcome } from "./job-outcome.ts";
import { RelayHost } from "./relay-host.ts";

/** Where and how long a one-shot task runs. */
export interface TaskOptions {
  readonly cwd: string;
  /** The task's process.env, and the host child's environment at start (but for TMPDIR, the harness's). */
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly timeoutMs: number;
  /** Folders whose processes die with the host (a run's temp folder). */
  readonly markers?: readonly string[];
}

/** What a one-shot task returned, with the pid of the host child that ran it. */
export interface TaskResult {
  readonly value: unknown;
  readonly hostPid: number | undefined;
}

let nextId = 1;

/** How a one-shot task ended (any JobOutcome), with the pid of the host child that ran it. */
export interface TaskOutcome {
  readonly outcome: JobOutcome;
  readonly hostPid: number | undefined;
}

/**
 * Runs one harness task in a fresh relay host and closes it, killing its whole tree; resolves with how the job ended
 * (never rejects), for callers that turn a timeout or a dead child into their own typed result.
 */
export async function runTaskOutcome(task: HostTask, options: TaskOptions): Promise<TaskOutcome> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(options.env)) if (v !== undefined) env[k] = v;
  const paths = harnessPaths();
  // The child starts with the harness's TMPDIR, so jiti finds its compile cache there instead of transforming every
  // module again in a fresh folder; the task's TMPDIR is the job's (processEnv), as every other variable is.
  // Contained as `run`'s hosts are (process/containment.ts): a task starts a relay (repro's `relay` step, goldens'
  // record and replay, a correction client), and what that relay detaches dies with the host's namespace.
  const host = new RelayHost({
    tsxLoader: paths.tsxLoader,
    adapterChild: paths.adapterChild,
    cwd: options.cwd,
    env: { ...env, TMPDIR: tmpdir() },
    contain: true,
  });
  try {
    const id = nextId++;
    const markers = options.markers ?? [];
    const outcome = await host.run(
      { id, op: "task", relayModule: task.module, cwd: options.cwd, processEnv: env, task },
      { timeoutMs: options.timeoutMs, markers },
    );
    return { outcome, hostPid: host.pid };
  } finally {
    await host.kill(options.markers ?? []);
  }
}

/**
 * Runs one harness task in a fresh relay host and closes it, killing its whole tree; resolves with the task's JSON
 * result, rejects with why there was none (the task threw, timed out, or the child died).
 */
export async function runTaskInHost(task: HostTask, options: TaskOptions): Promise<TaskResult> {
  const { outcome, hostPid } = await runTaskOutcome(task, options);
  if (outcome.status === "reply" && outcome.reply.type === "result") return { value: outcome.reply.value, hostPid };
  throw new Error(
    outcome.status === "reply" && outcome.reply.type === "load-error"
      ? outcome.reply.message
      : describeOutcome(outcome),
  );
}

/** runTaskInHost, for callers that want the value only. */
export async function runTask(task: HostTask, options: TaskOptions): Promise<unknown> {
  return (await runTaskInHost(task, options)).value;
}
