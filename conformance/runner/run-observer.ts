// Optional timing and counting hooks of a catalogue run, for the bench's floor figures (bench/conformance.ts).
// Every hook is optional and every call site checks for the observer first, so a run without one pays nothing.
import type { TranscriptEntry } from "../clauses/transcript.ts";

/** A harness-side step of one case, timed on its lane. */
export type HarnessStep =
  /** Creating the case's folders and writing its scenario. */
  | "sandbox"
  /** Acquiring the relay slot (STATUS), or waiting for a shared answer. */
  | "status"
  /** The case's host-side steps before the relay runs (`before`). */
  | "before"
  /** Starting a lane's adapter child and loading the relay module in it. */
  | "worker-start"
  /** The relay call in the adapter child, start-up of a replaced child excluded. */
  | "relay"
  /** Reading the transcript and leftovers, killing survivors, removing the case's folders. */
  | "evidence";

/** What one finished case cost in processes and relay time. */
export interface CaseProcesses {
  readonly caseId: string;
  readonly profile: string;
  /** Wall time of the relay job, a child start it needed included. */
  readonly relayMs: number;
  /**
   * The simulated calls the relay made, one entry per process it (or a simulated program for it) started: the floor.
   */
  readonly relayTranscript: readonly TranscriptEntry[];
  /**
   * The simulated calls the harness made for its own setup (STATUS, host-side steps): spawned, or answered in the
   * harness's own process through the simulator's planner (those carry the harness's pid).
   */
  readonly harnessTranscript: readonly TranscriptEntry[];
  /** The lane it ran on (see RunObserver.step). */
  readonly lane?: number;
}

/** Hooks a run calls when given (RunOptions.observer). */
export interface RunObserver {
  /**
   * One harness step took `ms` on a lane: CPU lanes are numbered from 0, wait lanes follow them (prescribed-waits.ts).
   */
  step?(step: HarnessStep, ms: number, lane?: number): void;
  /** A case ended; its process counts. */
  caseProcesses?(counts: CaseProcesses): void;
  /** A lane task ended: a catalogue case, or a property with all its generated cases (`ms` includes them). */
  task?(kind: "case" | "property", ms: number, lane?: number): void;
  /**
   * A phase of the run outside the lane tasks: probing the module on lane 0 before any case, another lane's child
   * starting alongside that probe (once per such lane), or closing the lanes after the last case.
   */
  phase?(phase: "probe" | "warm" | "close", ms: number): void;
}

/** The observer as one lane reports to it: each step, case and task it passes on carries the lane. */
export function onLane(observer: RunObserver, lane: number): RunObserver {
  return {
    step: (step, ms) => observer.step?.(step, ms, lane),
    caseProcesses: (counts) => observer.caseProcesses?.({ ...counts, lane }),
    task: (kind, ms) => observer.task?.(kind, ms, lane),
    phase: (phase, ms) => observer.phase?.(phase, ms),
  };
}

/** Milliseconds since `start` (a performance.now() value). */
export function since(start: number): number {
  return performance.now() - start;
}
