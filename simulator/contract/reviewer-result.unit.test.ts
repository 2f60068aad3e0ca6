// The reviewer/v1 mirror against the facts of gentle-ai's LensResultSchema (internal/reviewerprovider/contract.go).
import { describe, expect, it } from "vitest";
import { ReviewerResultSchema } from "./reviewer-result.ts";

// The schema's own example, which gentle-pi ships as vectors/lens.json.
const EXAMPLE = {
  subject_hash: "sha256:" + "0".repeat(64),
  inspection: { status: "completed", paths: ["internal/example.go"] },
  findings: [],
  evidence: ["reviewed the complete candidate scope"],
};
const FINDING = {
  id: "R3-001",
  location: "internal/example.go:3-4",
  severity: "WARNING",
  claim: "c",
  proof_refs: ["internal/example.go:3"],
};

describe("reviewer/v1 mirror", () => {
  it("accepts the schema example and findings with lens-form members", () => {
    expect(ReviewerResultSchema.safeParse(EXAMPLE).success).toBe(true);
    expect(
      ReviewerResultSchema.safeParse({
        ...EXAMPLE,
        lens: "reliability",
        findings: [{ ...FINDING, lens: "review-reliability" }],
      }).success,
    ).toBe(true);
    const severe = {
      ...FINDING,
      severity: "BLOCKER",
      evidence_class: "deterministic",
      causal_disposition: "introduced",
    };
    expect(ReviewerResultSchema.safeParse({ ...EXAMPLE, findings: [severe] }).success).toBe(true);
  });

  it("refuses empty or placeholder evidence, evidence objects, and incomplete findings", () => {
    for (const bad of [
      { ...EXAMPLE, evidence: [] },
      { ...EXAMPLE, evidence: [" None "] },
      { ...EXAMPLE, evidence: ["  "] },
      { ...EXAMPLE, evidence: [{ id: "E1", observation: "o" }] },
      { ...EXAMPLE, inspection: { status: "completed", paths: ["a", "a"] } },
      { ...EXAMPLE, inspection: { status: "partial", paths: [] } },
      { ...EXAMPLE, findings: [{ ...FINDING, severity: "CRITICAL" }] },
      { ...EXAMPLE, findings: [{ ...FINDING, id: "F-1" }] },
      { ...EXAMPLE, findings: [{ ...FINDING, location: "internal/example.go" }] },
      { ...EXAMPLE, findings: [{ ...FINDING, proof_refs: ["tbd"] }] },
      { ...EXAMPLE, lens: "review-bogus" },
    ])
      expect(ReviewerResultSchema.safeParse(bad).success).toBe(false);
  });
});
