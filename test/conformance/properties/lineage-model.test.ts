import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { disposeFixtures, lineageFixtures, runLineageModel } from "../../../conformance/properties/lineage-model.ts";

describe("simulated lineage vs the slot-consumption model (fc.commands)", () => {
  let fixtures: Awaited<ReturnType<typeof lineageFixtures>>;
  beforeAll(async () => {
    fixtures = await lineageFixtures("2.4.0");
  }, 120_000);
  afterAll(() => disposeFixtures(fixtures));

  it("fixtures: four lenses, two different valid results each", () => {
    expect(fixtures.lenses).toEqual(["review-risk", "review-resilience", "review-readability", "review-reliability"]);
    for (const [a, b] of fixtures.results) expect(a.equals(b)).toBe(false);
  });

  it("any order of status, materialize, submit, refused submit, resubmit and fault agrees with the model", async () => {
    await runLineageModel(fixtures, { runs: 12, seed: 42 });
  }, 240_000);
});
