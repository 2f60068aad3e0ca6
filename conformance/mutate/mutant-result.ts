// What testing one mutant concludes, as the mutation testing report names it (report.ts writes it).
import type { MutantSpec } from "./instrument.ts";

/** A mutant's status, as the mutation testing report names it. */
export type MutantStatus =
  "Killed" | "Survived" | "NoCoverage" | "Timeout" | "CompileError" | "RuntimeError" | "Ignored";

export interface MutantResult extends MutantSpec {
  readonly status: MutantStatus;
  /** The clause that killed it. */
  readonly killedBy?: string;
  readonly statusReason?: string;
  /** The clauses whose cases execute it. */
  readonly coveredBy: readonly string[];
  readonly testsCompleted: number;
  readonly static: boolean;
  /** Wall time from the mutant's start to its verdict, in ms (absent: never run). */
  readonly duration?: number;
}
