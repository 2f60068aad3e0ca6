// One mutant against the clauses that cover it, up to the first that kills it. Clauses run one at a time on the
// mutant's lane, but one whose covering cases wait a prescribed time (a relay timeout, a delayed leg) is started on
// the wait lanes and left running while the next clauses go on: the wait costs no core. Whichever clause fails first
// kills the mutant; the clauses still in flight are abandoned (Trial.abandon).
import type { Clause } from "../clauses/types.ts";
import type { ClauseOrder } from "./clause-order.ts";
import type { MutantSpec } from "./instrument.ts";
import type { MutantResult } from "./mutant-result.ts";
import type { Trial, Verdict } from "./trial.ts";

/** At most this many waiting clauses of one mutant in flight at once. */
const MAX_WAITING = 3;

/** How a mutant's clauses are chosen and costed. */
export interface MutantPlan {
  readonly covering: readonly Clause[];
  readonly isStatic: boolean;
  readonly order: ClauseOrder;
  /** What the clause's cases that execute this mutant took in the coverage run. */
  costMs(clause: Clause): number;
  /** Whether one of those cases prescribes a wait. */
  waits(clause: Clause): boolean;
}

interface Tally {
  completed: number;
  error?: string;
  killer?: { readonly clause: string; readonly message: string };
}

/** Runs the covering clauses, best first (ClauseOrder), until one fails. */
export async function testMutant(trial: Trial, mutant: MutantSpec, plan: MutantPlan): Promise<MutantResult> {
  const tally: Tally = { completed: 0 };
  const decide = (clause: Clause, verdict: Verdict): void => {
    tally.completed += 1;
    const killed = verdict.status === "fail";
    if (verdict.status === "pass" || killed) plan.order.learn(clause.id, mutant, killed);
    if (killed) tally.killer ??= { clause: clause.id, message: verdict.message };
    if (verdict.status === "error") tally.error ??= `${clause.id}: ${verdict.message}`;
  };
  const inFlight = new Set<Promise<void>>();
  const left = [...plan.covering];
  while (tally.killer === undefined && left.length > 0) {
    const clause = plan.order.next(left, mutant, (c) => plan.costMs(c));
    if (clause === undefined) break;
    left.splice(left.indexOf(clause), 1);
    if (plan.isStatic || !plan.waits(clause)) {
      decide(clause, await trial.clause(clause));
      continue;
    }
    while (inFlight.size >= MAX_WAITING) await Promise.race(inFlight);
    const running: Promise<void> = trial
      .clause(clause)
      .catch((error: unknown): Verdict => ({
        status: "error",
        message: error instanceof Error ? error.message : String(error),
      }))
      .then((verdict) => {
        inFlight.delete(running);
        decide(clause, verdict);
      });
    inFlight.add(running);
  }
  while (tally.killer === undefined && inFlight.size > 0) await Promise.race(inFlight);
  trial.abandon();
  return resultOf(mutant, trial, plan, tally);
}

function resultOf(mutant: MutantSpec, trial: Trial, plan: MutantPlan, tally: Tally): MutantResult {
  const base = {
    ...mutant,
    coveredBy: plan.covering.map((c) => c.id),
    testsCompleted: tally.completed,
    static: plan.isStatic,
  };
  if (tally.killer !== undefined)
    return {
      ...base,
      status: trial.timedOut ? "Timeout" : "Killed",
      killedBy: tally.killer.clause,
      statusReason: tally.killer.message,
    };
  if (trial.timedOut) return { ...base, status: "Timeout" };
  if (tally.error !== undefined) return { ...base, status: "RuntimeError", statusReason: tally.error };
  return { ...base, status: "Survived" };
}
