import { REVIEW_PROVIDER_ROLE_CAPTURE_OPERATIONS, type ReviewProviderRoleCaptureOperation } from "./role-capture.ts";
import type { ReviewCaptureSubmissionV1, ReviewCollectArgumentV3, ReviewCollectInputV3 } from "./types.ts";

/** A provider-issued lens slot the host relays (materialize, pi, submit). */
export interface ReviewHostRelaySlot {
  readonly captureArgumentTokens: readonly string[];
  readonly submission?: ReviewCaptureSubmissionV1;
  readonly lens?: string;
  readonly order?: string;
  readonly subjectHash?: string;
}

/** A self-contained role vector the host runs verbatim as `gentle-ai review <verb> <argumentTokens>`. */
export interface ReviewProviderRoleVectorSlot {
  readonly captureOperation: ReviewProviderRoleCaptureOperation;
  readonly argumentTokens: readonly string[];
  readonly name: string;
}

/** The argument's value only when exactly one argument carries that name. */
export function argumentValue(input: ReviewCollectInputV3, name: string): string | undefined {
  const matches = input.arguments.filter((argument) => argument.name === name);
  // Stryker disable next-line OptionalChaining: `matches.length === 1` guarantees `matches[0]`
  return matches.length === 1 ? matches[0]?.value : undefined;
}

/** Provider token, or `--name=value` (no `_` to `-` conversion) when the provider gave none. */
export function renderArgumentToken(argument: ReviewCollectArgumentV3): string {
  return argument.token ?? `--${argument.name}=${argument.value}`;
}

/** True for `review.capture-result` inputs carrying exactly one `materialize=true` and one `agent=pi`. */
export function isReviewHostRelayCollectInput(input: ReviewCollectInputV3): boolean {
  return (
    input.captureOperation === "review.capture-result" &&
    argumentValue(input, "materialize") === "true" &&
    argumentValue(input, "agent") === "pi"
  );
}

/** Relay slots in input order; a matching input without a submission is still a slot (it fails before launch). */
export function reviewHostRelaySlots(inputs: readonly ReviewCollectInputV3[]): readonly ReviewHostRelaySlot[] {
  return inputs.filter(isReviewHostRelayCollectInput).map((input) => {
    const lens = argumentValue(input, "lens");
    const order = argumentValue(input, "order");
    const subjectHash = input.artifactSubject?.subjectHash;
    return {
      captureArgumentTokens: input.arguments.map(renderArgumentToken),
      ...(input.submission !== undefined ? { submission: input.submission } : {}),
      ...(lens !== undefined ? { lens } : {}),
      ...(order !== undefined ? { order } : {}),
      ...(subjectHash !== undefined ? { subjectHash } : {}),
    };
  });
}

/** True for refuter/validation role inputs carrying exactly one `execute=true` and one `agent=pi`. */
export function isReviewProviderRoleVectorInput(input: ReviewCollectInputV3): boolean {
  return (
    (REVIEW_PROVIDER_ROLE_CAPTURE_OPERATIONS as readonly string[]).includes(input.captureOperation) &&
    argumentValue(input, "execute") === "true" &&
    argumentValue(input, "agent") === "pi"
  );
}

/** Role vectors in input order, tokens rendered verbatim. */
export function reviewProviderRoleVectorSlots(
  inputs: readonly ReviewCollectInputV3[],
): readonly ReviewProviderRoleVectorSlot[] {
  return inputs.filter(isReviewProviderRoleVectorInput).map((input) => ({
    captureOperation: input.captureOperation as ReviewProviderRoleCaptureOperation,
    argumentTokens: input.arguments.map(renderArgumentToken),
    name: input.name,
  }));
}
