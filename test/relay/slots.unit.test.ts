import { describe, expect, it } from "vitest";
import {
  REVIEW_PROVIDER_ROLE_CAPTURE_OPERATION,
  REVIEW_PROVIDER_ROLE_CAPTURE_OPERATIONS,
  isReviewHostRelayCollectInput,
  isReviewProviderRoleVectorInput,
  reviewHostRelaySlots,
  reviewProviderRoleVectorSlots,
  type ReviewCollectInputV3,
} from "../../relay/index.ts";
import { decodeReviewCollectInput, StatusDecodeError } from "../../relay/status-decode.ts";

const SUBMISSION = {
  operationToken: "capture-result",
  argumentTokens: ["--input={{value}}"],
  values: [{ slot: "reviewer_result", domain: "artifact_path_or_stdin", substitutionLocation: 0 }],
};
const lensInput = (
  extra: { name: string; value: string; token?: string }[],
  overrides: Partial<ReviewCollectInputV3> = {},
): ReviewCollectInputV3 => ({
  name: "reviewer_result",
  schema: "https://gentle-ai.dev/schema/review/reviewer/v1",
  captureOperation: "review.capture-result",
  arguments: [
    { name: "lineage", value: "review-1", token: "--lineage=review-1" },
    { name: "lens", value: "review-risk", token: "--lens=review-risk" },
    { name: "order", value: "2", token: "--order=2" },
    ...extra,
  ],
  artifactSubject: { subjectHash: "sha256:" + "7".repeat(64) },
  ...overrides,
});
const PI = [
  { name: "agent", value: "pi", token: "--agent=pi" },
  { name: "materialize", value: "true", token: "--materialize=true" },
];

describe("relay slot detection (reference §12.1)", () => {
  it("maps a matching input to a slot", () => {
    const input = lensInput(PI, { submission: SUBMISSION });
    expect(isReviewHostRelayCollectInput(input)).toBe(true);
    expect(reviewHostRelaySlots([input])).toEqual([
      {
        captureArgumentTokens: [
          "--lineage=review-1",
          "--lens=review-risk",
          "--order=2",
          "--agent=pi",
          "--materialize=true",
        ],
        submission: SUBMISSION,
        lens: "review-risk",
        order: "2",
        subjectHash: "sha256:" + "7".repeat(64),
      },
    ]);
  });

  it("keeps a slot without submission and renders missing tokens without converting _", () => {
    const input = lensInput(
      [
        { name: "agent", value: "pi" },
        { name: "materialize", value: "true" },
        { name: "repository_context", value: "rctx1_x" },
      ],
      { artifactSubject: undefined },
    );
    const slots = reviewHostRelaySlots([input]);
    expect(slots).toHaveLength(1);
    expect(slots[0]).toEqual({
      captureArgumentTokens: [
        "--lineage=review-1",
        "--lens=review-risk",
        "--order=2",
        "--agent=pi",
        "--materialize=true",
        "--repository_context=rctx1_x",
      ],
      lens: "review-risk",
      order: "2",
    });
    expect("submission" in (slots[0] ?? {})).toBe(false);
  });

  it.each([
    ["no materialize", lensInput([PI[0]!])],
    ["agent=codex", lensInput([{ name: "agent", value: "codex" }, PI[1]!])],
    ["duplicate agent", lensInput([...PI, { name: "agent", value: "pi" }])],
    ["materialize=false", lensInput([PI[0]!, { name: "materialize", value: "false" }])],
    ["another operation", lensInput(PI, { captureOperation: "review.capture-evidence" })],
  ])("%s is not a slot", (_label, input) => {
    expect(isReviewHostRelayCollectInput(input)).toBe(false);
    expect(reviewHostRelaySlots([input])).toEqual([]);
  });

  it("keeps input order and drops duplicate-name lens values", () => {
    const a = lensInput(PI);
    const b = lensInput([...PI, { name: "lens", value: "review-risk" }]);
    const slots = reviewHostRelaySlots([a, lensInput([]), b]);
    expect(slots.map((s) => s.lens)).toEqual(["review-risk", undefined]);
  });
});

describe("role vectors (reference §12.2)", () => {
  it("exports the role capture operations", () => {
    expect(REVIEW_PROVIDER_ROLE_CAPTURE_OPERATION).toEqual({
      CAPTURE_REFUTER: "review.capture-refuter",
      CAPTURE_VALIDATION: "review.capture-validation",
    });
    expect(REVIEW_PROVIDER_ROLE_CAPTURE_OPERATIONS).toEqual(["review.capture-refuter", "review.capture-validation"]);
    expect(Object.isFrozen(REVIEW_PROVIDER_ROLE_CAPTURE_OPERATIONS)).toBe(true);
  });

  const role = (op: string, extra: { name: string; value: string; token?: string }[]): ReviewCollectInputV3 => ({
    name: "provider_refuter",
    schema: "https://gentle-ai.dev/schema/review/refuter/v1",
    captureOperation: op,
    arguments: [{ name: "lineage", value: "review-1", token: "--lineage=review-1" }, ...extra],
  });

  it("maps refuter and validation vectors", () => {
    const ok = role("review.capture-refuter", [
      { name: "agent", value: "pi", token: "--agent=pi" },
      { name: "execute", value: "true", token: "--execute=true" },
    ]);
    const ok2 = role("review.capture-validation", [
      { name: "agent", value: "pi" },
      { name: "execute", value: "true" },
    ]);
    expect(reviewProviderRoleVectorSlots([ok, ok2])).toEqual([
      {
        captureOperation: "review.capture-refuter",
        argumentTokens: ["--lineage=review-1", "--agent=pi", "--execute=true"],
        name: "provider_refuter",
      },
      {
        captureOperation: "review.capture-validation",
        argumentTokens: ["--lineage=review-1", "--agent=pi", "--execute=true"],
        name: "provider_refuter",
      },
    ]);
  });

  it.each([
    [
      "capture-result op",
      role("review.capture-result", [
        { name: "agent", value: "pi" },
        { name: "execute", value: "true" },
      ]),
    ],
    ["no execute", role("review.capture-refuter", [{ name: "agent", value: "pi" }])],
    [
      "agent codex",
      role("review.capture-refuter", [
        { name: "agent", value: "codex" },
        { name: "execute", value: "true" },
      ]),
    ],
    [
      "duplicate execute",
      role("review.capture-refuter", [
        { name: "agent", value: "pi" },
        { name: "execute", value: "true" },
        { name: "execute", value: "true" },
      ]),
    ],
  ])("%s is not a role vector", (_label, input) => {
    expect(isReviewProviderRoleVectorInput(input)).toBe(false);
  });
});

describe("decodeReviewCollectInput", () => {
  it("decodes snake_case wire into the camelCase input", () => {
    const decoded = decodeReviewCollectInput({
      name: "reviewer_result",
      schema: "s",
      capture_operation: "review.capture-result",
      arguments: [
        { name: "agent", value: "pi", token: "--agent=pi" },
        { name: "materialize", value: "true", token: "--materialize=true" },
      ],
      submission: {
        operation_token: "capture-result",
        argument_tokens: ["--input={{value}}"],
        value: { slot: "r", domain: "d", substitution_location: 0 },
      },
      artifact_subject: { subject_hash: "sha256:" + "1".repeat(64) },
      base_tree: "a".repeat(40),
    });
    expect(decoded).toEqual({
      name: "reviewer_result",
      schema: "s",
      captureOperation: "review.capture-result",
      arguments: [
        { name: "agent", value: "pi", token: "--agent=pi" },
        { name: "materialize", value: "true", token: "--materialize=true" },
      ],
      submission: {
        operationToken: "capture-result",
        argumentTokens: ["--input={{value}}"],
        values: [{ slot: "r", domain: "d", substitutionLocation: 0 }],
      },
      artifactSubject: { subjectHash: "sha256:" + "1".repeat(64) },
      baseTree: "a".repeat(40),
    });
    expect(reviewHostRelaySlots([decoded])).toHaveLength(1);
  });
  const valid = {
    name: "reviewer_result",
    schema: "s",
    capture_operation: "review.capture-result",
    arguments: [{ name: "agent", value: "pi", token: "--agent=pi" }],
    submission: {
      operation_token: "capture-result",
      argument_tokens: ["--input={{value}}"],
      value: { slot: "r", domain: "d", substitution_location: 0 },
    },
  };

  it("keeps opaque fields as they are and drops unknown ones", () => {
    const decoded = decodeReviewCollectInput({
      ...valid,
      provider_task: { kind: "k", n: [1] },
      validation_request: null,
      unknown_field: 1,
    });
    expect(decoded).toEqual({
      name: "reviewer_result",
      schema: "s",
      captureOperation: "review.capture-result",
      arguments: [{ name: "agent", value: "pi", token: "--agent=pi" }],
      providerTask: { kind: "k", n: [1] },
      submission: {
        operationToken: "capture-result",
        argumentTokens: ["--input={{value}}"],
        values: [{ slot: "r", domain: "d", substitutionLocation: 0 }],
      },
      validationRequest: null,
    });
  });

  it.each<[string, unknown, string]>([
    ["not an object", [valid], "STATUS collect input: expected an object, got array"],
    ["a missing name", { ...valid, name: undefined }, "STATUS collect input.name: expected a string, got undefined"],
    [
      "a numeric argument value",
      { ...valid, arguments: [{ name: "agent", value: 1 }] },
      "STATUS collect input.arguments[0].value: expected a string, got number",
    ],
    [
      "a null token",
      { ...valid, arguments: [{ name: "agent", value: "pi", token: null }] },
      "STATUS collect input.arguments[0].token: expected a string, got null",
    ],
    [
      "a string substitution location",
      { ...valid, submission: { ...valid.submission, value: { slot: "r", domain: "d", substitution_location: "0" } } },
      "STATUS collect input.submission.value.substitution_location: expected a finite number, got string",
    ],
    [
      "a non-string allowed value",
      {
        ...valid,
        submission: {
          operation_token: "o",
          argument_tokens: [],
          values: [{ slot: "r", domain: "d", substitution_location: 0, allowed_values: [1] }],
        },
      },
      "STATUS collect input.submission.values[0].allowed_values[0]: expected a string, got number",
    ],
    [
      "an artifact subject without its hash",
      { ...valid, artifact_subject: {} },
      "STATUS collect input.artifact_subject.subject_hash: expected a string, got undefined",
    ],
  ])("rejects %s, naming the field", (_label, wire, message) => {
    expect(() => decodeReviewCollectInput(wire)).toThrow(new StatusDecodeError(message));
    expect(() => decodeReviewCollectInput(wire)).toThrow(StatusDecodeError);
  });
});
