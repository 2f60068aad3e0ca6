// The test oracles (written from gentle-ai's Go source) reproduce values a real gentle-ai printed, so the lifecycle
// tests compare the simulator against gentle-ai's derivations rather than against itself.
import { describe, expect, it } from "vitest";
import { oracleIdentity, oracleManifestDigest, oraclePathsDigest, oracleSubjectHash } from "./gentle-ai-digests.ts";

describe("lifecycle oracles", () => {
  it("target identities of gentle-pi's captured status/v5 documents", () => {
    const tree = "619289f137abd616d94899f2c9b6726de091ac92";
    expect(oraclePathsDigest([])).toBe("sha256:2286a180488f90f2e97062d500a629bc747716d55a34c2861a8309e1b02589a1");
    expect(oracleIdentity(tree, tree, [])).toBe(
      "sha256:50d13aa33f913bbf99df6ad5b94ac1db2aba969445ffc08aadffd8b42b79f1c4",
    );
    expect(
      oracleIdentity("96c8f6a2eee2da821f202ee686b70c211bd9fd37", "6812ab6b7a19550f0dc49cee57518528c4479756", [
        "src/add.js",
      ]),
    ).toBe("sha256:c15e3de5404ab556a237a0a94f1d8d99e33e2ac6664877b2eefee0e210f8252a");
  });

  it("the manifest digest and subject hash of gentle-pi's captured start/v3", () => {
    const e = (path: string) => ({
      path,
      status: "M",
      old_mode: "100644",
      new_mode: "100644",
      deleted: false,
      type_changed: false,
      mode_only: false,
      intended_untracked: false,
    });
    const digest = oracleManifestDigest([e("internal/runner/runner.go"), e("internal/runner/runner_test.go")]);
    expect(digest).toBe("sha256:487bf2f5df250d6f9d76a28fded97bfad6aec57c62f92e2b997bfd9bf25e7a53");
    expect(
      oracleSubjectHash({
        lineage_id: "review-377c60e10b852cfc",
        authority_revision: "sha256:fe7f383e1b3b0854f8974c94b60597b59a4384c8c6f30c04779d13c6ec32fb66",
        target_identity: "sha256:377c60e10b852cfcbcca6cd101e6ee7def9621a24a9f4b361d32137a3b0b3988",
        base_tree: "6f76421f34880aec8e73618ca7ce69b2f894cb47",
        candidate_tree: "b6d3cea0ddd081a71e83120d003953872754a617",
        changed_path_manifest_sha256: digest,
        lens: "review-risk",
        selected_order: 0,
      }),
    ).toBe("sha256:83a75b97a02e17dca2a466f2a247466751d3d610ed5b18ea45cc6b258dbc4a31");
  });
});
