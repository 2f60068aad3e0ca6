import { describe, expect, it } from "vitest";
import {
  bareDigest,
  changedPathManifest,
  changedPathManifestDigest,
  emptyIntendedUntrackedProof,
  identitiesFor,
  pathsDigest,
  SEED_WORLD,
  snapshotIdentity,
} from "./identities.ts";
import type { IdentitySource, ManifestEntry } from "./identities.ts";
import { LENSES } from "../scenario/lineage-spec.ts";

const modified = (path: string): ManifestEntry => ({
  path,
  status: "M",
  additions: 1,
  deletions: 1,
  oldMode: "100644",
  newMode: "100644",
});

describe("gentle-ai's identity formulas", () => {
  // Expected values are real-binary outputs: gentle-pi tests/fixtures/devbinary/status-v5*.captured.json and
  // gentle-ai contracts/review-integration/v1/fixtures/status-v2.fixture.json.
  it("paths digest (snapshot.go:1484)", () => {
    expect(pathsDigest(["src/add.js"])).toBe("sha256:e9ec59a8b57bb461f3e06d58e57517e472c4d90560af0da03adcb8e80328cd25");
    expect(pathsDigest(["file.txt"])).toBe("sha256:4d916b1a185d946866be1c2f945425ea650ea045dec13bb0ec972744f0f9bd61");
    expect(pathsDigest([])).toBe("sha256:2286a180488f90f2e97062d500a629bc747716d55a34c2861a8309e1b02589a1");
    expect(pathsDigest(["tracked.txt"])).toBe(
      "sha256:b93fca961a97d240c2b7023e98772f49ebd2995eda7db07043270b57bed75d71",
    );
  });

  it("workspace snapshot identity (snapshot.go:1524)", () => {
    expect(
      snapshotIdentity(
        "current-changes",
        "workspace",
        "96c8f6a2eee2da821f202ee686b70c211bd9fd37",
        "6812ab6b7a19550f0dc49cee57518528c4479756",
        pathsDigest(["src/add.js"]),
      ),
    ).toBe("sha256:c15e3de5404ab556a237a0a94f1d8d99e33e2ac6664877b2eefee0e210f8252a");
    expect(
      snapshotIdentity(
        "current-changes",
        "workspace",
        "619289f137abd616d94899f2c9b6726de091ac92",
        "619289f137abd616d94899f2c9b6726de091ac92",
        pathsDigest([]),
      ),
    ).toBe("sha256:50d13aa33f913bbf99df6ad5b94ac1db2aba969445ffc08aadffd8b42b79f1c4");
    expect(
      snapshotIdentity(
        "current-changes",
        "workspace",
        "3e21a205dd9b55021aeae87965092623807e455f",
        "1c3325617279b38743f073302ba190fc421b5a09",
        pathsDigest(["tracked.txt"]),
      ),
    ).toBe("sha256:00c0d796b4136e365d0130886f300c954ecf9431c45d96d8031155c415507d49");
  });

  it("staged and ledger-bound identities use their own domains", () => {
    const d = pathsDigest(["a"]);
    const base = snapshotIdentity("current-changes", "workspace", "a".repeat(40), "b".repeat(40), d);
    expect(snapshotIdentity("current-changes", "staged", "a".repeat(40), "b".repeat(40), d)).not.toBe(base);
    expect(snapshotIdentity("fix-diff", "workspace", "a".repeat(40), "b".repeat(40), d, ["R1-001"])).not.toBe(
      snapshotIdentity("fix-diff", "workspace", "a".repeat(40), "b".repeat(40), d),
    );
  });

  it("changed-path manifest entries and digest (frozen_candidate_context.go:75, artifact_subject.go:54)", () => {
    expect(changedPathManifest([modified("src/add.js")])).toEqual([
      {
        path: "src/add.js",
        status: "M",
        old_mode: "100644",
        new_mode: "100644",
        deleted: false,
        type_changed: false,
        mode_only: false,
        intended_untracked: false,
      },
    ]);
    expect(changedPathManifestDigest([modified("src/add.js")])).toBe(
      "sha256:247cb9ffff17f6f97cf3fbeca795889a281805f676c53c204b319735a3eaf4dd",
    );
    expect(changedPathManifestDigest([modified("tracked.txt")])).toBe(
      "sha256:64d028ff676fb4ef10f2d4a3488d568854b364b4cc4399578b5932d144d2347b",
    );
    expect(Object.keys(changedPathManifest([modified("x")])[0]!)).toEqual([
      "path",
      "status",
      "old_mode",
      "new_mode",
      "deleted",
      "type_changed",
      "mode_only",
      "intended_untracked",
    ]);
  });

  it("the empty intended-untracked proof", () => {
    expect(emptyIntendedUntrackedProof()).toBe(
      "sha256:b97229718d4c7fe50a8892eb474ae5aa6491697bccb400e3e31dbaca4894d2f3",
    );
  });
});

describe("deterministic identities", () => {
  it("derive every identity in its documented format (§13)", () => {
    const ids = identitiesFor("seed-a", SEED_WORLD);
    const prefixed = /^sha256:[0-9a-f]{64}$/;
    expect(ids.targetIdentity).toMatch(prefixed);
    expect(ids.lineageId).toBe("review-" + ids.targetIdentity.slice(7, 23));
    expect(ids.lineageId).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);
    expect(ids.repositoryContext).toMatch(/^rctx1_[0-9a-f]{64}$/);
    for (const t of [ids.baseTree, ids.candidateTree, ids.correctionCandidateTree])
      expect(t).toMatch(/^(?!0+$)[0-9a-f]{40}$/);
    for (const v of [
      ids.revision(0),
      ids.revision(1),
      ids.eventId(0),
      ids.requestHash(0),
      ids.correctionTargetIdentity,
      ids.correctionPathsDigest,
      ids.manifestSha256,
      ids.stagedTargetIdentity,
      ids.correctionLiveIdentity,
      ids.receiptIdentity,
    ])
      expect(v).toMatch(prefixed);
    expect(new Set(LENSES.map((l) => ids.subjectHash(l))).size).toBe(4);
    expect(ids.revision(0)).not.toBe(ids.revision(1));
    expect(ids.manifest.length).toBeGreaterThanOrEqual(2);
    expect(new Set(ids.manifest.map((m) => m.path)).size).toBe(ids.manifest.length);
    expect(bareDigest(ids.targetIdentity)).toMatch(/^[0-9a-f]{64}$/);
    expect(pathsDigest(["a", "b"])).not.toBe(pathsDigest(["ab"]));
  });

  it("bind the target to the trees and paths with gentle-ai's formulas", () => {
    const ids = identitiesFor("seed-a", SEED_WORLD);
    expect(ids.paths).toEqual(ids.manifest.map((m) => m.path));
    expect([...ids.paths].sort()).toEqual(ids.paths);
    expect(ids.pathsDigest).toBe(pathsDigest(ids.paths));
    expect(ids.targetIdentity).toBe(
      snapshotIdentity("current-changes", "workspace", ids.baseTree, ids.candidateTree, ids.pathsDigest),
    );
    expect(ids.manifestSha256).toBe(changedPathManifestDigest(ids.manifest));
    expect(ids.correctionTargetIdentity).toBe(
      snapshotIdentity(
        "fix-diff",
        "workspace",
        ids.candidateTree,
        ids.correctionCandidateTree,
        pathsDigest(ids.correctionPaths),
        ["R1-001"],
      ),
    );
    for (const m of ids.manifest)
      expect([m.oldMode, m.newMode]).toEqual(m.status === "A" ? ["000000", "100644"] : ["100644", "100644"]);
    expect(ids.candidateDiff.toString("utf8").startsWith(`diff --git a/${ids.paths[0]} b/${ids.paths[0]}\n`)).toBe(
      true,
    );
  });

  it("are derived once per process for a seed, and differ between seeds", () => {
    const a = identitiesFor("seed-a", SEED_WORLD);
    expect(identitiesFor("seed-a", SEED_WORLD)).toBe(a);
    expect(identitiesFor("seed-b", SEED_WORLD).targetIdentity).not.toBe(a.targetIdentity);
  });

  it("come from the repository source first, also for a seed derived before", () => {
    const derived = identitiesFor("seed-a", SEED_WORLD);
    const fromRepository = { ...derived, baseTree: "0".repeat(39) + "1" };
    const source: IdentitySource = (seed) => (seed === "seed-a" ? fromRepository : undefined);
    expect(identitiesFor("seed-a", source)).toBe(fromRepository);
    expect(identitiesFor("seed-b", source)).toBe(identitiesFor("seed-b", source));
    // The source is a value: the seed world (explicit or absent) still derives the seed.
    expect(identitiesFor("seed-a", SEED_WORLD)).toBe(derived);
    expect(identitiesFor("seed-a", undefined)).toBe(derived);
  });
});
