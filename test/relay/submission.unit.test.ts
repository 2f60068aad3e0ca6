import { describe, expect, it } from "vitest";
import {
  REVIEW_HOST_RELAY_SUBMISSION_MISSING_MESSAGE,
  REVIEW_HOST_RELAY_SUBMISSION_VALUE_SLOT,
  ReviewHostRelayError,
  resolveReviewHostRelaySubmission,
  type ReviewCaptureSubmissionV1,
} from "../../relay/index.ts";
import { decodeReviewCaptureSubmission } from "../../relay/status-decode.ts";
import { reviewHostRelaySubmitArgv } from "../../relay/submission.ts";

const TOKENS = [
  "--lineage=review-c15e3de5404ab556",
  "--expected-revision=sha256:" + "d".repeat(64),
  "--target=sha256:" + "c".repeat(64),
  "--repository-context=rctx1_" + "a".repeat(64),
  "--lens=review-reliability",
  "--order=0",
  "--subject-hash=sha256:" + "7".repeat(64),
  "--input={{value}}",
];
const form = (overrides: Partial<ReviewCaptureSubmissionV1> = {}): ReviewCaptureSubmissionV1 => ({
  operationToken: "capture-result",
  argumentTokens: TOKENS,
  values: [{ slot: "reviewer_result", domain: "artifact_path_or_stdin", substitutionLocation: 7 }],
  ...overrides,
});

function refusal(submission: unknown): ReviewHostRelayError {
  try {
    resolveReviewHostRelaySubmission(submission as ReviewCaptureSubmissionV1);
  } catch (error) {
    if (error instanceof ReviewHostRelayError) return error;
    throw error;
  }
  throw new Error("expected a refusal");
}

describe("resolveReviewHostRelaySubmission (reference §10.1)", () => {
  it("exports the constants", () => {
    expect(REVIEW_HOST_RELAY_SUBMISSION_VALUE_SLOT).toBe("{{value}}");
    expect(REVIEW_HOST_RELAY_SUBMISSION_MISSING_MESSAGE).toBe(
      "provider contract mismatch: the materialize capture input carries no provider-owned submission form; the host never synthesizes the completing form",
    );
  });

  it("resolves a v2.4.0 form", () => {
    expect(resolveReviewHostRelaySubmission(form())).toEqual({
      operationToken: "capture-result",
      argumentTokens: TOKENS,
      substitutionLocation: 7,
    });
  });

  it.each([
    ["missing", undefined, REVIEW_HOST_RELAY_SUBMISSION_MISSING_MESSAGE],
    [
      "empty operation",
      form({ operationToken: "" }),
      "provider contract mismatch: the submission form carries an empty operation or argument token",
    ],
    [
      "no tokens",
      form({ argumentTokens: [] }),
      "provider contract mismatch: the submission form carries an empty operation or argument token",
    ],
    [
      "an empty token",
      form({ argumentTokens: ["--a", ""] }),
      "provider contract mismatch: the submission form carries an empty operation or argument token",
    ],
    [
      "a non-string token",
      form({ argumentTokens: ["--a", 3 as unknown as string] }),
      "provider contract mismatch: the submission form carries an empty operation or argument token",
    ],
    [
      "zero values",
      form({ values: [] }),
      "provider contract mismatch: the submission form must bind exactly one artifact value, received 0",
    ],
    [
      "two values",
      form({
        values: [
          { slot: "a", domain: "d", substitutionLocation: 7 },
          { slot: "b", domain: "d", substitutionLocation: 6 },
        ],
      }),
      "provider contract mismatch: the submission form must bind exactly one artifact value, received 2",
    ],
    [
      "location = length",
      form({ values: [{ slot: "a", domain: "d", substitutionLocation: 8 }] }),
      "provider contract mismatch: the submission substitution location is outside its argument tokens",
    ],
    [
      "negative location",
      form({ values: [{ slot: "a", domain: "d", substitutionLocation: -1 }] }),
      "provider contract mismatch: the submission substitution location is outside its argument tokens",
    ],
    [
      "fractional location",
      form({ values: [{ slot: "a", domain: "d", substitutionLocation: 6.5 }] }),
      "provider contract mismatch: the submission substitution location is outside its argument tokens",
    ],
    [
      "token without slot",
      form({ values: [{ slot: "a", domain: "d", substitutionLocation: 6 }] }),
      "provider contract mismatch: the submission token at location 6 carries no {{value}} slot",
    ],
  ])("%s", (_label, submission, message) => {
    const error = refusal(submission);
    expect([error.kind, error.stage, error.message, error.mutationOutcome, error.exitCode]).toEqual([
      "submission-contract-mismatch",
      "binding",
      message,
      "none",
      null,
    ]);
  });

  it("checks in order: an empty token wins over a bad value count", () => {
    expect(refusal(form({ operationToken: "", values: [] })).message).toBe(
      "provider contract mismatch: the submission form carries an empty operation or argument token",
    );
  });

  it("does not check slot, domain, schema or the operation name", () => {
    expect(() =>
      resolveReviewHostRelaySubmission(
        form({ operationToken: "anything", values: [{ slot: "", domain: "", substitutionLocation: 7, schema: "x" }] }),
      ),
    ).not.toThrow();
  });
});

describe("submit argv (reference §10.3)", () => {
  it("replaces every {{value}} in the one token and leaves other placeholders verbatim", () => {
    const binding = resolveReviewHostRelaySubmission({
      operationToken: "capture-result",
      argumentTokens: ["--a={{value}}", "--input={{value}}:{{value}}", "--c={{outcome}}"],
      values: [{ slot: "s", domain: "d", substitutionLocation: 1 }],
    });
    expect(reviewHostRelaySubmitArgv(binding, "/tmp/x $& $1/result.raw")).toEqual([
      "review",
      "capture-result",
      "--a={{value}}",
      "--input=/tmp/x $& $1/result.raw:/tmp/x $& $1/result.raw",
      "--c={{outcome}}",
    ]);
  });
});

describe("decodeReviewCaptureSubmission", () => {
  it("maps the v5 singular value", () => {
    expect(
      decodeReviewCaptureSubmission({
        operation_token: "capture-result",
        argument_tokens: TOKENS,
        value: { slot: "reviewer_result", domain: "artifact_path_or_stdin", schema: "s", substitution_location: 7 },
      }),
    ).toEqual({
      operationToken: "capture-result",
      argumentTokens: TOKENS,
      values: [{ slot: "reviewer_result", domain: "artifact_path_or_stdin", schema: "s", substitutionLocation: 7 }],
    });
  });

  it("maps the legacy values array", () => {
    const decoded = decodeReviewCaptureSubmission({
      operation_token: "capture-evidence",
      argument_tokens: ["--outcome={{outcome}}", "--input={{input}}"],
      values: [
        { slot: "outcome", domain: "verification_outcome", allowed_values: ["passed"], substitution_location: 0 },
        { slot: "input", domain: "artifact_path_or_stdin", substitution_location: 1 },
      ],
    });
    expect(decoded.values).toEqual([
      { slot: "outcome", domain: "verification_outcome", allowedValues: ["passed"], substitutionLocation: 0 },
      { slot: "input", domain: "artifact_path_or_stdin", substitutionLocation: 1 },
    ]);
  });
});
