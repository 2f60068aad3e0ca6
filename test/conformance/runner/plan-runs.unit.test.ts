// The catalogue run's planner: clauses × profiles → unique case runs, property runs under the seed, shards.
import { describe, expect, it } from "vitest";
import { CATALOGUE } from "../../../conformance/clauses/index.ts";
import type { CaseDef, Clause, ClauseCheck, PropertyDef } from "../../../conformance/clauses/types.ts";
import { caseProfile, planRuns } from "../../../conformance/runner/plan-runs.ts";
import type { Profile } from "../../../simulator/scenario/schema.ts";

const ALL: Profile[] = ["2.3.0", "2.4.0", "2.5.0"];
const caseDef = (id: string, extra: Partial<CaseDef> = {}): CaseDef => ({ id, ...extra });
const onCase = (def: CaseDef): ClauseCheck => ({ case: def, assert: () => undefined });
const property = (id: string): PropertyDef => ({ id, run: () => Promise.resolve(), replay: () => Promise.resolve() });
const clause = (id: string, profiles: Profile[], checks: ClauseCheck[]): Clause => ({
  id,
  statement: id,
  source: "test",
  profiles,
  checks,
});

const shared = caseDef("shared");
const late = caseDef("late", { profiles: ["2.5.0"] });
const agnostic = caseDef("agnostic", { profiles: ["2.4.0", "2.5.0"], agnostic: true });
const probe: ClauseCheck = { probe: [], verify: () => undefined };
const CLAUSES = [
  clause("A", ALL, [onCase(shared), onCase(late), probe]),
  clause("B", ["2.4.0", "2.5.0"], [onCase(shared), onCase(agnostic), { property: property("p") }]),
  clause("C", ["2.3.0"], [onCase(agnostic)]),
];

describe("planRuns", () => {
  it("a case shared by clauses runs once per profile; a case limited to a profile only there", () => {
    const plan = planRuns({ clauses: CLAUSES, profiles: ALL, runs: 4, seed: 7 });
    expect(plan.caseRuns.map((r) => r.key)).toEqual([
      "shared@2.3.0",
      "shared@2.4.0",
      "shared@2.5.0",
      "late@2.5.0",
      "agnostic@2.4.0",
    ]);
    expect(plan.caseRuns.find((r) => r.key === "late@2.5.0")).toEqual({
      key: "late@2.5.0",
      def: late,
      profile: "2.5.0",
    });
  });

  it("a profile-agnostic case runs once, on the first selected profile it allows", () => {
    expect(
      planRuns({ clauses: CLAUSES, profiles: ALL, runs: 1, seed: 1 })
        .caseRuns.filter((r) => r.def === agnostic)
        .map((r) => r.key),
    ).toEqual(["agnostic@2.4.0"]);
    expect(
      planRuns({ clauses: CLAUSES, profiles: ["2.5.0"], runs: 1, seed: 1 })
        .caseRuns.filter((r) => r.def === agnostic)
        .map((r) => r.key),
    ).toEqual(["agnostic@2.5.0"]);
    // Clause C applies only to 2.3.0, which the case does not allow: it runs on 2.4.0 when selected, else not at all.
    expect(planRuns({ clauses: [CLAUSES[2]!], profiles: ALL, runs: 1, seed: 1 }).caseRuns.map((r) => r.key)).toEqual([
      "agnostic@2.4.0",
    ]);
    expect(planRuns({ clauses: [CLAUSES[2]!], profiles: ["2.3.0"], runs: 1, seed: 1 }).caseRuns).toEqual([]);
    expect(caseProfile(agnostic, CLAUSES[2]!, "2.3.0", ALL)).toBe("2.4.0");
    expect(caseProfile(agnostic, CLAUSES[2]!, "2.3.0", ["2.3.0"])).toBeNull();
    expect(caseProfile(late, CLAUSES[0]!, "2.4.0", ALL)).toBeNull();
  });

  it("one property run per clause, property and applicable profile, each with the run's budget and seed", () => {
    const plan = planRuns({ clauses: CLAUSES, profiles: ["2.3.0", "2.5.0"], runs: 9, seed: 42 });
    expect(
      plan.propertyRuns.map(({ key, clause: c, profile, runs, seed }) => ({ key, clause: c, profile, runs, seed })),
    ).toEqual([{ key: "B/p@2.5.0", clause: "B", profile: "2.5.0", runs: 9, seed: 42 }]);
  });

  it("collects the probe checks in clause order; no profile selected means nothing to run", () => {
    expect(planRuns({ clauses: CLAUSES, profiles: ALL, runs: 1, seed: 1 }).probeChecks).toEqual([probe]);
    expect(planRuns({ clauses: CLAUSES, profiles: [], runs: 1, seed: 1 })).toMatchObject({
      caseRuns: [],
      propertyRuns: [],
    });
  });

  it("is pure: the same input plans the same runs", () => {
    const input = { clauses: CATALOGUE, profiles: ALL, runs: 4, seed: 3 };
    const keys = (p: ReturnType<typeof planRuns>): string[][] => [
      p.caseRuns.map((r) => r.key),
      p.propertyRuns.map((r) => r.key),
    ];
    expect(keys(planRuns(input))).toEqual(keys(planRuns(input)));
  });

  it("shards: each clause is planned in exactly one shard, with exactly the property runs the whole plan gives it", () => {
    const whole = planRuns({ clauses: CATALOGUE, profiles: ALL, runs: 4, seed: 3 });
    const shards = [1, 2, 3].map((index) =>
      planRuns({ clauses: CATALOGUE, profiles: ALL, runs: 4, seed: 3, shard: { index, count: 3 } }),
    );
    expect(shards.flatMap((s) => s.clauses.map((c) => c.id)).sort()).toEqual(CATALOGUE.map((c) => c.id).sort());
    expect(shards.flatMap((s) => s.propertyRuns.map((r) => `${r.key} ${r.seed} ${r.runs}`)).sort()).toEqual(
      whole.propertyRuns.map((r) => `${r.key} ${r.seed} ${r.runs}`).sort(),
    );
    // Every case run a shard plans is one the whole plan has (a case shared across shards runs in each of them).
    const wholeCases = new Set(whole.caseRuns.map((r) => r.key));
    for (const s of shards) for (const r of s.caseRuns) expect(wholeCases.has(r.key)).toBe(true);
    expect(new Set(shards.flatMap((s) => s.caseRuns.map((r) => r.key)))).toEqual(wholeCases);
  });
});
