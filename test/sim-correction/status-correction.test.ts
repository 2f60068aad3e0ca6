// STATUS in correction_required / validating per profile (§8.4, §10, §11; issue-279 §6), against the built binary.
import { describe, expect, it } from "vitest";
import { correctionScenario, HANDSHAKE, requestHash, Sim, simFactory, V2 } from "./helpers.ts";

const sim = simFactory();

type Json = Record<string, unknown>;

async function status(s: Sim, agent = false): Promise<{ raw: string; json: Json }> {
  const r = await s.run(["review", "status", "--contract", V2, ...(agent ? ["--agent", "pi"] : []), "--next-transition"], { env: HANDSHAKE });
  expect([r.code, r.stderr]).toEqual([0, ""]);
  return { raw: r.stdout, json: JSON.parse(r.stdout) as Json };
}

const arg = (name: string, value: string) => ({ name, value, token: `--${name.replace(/_/g, "-")}=${value}` });
const ext = (name: string, value: string) => ({ name, value });

const VALIDATION_REQUEST_KEYS = [
  "schema",
  "request_hash",
  "lineage_id",
  "expected_revision",
  "target_identity",
  "fix_finding_ids",
  "policy_content",
  "fix_findings",
  "fix_classifications",
  "projection",
  "correction_candidate_tree",
  "correction_target_identity",
  "correction_paths",
  "correction_paths_digest",
];

function checkValidationRequest(s: Sim, vr: Json): void {
  expect(Object.keys(vr)).toEqual(VALIDATION_REQUEST_KEYS);
  expect(vr).toMatchObject({
    schema: "gentle-ai.review-targeted-validation-request/v1",
    request_hash: requestHash(s),
    lineage_id: s.ids.lineageId,
    expected_revision: s.ids.revision(0),
    target_identity: s.ids.targetIdentity,
    correction_candidate_tree: s.ids.correctionCandidateTree,
    correction_target_identity: s.ids.correctionTargetIdentity,
    correction_paths: s.ids.correctionPaths,
    correction_paths_digest: s.ids.correctionPathsDigest,
  });
  expect(vr.request_hash).toMatch(/^sha256:[0-9a-f]{64}$/);
}

describe.each(["2.4.0", "2.5.0"] as const)("v2.4.0 shapes, profile %s", (profile) => {
  it("evidence_required: capture-evidence input with plural values submission", async () => {
    const s = sim(correctionScenario(profile, "evidence_required"));
    const { json, raw } = await status(s);
    const binding = [
      arg("lineage", s.ids.lineageId),
      arg("expected_revision", s.ids.revision(0)),
      arg("target", s.ids.correctionTargetIdentity),
      arg("repository_context", s.ids.repositoryContext),
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
    checkValidationRequest(s, json.validation_request as Json);
    // validation_request is the last top-level key, after repository_context.
    expect(Object.keys(json).slice(-2)).toEqual(["repository_context", "validation_request"]);
    expect(raw.endsWith("}\n")).toBe(true);
  });

  it("validation_required: external targeted validation with the finalize descriptor ending --captured-evidence=true at 6", async () => {
    const s = sim(correctionScenario(profile, "validation_required"));
    const { json } = await status(s);
    const t = json.next_transition as Json;
    expect(t.reason_code).toBe("targeted_validation_required");
    const input = (t.collect as { inputs: Json[] }).inputs[0]!;
    expect(Object.keys(input)).toEqual(["name", "schema", "capture_operation", "arguments", "submission", "validation_request"]);
    expect(input.arguments).toEqual([
      ext("lineage", s.ids.lineageId),
      ext("expected_revision", s.ids.revision(0)),
      ext("target", s.ids.correctionTargetIdentity),
      ext("repository_context", s.ids.repositoryContext),
      ext("purpose", "targeted-validation"),
      ext("request_hash", requestHash(s)),
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
      value: { slot: "validation", domain: "artifact_path_or_stdin", schema: "https://gentle-ai.dev/schema/review/validator/v1", substitution_location: 6 },
    });
    expect(input.validation_request).toEqual(json.validation_request);
  });

  it("validation_required with --agent pi: the provider_targeted_validator role vector, no submission", async () => {
    const s = sim(correctionScenario(profile, "validation_required"));
    const { json } = await status(s, true);
    const input = ((json.next_transition as Json).collect as { inputs: Json[] }).inputs[0]!;
    expect(Object.keys(input)).toEqual(["name", "schema", "capture_operation", "arguments", "validation_request"]);
    expect(input).toMatchObject({ name: "provider_targeted_validator", schema: "https://gentle-ai.dev/schema/review/validator/v1", capture_operation: "review.capture-validation" });
    expect(input.arguments).toEqual([
      arg("lineage", s.ids.lineageId),
      arg("expected_revision", s.ids.revision(0)),
      arg("target", s.ids.correctionTargetIdentity),
      arg("repository_context", s.ids.repositoryContext),
      arg("request_hash", requestHash(s)),
      arg("agent", "pi"),
      arg("execute", "true"),
    ]);
  });

  it("plan_required: correction_plan_required with correction_request and the correction-lines descriptor at 6", async () => {
    const s = sim(correctionScenario(profile, "plan_required"));
    const { json } = await status(s);
    const t = json.next_transition as Json;
    expect(Object.keys(t)).toEqual(["kind", "reason_code", "collect", "correction_request"]);
    expect(t.reason_code).toBe("correction_plan_required");
    const input = (t.collect as { inputs: Json[] }).inputs[0]!;
    const reqHash = (t.correction_request as Json).request_hash as string;
    expect(input).toMatchObject({ name: "correction_lines", schema: "gentle-ai.review-correction-plan/v1", capture_operation: "external.plan_correction" });
    expect(input.submission).toEqual({
      operation_token: "finalize",
      argument_tokens: [
        `--contract=${V2}`,
        `--lineage=${s.ids.lineageId}`,
        `--expected-revision=${s.ids.revision(0)}`,
        `--target=${s.ids.targetIdentity}`,
        `--request-hash=${reqHash}`,
        `--repository-context=${s.ids.repositoryContext}`,
        "--correction-lines={{value}}",
      ],
      value: {
        slot: "correction_lines",
        domain: "positive_correction_lines",
        minimum: 1,
        maximum: (json.frozen as { correction_budget: number }).correction_budget,
        substitution_location: 6,
      },
    });
    expect(json.validation_request).toBeUndefined();
  });

  it("candidate_unavailable: stop, no validation_request", async () => {
    const s = sim(correctionScenario(profile, "candidate_unavailable"));
    const { json } = await status(s);
    expect(json.next_transition).toEqual({ kind: "stop", reason_code: "corrected_candidate_unavailable" });
    expect(json.validation_request).toBeUndefined();
  });
});

describe("2.3.0: 2.2.x-era shapes (issue-279 §6)", () => {
  it("evidence input: record schema, lineage/expected-revision/target only, no submission", async () => {
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
            arguments: [arg("lineage", s.ids.lineageId), arg("expected_revision", s.ids.revision(0)), arg("target", s.ids.correctionTargetIdentity)],
          },
        ],
      },
    });
    checkValidationRequest(s, json.validation_request as Json);
  });

  it("targeted validation: external input carrying validation_request, no submission", async () => {
    const s = sim(correctionScenario("2.3.0", "validation_required"));
    const { json } = await status(s);
    const input = ((json.next_transition as Json).collect as { inputs: Json[] }).inputs[0]!;
    expect(Object.keys(input)).toEqual(["name", "schema", "capture_operation", "arguments", "validation_request"]);
    expect(input.capture_operation).toBe("external.run_targeted_validation");
    expect((input.arguments as Json[]).map((a) => a.name)).toEqual(["lineage", "expected_revision", "target", "purpose", "request_hash"]);
  });

  it("plan_required: no submission descriptor", async () => {
    const s = sim(correctionScenario("2.3.0", "plan_required"));
    const input = ((((await status(s)).json.next_transition as Json).collect as { inputs: Json[] }).inputs[0])!;
    expect("submission" in input).toBe(false);
  });
});

describe("evidence outcomes and validating", () => {
  it.each([
    ["verification_failed", { kind: "stop", reason_code: "correction_repository_verification_failed" }],
    ["procedural_tooling_failed", "correction_repository_tooling_failed"],
  ] as const)("seeded %s record", async (outcome, expected) => {
    const s = sim(correctionScenario("2.4.0", "validation_required", { lineage: { state: "correction_required", correction: { stage: "validation_required", evidenceOutcome: outcome } } }));
    const t = (await status(s)).json.next_transition as Json;
    if (typeof expected === "string") {
      expect([t.kind, t.reason_code]).toEqual(["execute", expected]);
      expect((t.execute as { arguments: { token: string }[] }).arguments.map((a) => a.token).at(-1)).toBe("--captured-evidence=true");
    } else expect(t).toEqual(expected);
  });

  it("validating: captured_evidence_ready execute; no top-level validation_request", async () => {
    const s = sim({ profile: "2.4.0", lineage: { state: "validating" } });
    const { json } = await status(s);
    expect(json.next_transition).toEqual({
      kind: "execute",
      reason_code: "captured_evidence_ready",
      execute: { operation: "review.finalize", arguments: [arg("contract", V2), arg("lineage", s.ids.lineageId), arg("captured_evidence", "true")] },
    });
    expect(json.validation_request).toBeUndefined();
  });
});
