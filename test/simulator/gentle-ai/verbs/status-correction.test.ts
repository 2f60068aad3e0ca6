// STATUS in correction_required / validating / approved per profile (review_next_transition.go's correction,
// validating and approved branches; review_facade.go:1058-1257; issue-279 §6), against the built binary.
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { StatusV5Schema } from "../../../../simulator/contract/status.ts";
import { HANDSHAKE, V2 } from "../../../support/contract.ts";
import { correctionScenario, requestHash } from "../../../support/correction-oracles.ts";
import { SimWorld, simWorlds } from "../../../support/sim-world.ts";

const sim = simWorlds();

type Json = Record<string, unknown>;

async function status(s: SimWorld, extra: readonly string[] = []): Promise<{ raw: string; json: Json }> {
  const r = await s.run(["review", "status", "--contract", V2, ...extra, "--next-transition"], { env: HANDSHAKE });
  expect([r.code, r.stderrText]).toEqual([0, ""]);
  return { raw: r.stdoutText, json: JSON.parse(r.stdoutText) as Json };
}

const tok = (name: string, value: string) => ({ name, value, token: `--${name.replace(/_/g, "-")}=${value}` });
const ext = (name: string, value: string) => ({ name, value });

/** CorrectionBudget / CompactCorrectionBudget (risk.go:227, :241) over the manifest's changed lines. */
function budgets(s: SimWorld): { frozen: number; compact: number } {
  const lines = s.ids.manifest.reduce((n, m) => n + m.additions + m.deletions, 0);
  const frozen = Math.min(200, Math.ceil(lines / 2));
  return { frozen, compact: lines > 0 && frozen < 2 ? 2 : frozen };
}

/** The seeded fix finding as compact authority stores it (first genesis path, review-risk's R1- namespace). */
function finding(s: SimWorld): Json {
  const path = s.ids.paths[0]!;
  return {
    id: "R1-001",
    lens: "risk",
    location: `${path}:1`,
    severity: "CRITICAL",
    claim: "Simulated candidate-caused defect that the correction must fix.",
    proof_refs: [`${path}:1 changed hunk`, "reproduced candidate failure"],
    evidence_class: "deterministic",
    causal_disposition: "introduced",
  };
}

// facadeReviewPolicy (review_facade.go:92 at fb55ef7b), as the real 2.5.0 printed it in validation_request.
const NATIVE_POLICY =
  "Gentle AI native bounded review policy.\n\nOnly candidate-caused BLOCKER or CRITICAL findings may require correction. Pre-existing and base-only findings are follow-ups. One correction is bounded by the frozen original scope. Gates are informational and unmanaged; ordinary repository policy decides delivery.\n";

function expectedValidationRequest(s: SimWorld, profile: string): Json {
  const f = finding(s);
  // The real 2.4.0 (301fb2ad) request has no policy, fix findings or classifications (its struct lacks them).
  const evidence =
    profile === "2.5.0"
      ? {
          policy_content: NATIVE_POLICY,
          fix_findings: [f],
          // FindingEvidence (transaction.go:161); proof = proof_refs joined (review_facade.go:3481).
          fix_classifications: [
            {
              finding_id: "R1-001",
              class: "deterministic",
              causal_disposition: "introduced",
              proof: (f["proof_refs"] as string[]).join("; "),
            },
          ],
        }
      : {};
  return {
    schema: "gentle-ai.review-targeted-validation-request/v1",
    request_hash: requestHash(s),
    lineage_id: s.ids.lineageId,
    expected_revision: s.ids.revision(0),
    target_identity: s.ids.targetIdentity,
    fix_finding_ids: ["R1-001"],
    ...evidence,
    projection: "workspace",
    correction_candidate_tree: s.ids.correctionCandidateTree,
    correction_target_identity: s.ids.correctionTargetIdentity,
    correction_paths: [...s.ids.correctionPaths],
    correction_paths_digest: s.ids.correctionPathsDigest,
  };
}

function valid(json: Json): void {
  const parsed = StatusV5Schema.safeParse(json);
  expect(parsed.error?.issues ?? []).toEqual([]);
}

describe.each(["2.4.0", "2.5.0"] as const)("review-integration/v2 shapes, profile %s", (profile) => {
  it("evidence_required: the capture-evidence input bound to the fix-diff identity, the corrected live target", async () => {
    const s = sim(correctionScenario(profile, "evidence_required"));
    const { json, raw } = await status(s);
    valid(json);
    const ids = s.ids;
    const binding = [
      tok("lineage", ids.lineageId),
      tok("expected-revision", ids.revision(0)),
      tok("target", ids.correctionTargetIdentity),
      tok("repository-context", ids.repositoryContext),
    ];
    expect(json.next_transition).toEqual({
      kind: "collect",
      reason_code: "correction_repository_verification_required",
      collect: {
        inputs: [
          {
            name: "evidence",
            schema: "https://gentle-ai.dev/schema/review/verification-evidence/v1",
            capture_operation: "review.capture-evidence",
            arguments: binding,
            submission: {
              operation_token: "capture-evidence",
              argument_tokens: [...binding.map((b) => b.token), "--outcome={{outcome}}", "--input={{input}}"],
              values: [
                {
                  slot: "outcome",
                  domain: "verification_outcome",
                  allowed_values: ["passed", "verification_failed", "procedural_tooling_failed"],
                  substitution_location: 4,
                },
                {
                  slot: "input",
                  domain: "artifact_path_or_stdin",
                  schema: "https://gentle-ai.dev/schema/review/verification-evidence/v1",
                  substitution_location: 5,
                },
              ],
            },
          },
        ],
      },
    });
    expect(json.validation_request).toEqual(expectedValidationRequest(s, profile));
    // The worktree holds the corrected candidate: the live target differs from the authority's.
    expect(json).toMatchObject({
      target_identity: ids.correctionLiveIdentity,
      authority_target_identity: ids.targetIdentity,
    });
    expect(json.projection).toMatchObject({
      initial_review_tree: ids.candidateTree,
      current_candidate_tree: ids.correctionCandidateTree,
      initial_snapshot_identity: ids.targetIdentity,
      current_snapshot_identity: ids.correctionLiveIdentity,
    });
    // 301fb2ad publishes the handle without the top-level member fb55ef7b added (review_facade.go:1114-1119).
    if (profile === "2.4.0") {
      expect(json.repository_context).toBeUndefined();
      expect(Object.keys(json).slice(-2)).toEqual(["next_transition", "validation_request"]);
    } else {
      expect(json.repository_context).toEqual({
        capability: "review.opaque_repository_context",
        handle: ids.repositoryContext,
        revision: ids.revision(0),
        target_identity: ids.correctionTargetIdentity,
      });
      expect(Object.keys(json).slice(-3)).toEqual(["next_transition", "repository_context", "validation_request"]);
    }
    expect(raw.endsWith("}\n")).toBe(true);
  });

  it("validation_required: external targeted validation with the finalize descriptor ending --captured-evidence=true at 6", async () => {
    const s = sim(correctionScenario(profile, "validation_required"));
    const { json } = await status(s);
    valid(json);
    const t = json.next_transition as Json;
    expect(t.reason_code).toBe("targeted_validation_required");
    const input = (t.collect as { inputs: Json[] }).inputs[0]!;
    expect(Object.keys(input)).toEqual([
      "name",
      "schema",
      "capture_operation",
      "arguments",
      "submission",
      "validation_request",
    ]);
    expect(input.arguments).toEqual([
      ext("lineage", s.ids.lineageId),
      ext("expected-revision", s.ids.revision(0)),
      ext("target", s.ids.correctionTargetIdentity),
      ext("repository-context", s.ids.repositoryContext),
      ext("purpose", "targeted-validation"),
      ext("request-hash", requestHash(s)),
    ]);
    expect(input.submission).toEqual({
      operation_token: "finalize",
      argument_tokens: [
        `--contract=${V2}`,
        `--lineage=${s.ids.lineageId}`,
        `--expected-revision=${s.ids.revision(0)}`,
        `--target=${s.ids.correctionTargetIdentity}`,
        `--request-hash=${requestHash(s)}`,
        `--repository-context=${s.ids.repositoryContext}`,
        "--validation={{value}}",
        "--captured-evidence=true",
      ],
      value: {
        slot: "validation",
        domain: "artifact_path_or_stdin",
        schema: "https://gentle-ai.dev/schema/review/validator/v1",
        substitution_location: 6,
      },
    });
    expect(input.validation_request).toEqual(json.validation_request);
  });

  it("validation_required with --agent pi: the provider_targeted_validator role vector, no submission", async () => {
    const s = sim(correctionScenario(profile, "validation_required"));
    const { json } = await status(s, ["--agent", "pi"]);
    valid(json);
    const input = ((json.next_transition as Json).collect as { inputs: Json[] }).inputs[0]!;
    expect(Object.keys(input)).toEqual(["name", "schema", "capture_operation", "arguments", "validation_request"]);
    expect(input).toMatchObject({
      name: "provider_targeted_validator",
      schema: "https://gentle-ai.dev/schema/review/validator/v1",
      capture_operation: "review.capture-validation",
    });
    expect(input.arguments).toEqual([
      tok("lineage", s.ids.lineageId),
      tok("expected-revision", s.ids.revision(0)),
      tok("target", s.ids.correctionTargetIdentity),
      tok("repository-context", s.ids.repositoryContext),
      tok("request-hash", requestHash(s)),
      tok("agent", "pi"),
      tok("execute", "true"),
    ]);
  });

  it("validation_required with --agent opencode: the provider task, validation_request kept at the top level", async () => {
    const s = sim(correctionScenario(profile, "validation_required"));
    const { json } = await status(s, ["--agent", "opencode"]);
    valid(json);
    const input = ((json.next_transition as Json).collect as { inputs: Json[] }).inputs[0]!;
    expect(input).toMatchObject({
      name: "provider_targeted_validator",
      capture_operation: "external.run_provider_role",
      provider_task: { agent: "review-validator", role: "targeted-validator" },
    });
    expect(json.validation_request).toEqual(expectedValidationRequest(s, profile));
  });

  it("plan_required: correction_plan_required with the provider-owned request and the correction-lines descriptor at 6", async () => {
    const s = sim(correctionScenario(profile, "plan_required"));
    const { json } = await status(s);
    valid(json);
    const t = json.next_transition as Json;
    expect(Object.keys(t)).toEqual(["kind", "reason_code", "collect", "correction_request"]);
    expect(t.reason_code).toBe("correction_plan_required");
    const { frozen, compact } = budgets(s);
    expect((json.frozen as Json).correction_budget).toBe(frozen);
    const request = t.correction_request as Json;
    const f = finding(s);
    const { evidence_class: ec, causal_disposition: cd, ...head } = f;
    const body = {
      schema: "gentle-ai.review-correction-plan-request/v1",
      lineage_id: s.ids.lineageId,
      expected_revision: s.ids.revision(0),
      target_identity: s.ids.targetIdentity,
      correction_budget: compact,
      fix_finding_ids: ["R1-001"],
      findings: [
        { ...head, evidence: (f["proof_refs"] as string[]).join("; "), evidence_class: ec, causal_disposition: cd },
      ],
    };
    // correctionPlanRequestHash (correction_plan_request.go:121): schema id, NUL, the compact preimage.
    const hash =
      "sha256:" +
      createHash("sha256")
        .update(`gentle-ai.review-correction-plan-request/v1\u0000${JSON.stringify(body)}`)
        .digest("hex");
    const { schema, ...rest } = body;
    expect(request).toEqual({ schema, request_hash: hash, ...rest });
    expect(Object.keys(request)).toEqual([
      "schema",
      "request_hash",
      "lineage_id",
      "expected_revision",
      "target_identity",
      "correction_budget",
      "fix_finding_ids",
      "findings",
    ]);
    const input = (t.collect as { inputs: Json[] }).inputs[0]!;
    expect(input).toMatchObject({
      name: "correction_lines",
      schema: "gentle-ai.review-correction-plan/v1",
      capture_operation: "external.plan_correction",
    });
    expect(input.arguments).toEqual([
      ext("lineage", s.ids.lineageId),
      ext("expected-revision", s.ids.revision(0)),
      ext("target", s.ids.targetIdentity),
    ]);
    expect(input.submission).toEqual({
      operation_token: "finalize",
      argument_tokens: [
        `--contract=${V2}`,
        `--lineage=${s.ids.lineageId}`,
        `--expected-revision=${s.ids.revision(0)}`,
        `--target=${s.ids.targetIdentity}`,
        `--request-hash=${hash}`,
        `--repository-context=${s.ids.repositoryContext}`,
        "--correction-lines={{value}}",
      ],
      value: {
        slot: "correction_lines",
        domain: "positive_correction_lines",
        minimum: 1,
        maximum: compact,
        substitution_location: 6,
      },
    });
    expect(json.validation_request).toBeUndefined();
    expect(json.authority_target_identity).toBeUndefined();
  });

  it("candidate_unavailable: stop carrying the correction request, no validation_request", async () => {
    const s = sim(correctionScenario(profile, "candidate_unavailable"));
    const { json } = await status(s);
    valid(json);
    const t = json.next_transition as Json;
    expect(Object.keys(t)).toEqual(["kind", "reason_code", "correction_request"]);
    expect(t).toMatchObject({
      kind: "stop",
      reason_code: "corrected_candidate_unavailable",
      correction_request: { schema: "gentle-ai.review-correction-plan-request/v1" },
    });
    expect(json.forecast).toEqual({
      horizon: "terminal",
      steps: [
        {
          step: 1,
          kind: "stop",
          reason_code: "corrected_candidate_unavailable",
          description: "Corrected candidate is unavailable for forecasted correction",
        },
      ],
    });
    expect(json.validation_request).toBeUndefined();
  });
});

describe("2.3.0: the 2.2.x-era shapes, gentle-ai's review-integration/v1 correction inputs (issue-279 §6)", () => {
  it("evidence input: record schema, lineage/expected-revision/target only, no submission, no repository context", async () => {
    const s = sim(correctionScenario("2.3.0", "evidence_required"));
    const { json } = await status(s);
    expect(json.next_transition).toEqual({
      kind: "collect",
      reason_code: "correction_repository_verification_required",
      collect: {
        inputs: [
          {
            name: "evidence",
            schema: "gentle-ai.review-verification-evidence/v2",
            capture_operation: "review.capture-evidence",
            arguments: [
              tok("lineage", s.ids.lineageId),
              tok("expected-revision", s.ids.revision(0)),
              tok("target", s.ids.correctionTargetIdentity),
            ],
          },
        ],
      },
    });
    expect(json.validation_request).toEqual(expectedValidationRequest(s, "2.3.0"));
    expect(json.repository_context).toBeUndefined();
  });

  it("targeted validation: external input with the binding only and its validation_request, no submission", async () => {
    const s = sim(correctionScenario("2.3.0", "validation_required"));
    const { json } = await status(s);
    const input = ((json.next_transition as Json).collect as { inputs: Json[] }).inputs[0]!;
    expect(Object.keys(input)).toEqual(["name", "schema", "capture_operation", "arguments", "validation_request"]);
    expect(input.capture_operation).toBe("external.run_targeted_validation");
    expect(input.arguments).toEqual([
      ext("lineage", s.ids.lineageId),
      ext("expected-revision", s.ids.revision(0)),
      ext("target", s.ids.correctionTargetIdentity),
    ]);
  });

  it("plan_required: no submission descriptor", async () => {
    const s = sim(correctionScenario("2.3.0", "plan_required"));
    const input = (((await status(s)).json.next_transition as Json).collect as { inputs: Json[] }).inputs[0]!;
    expect("submission" in input).toBe(false);
  });
});

describe("evidence outcomes, validating and approved", () => {
  it("a failed record stops and drops the top-level request", async () => {
    const s = sim(
      correctionScenario("2.4.0", "validation_required", {
        lineage: {
          state: "correction_required",
          correction: { stage: "validation_required", evidenceOutcome: "verification_failed" },
        },
      }),
    );
    const { json } = await status(s);
    valid(json);
    expect(json.next_transition).toEqual({ kind: "stop", reason_code: "correction_repository_verification_failed" });
    expect(json.validation_request).toBeUndefined();
  });

  it("a procedural tooling failure finalizes with the captured evidence, bound to the fix diff", async () => {
    const s = sim(
      correctionScenario("2.4.0", "validation_required", {
        lineage: {
          state: "correction_required",
          correction: { stage: "validation_required", evidenceOutcome: "procedural_tooling_failed" },
        },
      }),
    );
    const { json } = await status(s);
    valid(json);
    const ids = s.ids;
    expect(json.next_transition).toEqual({
      kind: "execute",
      reason_code: "correction_repository_tooling_failed",
      execute: {
        operation: "review.finalize",
        command: `gentle-ai review finalize --lineage=${ids.lineageId} --captured-evidence=true`,
        arguments: [tok("lineage", ids.lineageId), tok("captured_evidence", "true")],
        preconditions: [ext("state", "correction_required"), ext("verification_outcome", "procedural_tooling_failed")],
        binding: {
          lineage_id: ids.lineageId,
          revision: ids.revision(0),
          target_identity: ids.correctionTargetIdentity,
          repository_context: ids.repositoryContext,
        },
      },
    });
    expect(json.validation_request).toEqual(expectedValidationRequest(s, "2.4.0"));
  });

  it("validating with a passed record: captured_verification_evidence_passed; no top-level validation_request", async () => {
    const s = sim({ profile: "2.4.0", lineage: { state: "validating" } });
    const { json } = await status(s);
    valid(json);
    const ids = s.ids;
    expect(json.next_transition).toEqual({
      kind: "execute",
      reason_code: "captured_verification_evidence_passed",
      execute: {
        operation: "review.finalize",
        command: `gentle-ai review finalize --lineage=${ids.lineageId} --captured-evidence=true`,
        arguments: [tok("lineage", ids.lineageId), tok("captured_evidence", "true")],
        preconditions: [ext("state", "validating"), ext("verification_outcome", "passed")],
        binding: {
          lineage_id: ids.lineageId,
          revision: ids.revision(0),
          target_identity: ids.targetIdentity,
          repository_context: ids.repositoryContext,
        },
      },
    });
    expect(json.validation_request).toBeUndefined();
    // Only the transition carries the handle at 2.4.0 (real 301fb2ad bytes, golden/diff/lifecycle-approve.txtar).
    expect(json.repository_context).toBeUndefined();
  });

  it("validating at 2.5.0 also prints the repository_context it publishes (fb55ef7b review_facade.go:1114-1119)", async () => {
    const s = sim({ profile: "2.5.0", lineage: { state: "validating" } });
    const { json } = await status(s);
    valid(json);
    const ids = s.ids;
    expect(json.repository_context).toEqual({
      capability: "review.opaque_repository_context",
      handle: ids.repositoryContext,
      revision: ids.revision(0),
      target_identity: ids.targetIdentity,
    });
  });

  it("approved at 2.4.0: the present receipt routes to the deciding gate (review_next_transition.go:341-373)", async () => {
    const s = sim({ profile: "2.4.0", lineage: { state: "approved" } });
    const { json } = await status(s);
    valid(json);
    const ids = s.ids;
    expect(json).toMatchObject({
      receipt: { status: "present", identity: ids.receiptIdentity },
      action: "validate",
      replayability: "not_replayable",
    });
    expect(json.next_transition).toEqual({
      kind: "execute",
      reason_code: "approved_receipt_ready",
      execute: {
        operation: "review.validate",
        command: `gentle-ai review validate --lineage=${ids.lineageId} --gate=pre-commit`,
        arguments: [tok("lineage", ids.lineageId), tok("gate", "pre-commit")],
        selector_arguments: [],
        preconditions: [ext("state", "approved"), ext("receipt", "present")],
        binding: { lineage_id: ids.lineageId, revision: ids.revision(0), target_identity: ids.targetIdentity },
      },
    });
    expect(json.repository_context).toBeUndefined();
  });

  it("approved at 2.5.0: the published receipt and the compact burn FINALIZE", async () => {
    const s = sim({ profile: "2.5.0", lineage: { state: "approved" } });
    const { json } = await status(s);
    valid(json);
    const ids = s.ids;
    expect(json).toMatchObject({
      receipt: { status: "present", identity: ids.receiptIdentity },
      action: "validate",
      replayability: "not_replayable",
    });
    expect(json.next_transition).toEqual({
      kind: "execute",
      reason_code: "approved_compact_burn_required",
      execute: {
        operation: "review.finalize",
        command: `gentle-ai review finalize --lineage=${ids.lineageId}`,
        arguments: [tok("lineage", ids.lineageId)],
        preconditions: [ext("state", "approved"), ext("receipt", "published")],
        binding: { lineage_id: ids.lineageId, revision: ids.revision(0), target_identity: ids.targetIdentity },
      },
    });
    expect(json.repository_context).toBeUndefined();
  });
});
