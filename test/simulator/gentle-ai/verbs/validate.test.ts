// review validate. Profile 2.5.0 (fb55ef7b cli/review_facade.go runReviewFacadeValidateNonDeciding :3310,
// emitDisabledUnmanagedDelivery :3858, emitEnabledUnmanagedDelivery :3873): the gate never decides; it names the
// repository policy that governs delivery. Profile 2.4.0 (301fb2ad runReviewFacadeValidate :3535): the gate decides
// from the review receipt; the expected bytes below were printed by gentle-ai 2.4.0 built from 301fb2ad.
import { describe, expect, it } from "vitest";
import { V2 } from "../../../support/contract.ts";
import { git } from "../../../support/git.ts";
import { simWorlds } from "../../../support/sim-world.ts";
import { json } from "../../../support/spawn-process.ts";
import { realpathSync } from "node:fs";
import { DecidedGateResultSchema, UnmanagedGateResultSchema } from "../../../../simulator/contract/gate-result.ts";

// Worlds as gentle-pi's client sees them, with a scenario that pins no lineage.
const sandbox = simWorlds({ client: true, scenario: { profile: "2.5.0" } });
const sandbox24 = simWorlds({ client: true, scenario: { profile: "2.4.0" } });
const DISABLED_REASON =
  "receipt-driven development is disabled and no receipt governs this candidate, so delivery follows ordinary repository policy";

describe("review validate, profile 2.5.0: the gate does not decide", () => {
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
      reason:
        "review enforcement is enabled but no review authority governs this candidate, so delivery follows ordinary repository policy",
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
      expect(json(run).cause).toBe(
        "review validate requires --gate: one of post-apply, pre-commit, pre-push, pre-pr, release",
      );
    }
    // --contract after --cwd <repo> still negotiates (reviewIntegrationContractArgument scans every argument,
    // review_operation_contract.go:472-491): the refusal is the failure/v2 envelope, not a plain line.
    const late = await s.run(["review", "validate", "--cwd", repo, "--contract", V2]);
    expect([late.code, json(late).schema]).toEqual([1, "gentle-ai.review-integration.failure/v2"]);
    const repeated = await s.run([
      "review",
      "validate",
      "--base-ref",
      "a",
      "--base-ref",
      "b",
      "--gate",
      "pre-pr",
      "--cwd",
      repo,
    ]);
    expect([repeated.code, repeated.stderrText]).toEqual([1, "Error: review validate repeats --base-ref\n"]);
  });
});

/** The GateContext of a gate no receipt governs: every binding member empty (receipt.go:147-162). */
function emptyContext(gate: string, denial: string): string {
  const members = [
    '"lineage_id": ""',
    '"generation": 0',
    '"base_tree": ""',
    '"candidate_tree": ""',
    '"paths_digest": ""',
    '"fix_delta_hash": ""',
  ];
  const rest = ['"policy_hash": ""', '"ledger_hash": ""', '"evidence_hash": ""', '"base_relationship_valid": false'];
  return `  "context": {\n    "gate": "${gate}",\n${[...members, ...rest].map((m) => `    ${m},\n`).join("")}`.replace(
    /,\n$/,
    denial,
  );
}

describe.each(["2.4.0", "2.5.0"] as const)("review validate, profile %s, --cwd outside any repository", (profile) => {
  const world = profile === "2.4.0" ? sandbox24 : sandbox;
  it("is a bare error: the plain line names the lstat, negotiated it is the read-only catch-all (real bytes)", async () => {
    const s = world();
    const missing = `${s.dir}/nonexistent`;
    const plain = await s.run(["review", "validate", "--cwd", missing, "--gate=pre-commit"]);
    expect([plain.code, plain.stdoutText, plain.stderrText]).toEqual([
      1,
      "",
      `Error: resolve review repository root: lstat ${missing}: no such file or directory\n`,
    ]);
    const negotiated = await s.run(["review", "validate", "--cwd", missing, "--gate=pre-commit", `--contract=${V2}`]);
    expect([negotiated.code, json(negotiated).code, json(negotiated).cause]).toEqual([
      1,
      "operation_failed",
      undefined,
    ]);
  });
});

describe("review validate, profile 2.4.0: the gate decides from the receipt (real 301fb2ad bytes)", () => {
  it("no approved receipt: the plain gate denies with receipt_missing and names review start", async () => {
    const s = sandbox24();
    const repo = s.repo("r", { "app.ts": "export const value = 1;\n" });
    await s.run(["review", "mode", "enable", "--scope", "global", "--cwd", repo, "--json"]);
    const run = await s.run(["review", "validate", "--cwd", repo, "--gate=post-apply"]);
    expect([run.code, run.stderrText]).toEqual([
      1,
      "Error: review lifecycle gate denied: invalidated: no terminal review receipt governs this candidate; review it with gentle-ai review start\n",
    ]);
    expect(run.stdoutText).toBe(
      '{\n  "schema": "gentle-ai.review-gate-result/v1",\n  "result": "invalidated",\n  "allowed": false,\n' +
        '  "action": "explicit-maintainer-action",\n  "reason": "no terminal review receipt exists for gate validation",\n' +
        emptyContext(
          "post-apply",
          ',\n    "denial": {\n      "stage": "receipt-discovery",\n      "code": "receipt_missing"\n    }\n  }\n}\n',
        ),
    );
    DecidedGateResultSchema.parse(JSON.parse(run.stdoutText));
  });

  it("negotiated, the discovery error is the failure envelope: receipt_missing, next action review.start", async () => {
    const s = sandbox24();
    const repo = s.repo("r");
    await s.run(["review", "mode", "enable", "--scope", "global", "--cwd", repo, "--json"]);
    const run = await s.run(["review", "validate", "--cwd", repo, "--gate=pre-commit", `--contract=${V2}`]);
    expect([run.code, run.stderrText]).toEqual([
      1,
      "Error: No unique exact review receipt applies to the live gate target. [receipt_missing]\n",
    ]);
    expect(json(run)).toEqual({
      schema: "gentle-ai.review-integration.failure/v2",
      contract: V2,
      operation: "review.validate",
      phase: "pre_native",
      code: "receipt_missing",
      message: "No unique exact review receipt applies to the live gate target.",
      mutation_outcome: "not_started",
      authority_applicability: "not_evaluated",
      retry_safe: false,
      replayability: "manual_action_required",
      required_inputs: [],
      next_action: "review.start",
      cause: "no terminal review receipt exists for gate validation",
    });
  });

  it("with the switch off: the disabled/unmanaged report over an empty receipt context, exit 0", async () => {
    const s = sandbox24();
    const repo = s.repo("r");
    await s.run(["review", "mode", "disable", "--scope", "global", "--cwd", repo, "--json"]);
    const run = await s.run(["review", "validate", "--cwd", repo, "--gate=pre-commit"]);
    expect([run.code, run.stderrText]).toEqual([0, ""]);
    expect(run.stdoutText).toBe(
      '{\n  "schema": "gentle-ai.review-gate-result/v1",\n  "result": "invalidated",\n  "allowed": false,\n' +
        '  "action": "repository-policy",\n' +
        `  "reason": "${DISABLED_REASON}",\n` +
        emptyContext("pre-commit", '\n  },\n  "delivery": "disabled/unmanaged"\n}\n'),
    );
  });

  it("a missing gate is a bare error (negotiated: the read-only catch-all), an unknown one a preflight refusal", async () => {
    const s = sandbox24();
    const repo = s.repo("r");
    const missing = await s.run(["review", "validate", "--cwd", repo, `--contract=${V2}`]);
    expect([missing.code, json(missing).code, json(missing).cause]).toEqual([1, "operation_failed", undefined]);
    const plain = await s.run(["review", "validate", "--cwd", repo, "--gate="]);
    expect([plain.code, plain.stderrText]).toEqual([
      1,
      "Error: review validate requires --gate: one of post-apply, pre-commit, pre-push, pre-pr, release\n",
    ]);
    const unknown = await s.run(["review", "validate", "--cwd", repo, "--gate=bogus", `--contract=${V2}`]);
    expect([unknown.code, json(unknown).code]).toEqual([1, "invalid_request"]);
  });

  it("an unknown --lineage fails loading its compact state", async () => {
    const s = sandbox24();
    const repo = s.repo("r");
    await s.run(["review", "mode", "enable", "--scope", "global", "--cwd", repo, "--json"]);
    const run = await s.run(["review", "validate", "--cwd", repo, "--gate=pre-commit", "--lineage=nope"]);
    const state = `${realpathSync(repo)}/.git/gentle-ai/review-transactions/v2/nope/review-state.json`;
    expect([run.code, run.stdoutText, run.stderrText]).toEqual([
      1,
      "",
      `Error: load compact facade review lineage: open ${state}: no such file or directory\n`,
    ]);
  });
});
