import type { AdapterReply } from "./protocol.ts";

/** Where a relay call that did not settle hung, and the evidence (runner/hang-watch.ts). */
export interface HangEvidence {
  /** The leg it hung in (materialize, pi, submit: the last launched), "none" before any, "unknown" without a census. */
  readonly leg: string;
  /** What it was waiting for, in one sentence. */
  readonly waitingFor: string;
  /** One line per process of the call still running: pid, argv, what it was blocked in, its I/O so far. */
  readonly processes: readonly string[];
  /** True when decided before the bound: nothing could wake the relay before it (a patient run times out too). */
  readonly early: boolean;
}

/** Watches a job in flight for a relay that can no longer settle (runner/hang-watch.ts). */
export interface HangWatch {
  /** Starts watching; calls `hung` once the relay provably cannot settle before its bound. */
  begin(
    host: { census(withinMs?: number): Promise<Extract<AdapterReply, { type: "census" }> | null> },
    boundMs: number,
    hung: () => void,
  ): void;
  end(): void;
  /** What the watch last saw, for the timeout's message. */
  evidence(): HangEvidence | undefined;
}

/** The relay's own evidence when its child had to go: exit, signal and the tail of what it printed. */
export interface ChildEvidence {
  readonly code: number | null;
  readonly signal: string | null;
  /** The last OUTPUT_TAIL bytes of the child's stdout and stderr, interleaved as they arrived. */
  readonly output: string;
}

/**
 * How one job ended. Every ending but `reply` leaves the child killed with its whole process tree:
 * - timeout: no reply within the job's load-scaled bound (a relay that never settles, or wedges the child);
 * - exited: the child died mid-job (the relay exited, crashed or ran out of heap);
 * - protocol: the relay broke the reply channel (garbage, a foreign or oversized line, fd 3 closed);
 * - harness: the harness's own fault (the child could not start, was busy, or the run was cancelled).
 */
export type JobOutcome =
  | { readonly status: "reply"; readonly reply: AdapterReply }
  | {
      readonly status: "timeout";
      readonly timeoutMs: number;
      readonly wallMs: number;
      readonly evidence: ChildEvidence;
      readonly hang?: HangEvidence;
    }
  | { readonly status: "exited"; readonly evidence: ChildEvidence }
  | { readonly status: "protocol"; readonly detail: string; readonly evidence: ChildEvidence }
  | { readonly status: "harness"; readonly detail: string };

/** Per-job options: the bound, folders whose processes die with the child, and a run-wide cancellation. */
export interface JobOptions {
  readonly timeoutMs: number;
  /** Folders a relay's escaped processes carry (the case folder): killed with the child's tree. */
  readonly markers?: readonly string[];
  readonly signal?: AbortSignal;
  /** Decides a hang early and says where it hung (run jobs of catalogue cases). */
  readonly hangWatch?: HangWatch;
}

/** The last lines of a child's output, for a one-line message; a fatal V8 line (heap limit) leads when there is one. */
export function tail(output: string, chars = 600): string {
  const trimmed = output.trim();
  if (trimmed === "") return "(no output)";
  const fatal = /^.*FATAL ERROR:.*$/m.exec(trimmed)?.[0]?.trim();
  const end = trimmed.slice(-chars);
  return fatal === undefined || end.includes(fatal) ? end : `${fatal} … ${end}`;
}

/** One line saying why a job gave no usable reply (for callers that only want a reply or an error). */
export function describeOutcome(outcome: JobOutcome): string {
  switch (outcome.status) {
    case "reply":
      return outcome.reply.type === "error"
        ? `${outcome.reply.error.name}: ${outcome.reply.error.message}`
        : `unexpected ${outcome.reply.type} reply`;
    case "timeout":
      return `no reply within ${outcome.timeoutMs}ms: ${tail(outcome.evidence.output)}`;
    case "exited":
      return `the host child exited (exit ${outcome.evidence.code ?? "null"} signal ${outcome.evidence.signal ?? "null"}): ${tail(outcome.evidence.output)}`;
    case "protocol":
    case "harness":
      return outcome.detail;
  }
}
