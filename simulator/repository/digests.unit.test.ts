// The repository reader's digests against values a real gentle-ai printed (gentle-pi 7313aa9a,
// tests/fixtures/devbinary/status-v5*.captured.json and start-v3-consent-granted.captured.json).
import { describe, expect, it } from "vitest";
import { untrackedProof } from "./digests.ts";
import {
  changedPathManifestDigest,
  pathsDigest,
  snapshotIdentity,
  untrackedInventoryDigest,
  type ManifestEntry,
} from "../state/identities.ts";
import { artifactSubjectHash } from "./lineage-identities.ts";

describe("gentle-ai's published digests", () => {
  it("paths_digest, intended_untracked_proof and target identity of a clean worktree (status-v5.captured.json)", () => {
    const tree = "619289f137abd616d94899f2c9b6726de091ac92";
    expect(pathsDigest([])).toBe("sha256:2286a180488f90f2e97062d500a629bc747716d55a34c2861a8309e1b02589a1");
    expect(untrackedProof([])).toBe("sha256:b97229718d4c7fe50a8892eb474ae5aa6491697bccb400e3e31dbaca4894d2f3");
    expect(snapshotIdentity("current-changes", "workspace", tree, tree, pathsDigest([]))).toBe(
      "sha256:50d13aa33f913bbf99df6ad5b94ac1db2aba969445ffc08aadffd8b42b79f1c4",
    );
  });

  it("the identity of a one-file candidate (status-v5-repository-context.captured.json)", () => {
    expect(pathsDigest(["file.txt"])).toBe("sha256:4d916b1a185d946866be1c2f945425ea650ea045dec13bb0ec972744f0f9bd61");
    expect(
      snapshotIdentity(
        "current-changes",
        "workspace",
        "7bee507cb7f5aa4dce34e6962366eeea27935c74",
        "a044376c6cfb84e30c676ff7307e92bcfef5b6ec",
        pathsDigest(["file.txt"]),
      ),
    ).toBe("sha256:bbfbf9af2dc27936d5fbc0c30579d5122d65bf4ccc65d9a00cde816f3aa6d3ab");
  });

  it("changed_path_manifest_sha256 and the artifact subject hash (start-v3-consent-granted.captured.json)", () => {
    const entry = (path: string): ManifestEntry => ({
      path,
      status: "M",
      additions: 1,
      deletions: 1,
      oldMode: "100644",
      newMode: "100644",
    });
    const manifest = [entry("internal/runner/runner.go"), entry("internal/runner/runner_test.go")];
    const digest = changedPathManifestDigest(manifest);
    expect(digest).toBe("sha256:487bf2f5df250d6f9d76a28fded97bfad6aec57c62f92e2b997bfd9bf25e7a53");
    expect(
      artifactSubjectHash({
        lineageId: "review-377c60e10b852cfc",
        revision: "sha256:fe7f383e1b3b0854f8974c94b60597b59a4384c8c6f30c04779d13c6ec32fb66",
        targetIdentity: "sha256:377c60e10b852cfcbcca6cd101e6ee7def9621a24a9f4b361d32137a3b0b3988",
        baseTree: "6f76421f34880aec8e73618ca7ce69b2f894cb47",
        candidateTree: "b6d3cea0ddd081a71e83120d003953872754a617",
        manifestSha256: digest,
        lens: "review-resilience",
        order: 1,
      }),
    ).toBe("sha256:5abb925fdd448ca0add3f1ce95e84c9f4742e0c1241bade2bde0b3205f3879d8");
  });

  it("the inventory digest is domain-separated and order-sensitive", () => {
    expect(untrackedInventoryDigest(["a.txt", "b.txt"])).not.toBe(untrackedInventoryDigest(["b.txt", "a.txt"]));
    expect(untrackedInventoryDigest([])).not.toBe(pathsDigest([]));
  });
});
