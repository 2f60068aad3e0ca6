import type { Scenario, ScenarioInput } from "./schema.ts";

/**
 * The built-in scenario (also golden/scenarios/default.json): profile 2.4.0, one `reviewing` lineage with all four
 * lenses pending, pi answering a valid reviewer result. Every default is spelled out, so this is both a valid input
 * and its own parsed form (a test checks ScenarioSchema.parse leaves it unchanged).
 */
export const DEFAULT_SCENARIO: Scenario = {
  name: "default",
  description:
    "gentle-ai 2.4.0, one reviewing lineage with all four lenses pending; pi answers a valid reviewer result bound to its prompt.",
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

/** The same scenario typed as scenario-file input. */
export const DEFAULT_SCENARIO_INPUT: ScenarioInput = DEFAULT_SCENARIO;
