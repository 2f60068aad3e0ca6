// review capabilities against gentle-ai fb55ef7b review_capabilities.go: the v1 contract by default
// (capabilities/v1.5), capabilities/v2.2 with --contract …/v2, the eight negotiated operations, and the build identity
// digest rule.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CapabilitiesV15Schema, CapabilitiesV22Schema } from "../../../../simulator/contract/capabilities.ts";
import { failureEnvelope } from "../../../support/go-oracles.ts";
import { GENTLE_AI, simWorlds } from "../../../support/sim-world.ts";

const sim = simWorlds();
const V2 = "gentle-ai.review-integration/v2";

// reviewIntegrationOperationNames: the Negotiated registry rows in source order (review_operation_contract.go:83-111).
const OPERATIONS = [
  "review.bind_sdd",
  "review.capabilities",
  "review.finalize",
  "review.repair",
  "review.retry_final_verification",
  "review.start",
  "review.status",
  "review.validate",
];

/** reviewCapabilitiesBuildDigest: sha256("gentle-ai.review-build-identity/v1\0" + compact JSON preimage). */
function buildId(version: string, b: Record<string, string>): string {
  const preimage = JSON.stringify({
    package_version: version,
    go_version: b["go_version"],
    module_version: b["module_version"],
    vcs: b["vcs"],
    vcs_revision: b["vcs_revision"],
    vcs_time: b["vcs_time"],
    vcs_modified: b["vcs_modified"],
  });
  return (
    "sha256:" +
    createHash("sha256")
      .update("gentle-ai.review-build-identity/v1\0" + preimage)
      .digest("hex")
  );
}

const exe = "sha256:" + createHash("sha256").update(readFileSync(GENTLE_AI)).digest("hex");

describe("review capabilities", () => {
  it("plain: the v1 contract, capabilities/v1.5 (review_capabilities.go:148, :213-297)", async () => {
    const r = await sim().run(["review", "capabilities"]);
    expect([r.stderrText, r.code]).toEqual(["", 0]);
    const caps = CapabilitiesV15Schema.parse(JSON.parse(r.stdoutText));
    expect(Object.keys(JSON.parse(r.stdoutText))).toEqual([
      "schema",
      "contract",
      "protocol",
      "package",
      "build",
      "executable",
      "operations",
      "gates",
      "projections",
      "schemas",
      "features",
      "bootstrap",
      "compatibility",
    ]);
    expect(caps.operations).toEqual(OPERATIONS);
    expect(caps.projections).toEqual(["staged", "workspace"]);
    expect(caps.schemas[5]).toBe("gentle-ai.review-integration.capabilities/v1.5");
    expect(caps.features.optional.map((f) => f.name).at(-1)).toBe("validating_result_reopen");
    expect(caps.bootstrap?.command).toBe(
      "gentle-ai review status --cwd <repo> --contract gentle-ai.review-integration/v1 --next-transition",
    );
    expect(caps.executable.sha256).toBe(exe);
  });

  it("--contract v2: capabilities/v2.2 with the v2 schema swaps, consent/v3 appended, two extra optional features", async () => {
    for (const profile of ["2.3.0", "2.4.0", "2.5.0"] as const) {
      const r = await sim({ profile }).run(["review", "capabilities", "--contract", V2]);
      expect([r.stderrText, r.code]).toEqual(["", 0]);
      const caps = CapabilitiesV22Schema.parse(JSON.parse(r.stdoutText));
      expect([caps.protocol, caps.package]).toEqual([
        { major: 2, minor: 2 },
        { name: "gentle-ai", version: profile, release_channel: "stable" },
      ]);
      expect(caps.operations).toEqual(OPERATIONS);
      expect(caps.schemas.slice(0, 2)).toEqual([
        "gentle-ai.review-admitted-result/v2",
        "gentle-ai.review-artifact-subject/v2",
      ]);
      expect(caps.schemas.slice(11, 13)).toEqual([
        "gentle-ai.review-integration.start/v3",
        "gentle-ai.review-integration.status/v5",
      ]);
      expect(caps.schemas.at(-1)).toBe("gentle-ai.review-integration.consent/v3");
      expect(caps.features.optional.slice(-2).map((f) => f.name)).toEqual([
        "provider_bound_native_git_context",
        "provider_submission_descriptors",
      ]);
      expect(caps.bootstrap?.command).toBe(`gentle-ai review status --cwd <repo> --contract ${V2} --next-transition`);
      expect(caps.build.id).toBe(buildId(profile, caps.build));
      expect(caps.executable.sha256).toBe(exe);
    }
  });

  it("defines only --contract; refusals ride the negotiated route", async () => {
    const s = sim();
    const cwd = await s.invoke(["review", "capabilities", "--cwd", "."]);
    expect([cwd.stdoutText, cwd.stderrText, cwd.code]).toEqual([
      failureEnvelope(
        1,
        "review.capabilities",
        "invalid_request",
        "The negotiated review request is invalid.",
        "correct_request",
        "flag provided but not defined: -cwd",
      ),
      "Error: The negotiated review request is invalid. [invalid_request]\n",
      1,
    ]);
    const extra = await s.invoke(["review", "capabilities", "--contract", V2, "extra"]);
    expect(extra.stdoutText).toBe(
      failureEnvelope(
        2,
        "review.capabilities",
        "invalid_request",
        "The negotiated review request is invalid.",
        "correct_request",
        'unexpected review capabilities argument "extra"',
      ),
    );
    // A -contract the router does not see is validated by the verb: a bare error, so the read-only catch-all.
    const single = await s.invoke(["review", "capabilities", "-contract=bogus"]);
    expect([single.stdoutText, single.stderrText, single.code]).toEqual([
      failureEnvelope(
        1,
        "review.capabilities",
        "operation_failed",
        "The negotiated read-only review operation failed safely.",
        "retry",
        undefined,
        undefined,
        true,
        "pre_native",
      ),
      "Error: The negotiated read-only review operation failed safely. [operation_failed]\n",
      1,
    ]);
    // Help anywhere ends the verb with success; ErrHelp prints the usage block.
    expect(await s.invoke(["review", "capabilities", "extra", "-h"])).toMatchObject({
      stdout: Buffer.alloc(0),
      stderr: Buffer.alloc(0),
      code: 0,
    });
    const help = await s.invoke(["review", "capabilities", "--help"]);
    expect(help.stdoutText).toBe(
      "Usage: gentle-ai review capabilities [flags]\n\n" +
        "Report the repository-independent negotiated review provider surface and self-reported executable identity.\n\n" +
        "Flags:\n" +
        '  --contract <value>\n      review integration contract to negotiate (default "gentle-ai.review-integration/v1")\n' +
        "  -h, --help\n      show this help\n",
    );
  });
});
