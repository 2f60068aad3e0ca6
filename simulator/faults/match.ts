import type { Fault, FaultRule } from "../scenario/fault-schema.ts";

/** What a fault rule is matched against. */
export interface CallIdentity {
  readonly program: "gentle-ai" | "pi";
  readonly verb?: string;
  readonly leg?: "materialize" | "submit";
  /** 1-based index among calls with the same program, verb and leg. */
  readonly callIndex: number;
}

/** True when the rule selects this call: same program, and verb, leg and call index when the rule names them. */
export function ruleMatches(rule: FaultRule, call: CallIdentity): boolean {
  if (rule.program !== call.program) return false;
  if (rule.verb !== undefined && rule.verb !== call.verb) return false;
  if (rule.leg !== undefined && rule.leg !== call.leg) return false;
  if (rule.calls === undefined || rule.calls === "every") return true;
  return rule.calls.includes(call.callIndex);
}

/** The faults of every matching rule, in scenario order (the order the combination rules depend on). */
export function matchFaults(rules: readonly FaultRule[], call: CallIdentity): Fault[] {
  return rules.filter((rule) => ruleMatches(rule, call)).map((rule) => rule.fault);
}
