import { describe, expect, it } from "vitest";
import { CollectInputSchema, typedSubmission, type CollectInput } from "../../../conformance/status/decode.ts";
import { relaySlots, renderToken } from "../../../conformance/status/slots.ts";

const arg = (name: string, value: string, token?: string) => ({ name, value, ...(token === undefined ? {} : { token }) });
const input = (over: Partial<CollectInput>): CollectInput =>
  CollectInputSchema.parse({
    name: "reviewer_result",
    capture_operation: "review.capture-result",
    arguments: [arg("lens", "review-risk", "--lens=review-risk"), arg("order", "0", "--order=0"), arg("agent", "pi", "--agent=pi"), arg("materialize", "true", "--materialize=true")],
    artifact_subject: { subject_hash: "sha256:aa" },
    ...over,
  });

describe("harness STATUS decoding (relay reference §12.1)", () => {
  it("maps the v5 singular value and the legacy values array onto the same typed form", () => {
    const singular = typedSubmission({ operation_token: "capture-result", argument_tokens: ["--a=1", "--input={{value}}"], value: { slot: "reviewer_result", domain: "artifact_path_or_stdin", schema: "s", substitution_location: 1 } });
    const legacy = typedSubmission({ operation_token: "capture-result", argument_tokens: ["--a=1", "--input={{value}}"], values: [{ slot: "reviewer_result", domain: "artifact_path_or_stdin", schema: "s", substitution_location: 1 }] });
    expect(singular).toEqual({ operationToken: "capture-result", argumentTokens: ["--a=1", "--input={{value}}"], values: [{ slot: "reviewer_result", domain: "artifact_path_or_stdin", substitutionLocation: 1, schema: "s" }] });
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
    const tokens = ["--lineage=review-1", `--expected-revision=${sha}`, `--target=${sha}`, `--repository-context=rctx1_${"2".repeat(64)}`, "--lens=review-risk", "--order=0", `--subject-hash=${sha}`];
    const args = tokens.map((t) => {
      const [name, ...value] = t.slice(2).split("=");
      return arg(name!, value.join("="), t);
    });
    const real = input({
      arguments: [...args, arg("agent", "pi", "--agent=pi"), arg("materialize", "true", "--materialize=true")],
      artifact_subject: { subject_hash: sha },
      submission: { operation_token: "capture-result", argument_tokens: [...tokens, "--input={{value}}"], value: { slot: "reviewer_result", domain: "artifact_path_or_stdin", schema: "s", substitution_location: 7 } },
    });
    const [slot] = relaySlots([real]);
    expect(slot).toMatchObject({ captureArgumentTokens: [...tokens, "--agent=pi", "--materialize=true"], lens: "review-risk", order: "0", subjectHash: sha });
    expect(slot!.submission!.values[0]!.substitutionLocation).toBe(7);
  });

  it("keeps exactly the capture-result inputs with one agent=pi and one materialize=true, in order", () => {
    const ok = input({});
    const codex = input({ arguments: [arg("agent", "codex"), arg("materialize", "true")] });
    const twoAgents = input({ arguments: [arg("agent", "pi"), arg("agent", "pi"), arg("materialize", "true")] });
    const evidence = input({ capture_operation: "review.capture-evidence" });
    const bare = input({ arguments: [arg("agent", "pi")] });
    const slots = relaySlots([codex, ok, twoAgents, evidence, bare]);
    expect(slots).toEqual([{ captureArgumentTokens: ["--lens=review-risk", "--order=0", "--agent=pi", "--materialize=true"], lens: "review-risk", order: "0", subjectHash: "sha256:aa" }]);
  });
});
