// A clause's verdict from its checks' outcomes: what a check threw, a case's escaped processes and hang, combined
// per profile and then per clause.
import type { Profile } from "../../simulator/scenario/schema.ts";
import { escapedCause, outcomeCause } from "../clauses/expect.ts";
import {
  ClauseFailure,
  HarnessError,
  HungFailure,
  SkipCheck,
  type CaseCheck,
  type CaseRun,
  type Clause,
  type ClauseCheck,
  type ProbeCheck,
  type ProbeView,
} from "../clauses/types.ts";
import type { ProbeResult } from "../process/protocol.ts";
import type { ClauseResult, ClauseStatus, ProfileResult } from "../report/report-schema.ts";
import { caseProfile, caseRunKey, isProbe, isProperty, propertyRunKey } from "./plan-runs.ts";

/** One check's outcome. */
export type CheckOutcome = { status: ClauseStatus; message: string };

/** A property's case run, or a HarnessError when the harness could not run it (a property must never fail on that). */
export function harnessChecked(run: CaseRun): CaseRun {
  if (run.outcome.type === "harness-error") throw new HarnessError(`[${run.caseId}] ${run.outcome.detail}`);
  // A relay call that hit its bound fails the property run whatever it checks (no result to check); said so, it is
  // not shrunk through further hangs (clauses/byte-exactness.ts).
  if (run.outcome.type === "timeout") throw new HungFailure(outcomeCause(run.outcome));
  const escaped = escapedCause(run);
  if (escaped !== null) throw new ClauseFailure(escaped);
  return run;
}

/** A case whose relay left processes of its own running fails every clause that checks it (NO-ORPHANS's rule). */
export function withEscapes(run: CaseRun, outcome: CheckOutcome): CheckOutcome {
  const escaped = escapedCause(run);
  if (escaped === null || outcome.status === "error") return outcome;
  return { status: "fail", message: outcome.status === "fail" ? `${escaped}; ${outcome.message}` : escaped };
}

/** A check's outcome: only a ClauseFailure is the relay's failure; anything else the check throws is the harness's. */
export function outcomeOf(error: unknown): CheckOutcome {
  if (error instanceof SkipCheck) return { status: "skip", message: error.message };
  if (error instanceof ClauseFailure) return { status: "fail", message: error.message };
  if (error instanceof HarnessError) return { status: "error", message: `harness error: ${error.message}` };
  return {
    status: "error",
    message: `harness error: the check crashed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
  };
}

export function evaluate(assert: () => void): CheckOutcome {
  try {
    assert();
    return { status: "pass", message: "" };
  } catch (error) {
    return outcomeOf(error);
  }
}

/** A relay failure decides; else a harness error; else all-skip is skip; else pass. */
export function combine(outcomes: readonly CheckOutcome[]): CheckOutcome {
  const failed = outcomes.find((o) => o.status === "fail");
  if (failed) return failed;
  const errored = outcomes.find((o) => o.status === "error");
  if (errored) return errored;
  if (outcomes.length > 0 && outcomes.every((o) => o.status === "skip"))
    return outcomes[0] ?? { status: "skip", message: "" };
  return { status: "pass", message: "" };
}

/** Puts a timeout or crash of the relay in front of a failure it probably caused. */
export function withCause(run: CaseRun, message: string): string {
  const o = run.outcome;
  const cause = o.type === "timeout" || o.type === "crashed" ? outcomeCause(o) : null;
  return cause === null || message.startsWith(cause) ? message : `${cause}; ${message}`;
}

export function clauseResult(clause: Clause, profiles: ProfileResult[]): ClauseResult {
  const base = { id: clause.id, statement: clause.statement, source: clause.source, profiles };
  if (profiles.length === 0)
    return { ...base, status: "skip", message: `applies only to ${clause.profiles.join(", ")}` };
  const failed = profiles.find((p) => p.status === "fail");
  if (failed) return { ...base, status: "fail", message: `${failed.profile}: ${failed.message}` };
  const errored = profiles.find((p) => p.status === "error");
  if (errored) return { ...base, status: "error", message: `${errored.profile}: ${errored.message}` };
  if (profiles.every((p) => p.status === "skip"))
    return { ...base, status: "skip", message: profiles[0]?.message ?? "" };
  return { ...base, status: "pass", message: "" };
}

/** A result a task delivers and clauses await. */
export interface Pending<T> {
  readonly promise: Promise<T>;
  resolve(value: T): void;
}

/** What a run's clauses are decided from: every planned run's pending result, and the probe's answers per check. */
export interface RunResults {
  /** By caseRunKey. */
  readonly cases: ReadonlyMap<string, Pending<CaseRun>>;
  /** By propertyRunKey. */
  readonly properties: ReadonlyMap<string, Pending<CheckOutcome>>;
  readonly probe: { readonly view: ProbeView; readonly slices: ReadonlyMap<ProbeCheck, ProbeResult[]> };
}

/** The run's selected profiles, and where a clause's verdict goes as soon as it is known. */
export interface EvaluateOptions {
  readonly profiles: readonly Profile[];
  onClause?(result: ClauseResult): void;
}

/** A clause's verdict on every selected profile it applies to, once the runs it needs are done; reported at once. */
export async function evaluateClause(
  clause: Clause,
  options: EvaluateOptions,
  results: RunResults,
): Promise<ClauseResult> {
  const applicable = options.profiles.filter((p) => clause.profiles.includes(p));
  const profiles = await Promise.all(applicable.map((profile) => profileResult(clause, profile, options, results)));
  const result = clauseResult(clause, profiles);
  options.onClause?.(result);
  return result;
}

/** A clause's verdict on one profile: its checks in order, combined. */
async function profileResult(
  clause: Clause,
  profile: Profile,
  options: EvaluateOptions,
  results: RunResults,
): Promise<ProfileResult> {
  const outcomes: CheckOutcome[] = [];
  for (const check of clause.checks) outcomes.push(await checkOutcome(check, clause, profile, options, results));
  const combined = combine(outcomes);
  return { profile, status: combined.status, message: combined.message };
}

/** One check's outcome on a profile: a probe check at once, a property or case check once its run is done. */
async function checkOutcome(
  check: ClauseCheck,
  clause: Clause,
  profile: Profile,
  options: EvaluateOptions,
  results: RunResults,
): Promise<CheckOutcome> {
  if (isProbe(check)) return evaluate(() => check.verify(results.probe.view, results.probe.slices.get(check) ?? []));
  if (isProperty(check))
    return (
      (await results.properties.get(propertyRunKey(clause.id, check.property.id, profile))?.promise) ?? {
        status: "skip",
        message: "property not run",
      }
    );
  const p = caseProfile(check.case, clause, profile, options.profiles);
  if (p === null) return { status: "skip", message: `case ${check.case.id} does not apply to ${profile}` };
  const run = await results.cases.get(caseRunKey(check.case.id, p))?.promise;
  if (!run) throw new Error(`unplanned case ${check.case.id}@${p}`);
  return caseCheckOutcome(check, run);
}

/** A case check's outcome on its run, naming the case where it failed or errored (a failure after its likely cause). */
function caseCheckOutcome(check: CaseCheck, run: CaseRun): CheckOutcome {
  const id = check.case.id;
  if (run.outcome.type === "harness-error")
    return { status: "error", message: `[${id}] harness error: ${run.outcome.detail}` };
  const outcome = withEscapes(
    run,
    evaluate(() => check.assert(run)),
  );
  if (outcome.status === "fail") return { ...outcome, message: `[${id}] ${withCause(run, outcome.message)}` };
  if (outcome.status === "error") return { ...outcome, message: `[${id}] ${outcome.message}` };
  return outcome;
}
