import { describe, expect, it } from "vitest";
import { bareDigest, identitiesFor, pathsDigest } from "./identities.ts";
import { LENSES } from "../scenario/lineage-spec.ts";

describe("deterministic identities", () => {
  it("derive every identity in its documented format (§13)", () => {
    const ids = identitiesFor("seed-a");
    const prefixed = /^sha256:[0-9a-f]{64}$/;
    expect(ids.targetIdentity).toMatch(prefixed);
    expect(ids.lineageId).toBe("review-" + ids.targetIdentity.slice(7, 23));
    expect(ids.lineageId).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);
    expect(ids.repositoryContext).toMatch(/^rctx1_[0-9a-f]{64}$/);
    for (const t of [ids.baseTree, ids.candidateTree, ids.correctionCandidateTree]) expect(t).toMatch(/^(?!0+$)[0-9a-f]{40}$/);
    for (const v of [ids.revision(0), ids.revision(1), ids.eventId(0), ids.requestHash(0), ids.correctionTargetIdentity, ids.correctionPathsDigest, ids.manifestSha256])
      expect(v).toMatch(prefixed);
    expect(new Set(LENSES.map((l) => ids.subjectHash(l))).size).toBe(4);
    expect(ids.revision(0)).not.toBe(ids.revision(1));
    expect(ids.manifest.length).toBeGreaterThanOrEqual(2);
    expect(new Set(ids.manifest.map((m) => m.path)).size).toBe(ids.manifest.length);
    expect(bareDigest(ids.targetIdentity)).toMatch(/^[0-9a-f]{64}$/);
    expect(pathsDigest(["a", "b"])).not.toBe(pathsDigest(["ab"]));
  });

  it("are reproducible for a seed and differ between seeds", () => {
    const a = identitiesFor("seed-a");
    const b = identitiesFor("seed-a");
    const c = identitiesFor("seed-b");
    expect([a.targetIdentity, a.repositoryContext, a.subjectHash("review-risk"), a.manifest]).toEqual([
      b.targetIdentity,
      b.repositoryContext,
      b.subjectHash("review-risk"),
      b.manifest,
    ]);
    expect(c.targetIdentity).not.toBe(a.targetIdentity);
  });
});
