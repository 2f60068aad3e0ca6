// What a catalogue run has to run, decided before anything runs: the selected clauses × profiles become unique
// (case, profile) runs, shared by every clause that checks them, and one property run per clause, property and
// profile under the run's seed. Pure: no process, no file, no clock; run-catalogue.ts executes the plan.
import type { Profile } from "../../simulator/scenario/schema.ts";
import type { CaseCheck, CaseDef, Clause, ClauseCheck, ProbeCheck, PropertyCheck } from "../clauses/types.ts";
import { shardClauses, type Shard } from "./shard.ts";

/** What to plan: the selection, the profiles, the property budget and seed, and optionally one shard of it. */
export interface PlanInput {
  readonly clauses: readonly Clause[];
  readonly profiles: readonly Profile[];
  readonly runs: number;
  readonly seed: number;
  /** Plans only this shard's clauses (runner/shard.ts); the plan of each is what the unsharded plan does for them. */
  readonly shard?: Shard;
}

/** One (case, profile) run; every clause whose checks need it reads the same result. */
export interface PlannedCaseRun {
  readonly key: string;
  readonly def: CaseDef;
  readonly profile: Profile;
}

/** One property run: a clause's property on one profile, with the run's budget and seed. */
export interface PlannedPropertyRun {
  readonly key: string;
  readonly clause: string;
  readonly check: PropertyCheck;
  readonly profile: Profile;
  readonly runs: number;
  readonly seed: number;
}

/** The runs of a catalogue run, in the order they are planned (clause, then profile, then check). */
export interface RunPlan {
  /** The clauses the plan decides (the shard's, when one is given), in selection order. */
  readonly clauses: readonly Clause[];
  /** The probe checks, in clause order: one module probe answers all of them. */
  readonly probeChecks: readonly ProbeCheck[];
  readonly caseRuns: readonly PlannedCaseRun[];
  readonly propertyRuns: readonly PlannedPropertyRun[];
}

export const isCase = (c: ClauseCheck): c is CaseCheck => "case" in c;
export const isProbe = (c: ClauseCheck): c is ProbeCheck => "probe" in c;
export const isProperty = (c: ClauseCheck): c is PropertyCheck => "property" in c;

/** The key of a (case, profile) run. */
export function caseRunKey(caseId: string, profile: Profile): string {
  return `${caseId}@${profile}`;
}

/** The key of a property run; counterexample files are named after it. */
export function propertyRunKey(clauseId: string, propertyId: string, profile: Profile): string {
  return `${clauseId}/${propertyId}@${profile}`;
}

/** Picks the profile a case runs on for a clause profile; null when the case does not apply there. */
export function caseProfile(
  def: CaseDef,
  clause: Clause,
  profile: Profile,
  selected: readonly Profile[],
): Profile | null {
  const allowed = def.profiles ?? clause.profiles;
  if (!def.agnostic) return allowed.includes(profile) ? profile : null;
  // A profile-agnostic case runs once, on the first selected profile it allows, for every profile of the clause.
  return selected.find((p) => allowed.includes(p)) ?? null;
}

/** Plans a catalogue run (see the file comment). */
export function planRuns(input: PlanInput): RunPlan {
  const clauses =
    input.shard === undefined
      ? [...input.clauses]
      : shardClauses(input.clauses, input.profiles, input.runs, input.shard);
  const caseRuns = new Map<string, PlannedCaseRun>();
  const propertyRuns: PlannedPropertyRun[] = [];
  for (const clause of clauses) {
    for (const profile of input.profiles.filter((p) => clause.profiles.includes(p))) {
      for (const check of clause.checks) {
        if (isCase(check)) {
          const p = caseProfile(check.case, clause, profile, input.profiles);
          if (p === null) continue;
          const key = caseRunKey(check.case.id, p);
          if (!caseRuns.has(key)) caseRuns.set(key, { key, def: check.case, profile: p });
        } else if (isProperty(check)) {
          propertyRuns.push({
            key: propertyRunKey(clause.id, check.property.id, profile),
            clause: clause.id,
            check,
            profile,
            runs: input.runs,
            seed: input.seed,
          });
        }
      }
    }
  }
  return {
    clauses,
    probeChecks: clauses.flatMap((c) => c.checks.filter(isProbe)),
    caseRuns: [...caseRuns.values()],
    propertyRuns,
  };
}
