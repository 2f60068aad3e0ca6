// review validate (cli/review_facade.go runReviewFacadeValidateNonDeciding :3310, emitDisabledUnmanagedDelivery :3858,
// emitEnabledUnmanagedDelivery :3873): the gate never decides; it names the repository policy that governs delivery.
import { describe, expect, it } from "vitest";
import { V2 } from "../../../support/contract.ts";
import { git } from "../../../support/git.ts";
import { simWorlds } from "../../../support/sim-world.ts";
import { json } from "../../../support/spawn-process.ts";
import { UnmanagedGateResultSchema } from "../../../../simulator/contract/gate-result.ts";

// Worlds as gentle-pi's client sees them, with a scenario that pins no lineage.
const sandbox = simWorlds({ client: true, scenario: { profile: "2.4.0" } });
const DISABLED_REASON = "receipt-driven development is disabled and no receipt governs this candidate, so delivery follows ordinary repository policy";

describe("review validate", () => {
  it("negotiated, with the clone disabled: operation/v2 around the disabled/unmanaged gate result (exact bytes)", async () => {
    const s = sandbox();
    const repo = s.repo("r", { "app.ts": "export const value = 1;\n" });
    s.write(repo, "app.ts", "export const value = 2;\n");
    git(repo, "add", "--", "app.ts");
    await s.run(["review", "mode", "disable", "--cwd", repo, "--scope", "clone", "--json"]);
    const run = await s.run(["review", "validate", "--contract", V2, "--gate", "pre-commit", "--cwd", repo]);
    expect([run.code, run.stderrText]).toEqual([0, ""]);
    expect(run.stdoutText).toBe(
      '{\n  "schema": "gentle-ai.review-integration.operation/v2",\n  "contract": "gentle-ai.review-integration/v2",\n  "operation": "review.validate",\n' +
        '  "result": {\n    "schema": "gentle-ai.review-gate-result/v1",\n    "result": "invalidated",\n    "allowed": false,\n' +
        '    "action": "repository-policy",\n' +
        `    "reason": "${DISABLED_REASON}",\n` +
        '    "context": {\n      "gate": "pre-commit"\n    },\n    "delivery": "disabled/unmanaged"\n  }\n}\n',
    );
  });

  it("plain, with reviews on: the bare unmanaged gate result", async () => {
    const s = sandbox();
    const repo = s.repo("r");
    await s.run(["review", "mode", "enable", "--scope", "global", "--cwd", repo, "--json"]);
    const doc = json(await s.run(["review", "validate", "--gate", "pre-push", "--cwd", repo]));
    UnmanagedGateResultSchema.parse(doc);
    expect(doc).toEqual({
      schema: "gentle-ai.review-gate-result/v1",
      result: "invalidated",
      allowed: false,
      action: "repository-policy",
      reason: "review enforcement is enabled but no review authority governs this candidate, so delivery follows ordinary repository policy",
      context: { gate: "pre-push" },
      delivery: "unmanaged",
    });
  });

  it("refuses a missing or unknown gate with the gate list", async () => {
    const s = sandbox();
    const repo = s.repo("r");
    for (const gate of [[], ["--gate", "deploy"]]) {
      const run = await s.run(["review", "validate", "--contract", V2, "--cwd", repo, ...gate]);
      expect(run.code).toBe(1);
      expect(json(run).cause).toBe("review validate requires --gate: one of post-apply, pre-commit, pre-push, pre-pr, release");
    }
    // --contract after --cwd <repo> still negotiates (reviewIntegrationContractArgument scans every argument,
    // review_operation_contract.go:472-491): the refusal is the failure/v2 envelope, not a plain line.
    const late = await s.run(["review", "validate", "--cwd", repo, "--contract", V2]);
    expect([late.code, json(late).schema]).toEqual([1, "gentle-ai.review-integration.failure/v2"]);
    const repeated = await s.run(["review", "validate", "--base-ref", "a", "--base-ref", "b", "--gate", "pre-pr", "--cwd", repo]);
    expect([repeated.code, repeated.stderrText]).toEqual([1, "Error: review validate repeats --base-ref\n"]);
  });
});
