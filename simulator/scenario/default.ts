import type { ScenarioInput } from "./schema.ts";

/** The built-in scenario (also golden/scenarios/default.json): profile 2.4.0, one `reviewing` lineage with all four lenses pending, pi answering a valid reviewer result. */
export const DEFAULT_SCENARIO_INPUT: ScenarioInput = {
  name: "default",
  description: "gentle-ai 2.4.0, one reviewing lineage with all four lenses pending; pi answers a valid reviewer result bound to its prompt.",
  profile: "2.4.0",
  identities: "prefixed",
  lineage: {
    seed: "gentle-relay-conformance",
    state: "reviewing",
    lenses: ["review-risk", "review-resilience", "review-readability", "review-reliability"],
    captured: [],
    refuter: false,
    rddDisabled: false,
  },
  pi: { result: { kind: "reviewer-result", findings: "none" }, exitCode: 0 },
  faults: [],
};
