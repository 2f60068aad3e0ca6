import { describe, expect, it } from "vitest";
import {
  CollectInputSchema,
  decodeSubmission,
  replyCollectInputs,
  typedSubmission,
  type CollectInput,
} from "../../../conformance/status/decode.ts";
import { relaySlots, renderToken, roleVectorSlots } from "../../../conformance/status/slots.ts";

const arg = (name: string, value: string, token?: string) => ({
  name,
  value,
  ...(token === undefined ? {} : { token }),
});
const input = (over: Partial<CollectInput>): CollectInput =>
  CollectInputSchema.parse({
    name: "reviewer_result",
    capture_operation: "review.capture-result",
    arguments: [
      arg("lens", "review-risk", "--lens=review-risk"),
      arg("order", "0", "--order=0"),
      arg("agent", "pi", "--agent=pi"),
      arg("materialize", "true", "--materialize=true"),
    ],
    artifact_subject: { subject_hash: "sha256:aa" },
    ...over,
  });

describe("harness STATUS decoding (relay reference §12.1)", () => {
  it("maps the v5 singular value and the legacy values array onto the same typed form", () => {
    const singular = typedSubmission({
      operation_token: "capture-result",
      argument_tokens: ["--a=1", "--input={{value}}"],
      value: { slot: "reviewer_result", domain: "artifact_path_or_stdin", schema: "s", substitution_location: 1 },
    });
    const legacy = typedSubmission({
      operation_token: "capture-result",
      argument_tokens: ["--a=1", "--input={{value}}"],
      values: [{ slot: "reviewer_result", domain: "artifact_path_or_stdin", schema: "s", substitution_location: 1 }],
    });
    expect(singular).toEqual({
      operationToken: "capture-result",
      argumentTokens: ["--a=1", "--input={{value}}"],
      values: [{ slot: "reviewer_result", domain: "artifact_path_or_stdin", substitutionLocation: 1, schema: "s" }],
    });
    expect(legacy).toEqual(singular);
  });

  it("renders the provider token, else --name=value without converting _", () => {
    // Collect argument names are hyphenated (reviewBindingArguments, review_next_transition.go:1067); execute
    // arguments keep underscores and only their tokens hyphenate (reviewTransitionArgumentToken).
    expect(renderToken(arg("expected-revision", "x", "--expected-revision=x"))).toBe("--expected-revision=x");
    expect(renderToken(arg("captured_results", "true", "--captured-results=true"))).toBe("--captured-results=true");
    expect(renderToken(arg("captured_results", "true"))).toBe("--captured_results=true");
  });

  it("decodes a real collect input (gentle-pi status-v5-capture-result-submission.captured.json shape)", () => {
    const sha = "sha256:" + "1".repeat(64);
    const tokens = [
      "--lineage=review-1",
      `--expected-revision=${sha}`,
      `--target=${sha}`,
      `--repository-context=rctx1_${"2".repeat(64)}`,
      "--lens=review-risk",
      "--order=0",
      `--subject-hash=${sha}`,
    ];
    const args = tokens.map((t) => {
      const [name, ...value] = t.slice(2).split("=");
      return arg(name!, value.join("="), t);
    });
    const real = input({
      arguments: [...args, arg("agent", "pi", "--agent=pi"), arg("materialize", "true", "--materialize=true")],
      artifact_subject: { subject_hash: sha },
      submission: {
        operation_token: "capture-result",
        argument_tokens: [...tokens, "--input={{value}}"],
        value: { slot: "reviewer_result", domain: "artifact_path_or_stdin", schema: "s", substitution_location: 7 },
      },
    });
    const [slot] = relaySlots([real]);
    expect(slot).toMatchObject({
      captureArgumentTokens: [...tokens, "--agent=pi", "--materialize=true"],
      lens: "review-risk",
      order: "0",
      subjectHash: sha,
    });
    expect(slot!.submission!.values[0]!.substitutionLocation).toBe(7);
  });

  it("keeps exactly the capture-result inputs with one agent=pi and one materialize=true, in order", () => {
    const ok = input({});
    const codex = input({ arguments: [arg("agent", "codex"), arg("materialize", "true")] });
    const twoAgents = input({ arguments: [arg("agent", "pi"), arg("agent", "pi"), arg("materialize", "true")] });
    const evidence = input({ capture_operation: "review.capture-evidence" });
    const bare = input({ arguments: [arg("agent", "pi")] });
    const slots = relaySlots([codex, ok, twoAgents, evidence, bare]);
    expect(slots).toEqual([
      {
        captureArgumentTokens: ["--lens=review-risk", "--order=0", "--agent=pi", "--materialize=true"],
        lens: "review-risk",
        order: "0",
        subjectHash: "sha256:aa",
      },
    ]);
  });

  it("carries a correction form's bounds and allowed values under the typed names, in the typed key order", () => {
    const typed = decodeSubmission({
      operation_token: "capture-correction",
      argument_tokens: ["--a=1", "--lines={{value}}"],
      value: {
        substitution_location: 1,
        maximum: 9,
        minimum: 1,
        domain: "positive_correction_lines",
        slot: "correction_lines",
        extra: true,
      },
    });
    expect(JSON.stringify(typed)).toBe(
      '{"operationToken":"capture-correction","argumentTokens":["--a=1","--lines={{value}}"],"values":[{"slot":"correction_lines","domain":"positive_correction_lines","substitutionLocation":1,"minimum":1,"maximum":9}]}',
    );
    const outcome = decodeSubmission({
      operation_token: "capture-evidence",
      argument_tokens: [],
      values: [
        { slot: "outcome", domain: "verification_outcome", allowed_values: ["passed"], substitution_location: 4 },
      ],
    });
    expect(outcome.values).toEqual([
      { slot: "outcome", domain: "verification_outcome", substitutionLocation: 4, allowedValues: ["passed"] },
    ]);
    expect(() => decodeSubmission({ operation_token: "x" })).toThrow();
  });

  it("keeps exactly the refuter/validation inputs with one execute=true and one agent=pi as role vectors, in order", () => {
    const role = (op: string, args: ReturnType<typeof arg>[]) =>
      input({ name: op, capture_operation: op, arguments: args });
    const refuter = role("review.capture-refuter", [
      arg("lineage", "l", "--lineage=l"),
      arg("execute", "true", "--execute=true"),
      arg("agent", "pi", "--agent=pi"),
    ]);
    const validation = role("review.capture-validation", [arg("execute", "true"), arg("agent", "pi")]);
    const twoExecutes = role("review.capture-validation", [
      arg("execute", "true"),
      arg("execute", "true"),
      arg("agent", "pi"),
    ]);
    const lens = input({ arguments: [arg("execute", "true"), arg("agent", "pi")] });
    expect(roleVectorSlots([lens, refuter, twoExecutes, validation])).toEqual([
      {
        captureOperation: "review.capture-refuter",
        argumentTokens: ["--lineage=l", "--execute=true", "--agent=pi"],
        name: "review.capture-refuter",
      },
      {
        captureOperation: "review.capture-validation",
        argumentTokens: ["--execute=true", "--agent=pi"],
        name: "review.capture-validation",
      },
    ]);
  });

  it("reads a STATUS reply's collect inputs: none from a failed, non-JSON or non-collect reply; throws on a bad input", () => {
    const reply = (exitCode: number | null, doc: unknown) => ({
      exitCode,
      stdout: Buffer.from(typeof doc === "string" ? doc : JSON.stringify(doc)),
    });
    const wire = {
      name: "reviewer_result",
      capture_operation: "review.capture-result",
      arguments: [arg("agent", "pi")],
    };
    expect(replyCollectInputs(reply(0, { next_transition: { collect: { inputs: [wire] } } }))).toEqual([wire]);
    expect(replyCollectInputs(reply(1, { next_transition: { collect: { inputs: [wire] } } }))).toEqual([]);
    expect(replyCollectInputs(reply(0, "not json"))).toEqual([]);
    expect(replyCollectInputs(reply(0, { next_transition: { kind: "finalize" } }))).toEqual([]);
    expect(() => replyCollectInputs(reply(0, { next_transition: { collect: { inputs: [{ name: "x" }] } } }))).toThrow();
  });
});
