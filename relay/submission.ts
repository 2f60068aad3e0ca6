import { ReviewHostRelayError, REVIEW_HOST_RELAY_FAILURE } from "./errors.ts";
import type { ReviewCaptureSubmissionV1 } from "./types.ts";

/** The placeholder the provider puts where the staged result path goes. */
export const REVIEW_HOST_RELAY_SUBMISSION_VALUE_SLOT = "{{value}}";

export const REVIEW_HOST_RELAY_SUBMISSION_MISSING_MESSAGE =
  "provider contract mismatch: the materialize capture input carries no provider-owned submission form; the host never synthesizes the completing form";

/** The validated submission form: operation, tokens and the one location to substitute. */
export interface ReviewHostRelaySubmissionBinding {
  readonly operationToken: string;
  readonly argumentTokens: readonly string[];
  readonly substitutionLocation: number;
}

const mismatch = (message: string): ReviewHostRelayError =>
  new ReviewHostRelayError(REVIEW_HOST_RELAY_FAILURE.SUBMISSION_CONTRACT_MISMATCH, "binding", message);

const isNonEmptyString = (value: unknown): value is string => typeof value === "string" && value.length > 0;

/** Validates the provider-owned form in the reference's five-step order; throws `submission-contract-mismatch`. */
export function resolveReviewHostRelaySubmission(
  submission: ReviewCaptureSubmissionV1 | undefined,
): ReviewHostRelaySubmissionBinding {
  if (submission === undefined) throw mismatch(REVIEW_HOST_RELAY_SUBMISSION_MISSING_MESSAGE);
  // Stryker disable next-line ArrayDeclaration: under the contract: a non-array still fails before launch, as in gentle-pi
  const tokens: readonly unknown[] = Array.isArray(submission.argumentTokens) ? submission.argumentTokens : [];
  if (!isNonEmptyString(submission.operationToken) || tokens.length === 0 || !tokens.every(isNonEmptyString)) {
    throw mismatch("provider contract mismatch: the submission form carries an empty operation or argument token");
  }
  // Stryker disable next-line ArrayDeclaration: under the contract: a non-array still fails before launch, as in gentle-pi
  const values: readonly unknown[] = Array.isArray(submission.values) ? submission.values : [];
  if (values.length !== 1) {
    throw mismatch(
      `provider contract mismatch: the submission form must bind exactly one artifact value, received ${values.length}`,
    );
  }
  // Stryker disable next-line OptionalChaining: under the contract: a null value throws before launch, as in gentle-pi
  const location = submission.values[0]?.substitutionLocation;
  if (typeof location !== "number" || !Number.isSafeInteger(location) || location < 0 || location >= tokens.length) {
    throw mismatch("provider contract mismatch: the submission substitution location is outside its argument tokens");
  }
  if (!(tokens[location] as string).includes(REVIEW_HOST_RELAY_SUBMISSION_VALUE_SLOT)) {
    throw mismatch(
      `provider contract mismatch: the submission token at location ${location} carries no {{value}} slot`,
    );
  }
  return {
    operationToken: submission.operationToken,
    argumentTokens: [...(tokens as string[])],
    substitutionLocation: location,
  };
}

/**
 * Replaces every `placeholder` in the one token at `location`; other tokens pass verbatim even if they hold
 * placeholders.
 */
export function substituteSubmissionToken(
  tokens: readonly string[],
  location: number,
  placeholder: string,
  replacement: string,
): string[] {
  // split/join, not String.replace: a path holding `$&` or `$1` must land verbatim.
  return tokens.map((token, index) => (index === location ? token.split(placeholder).join(replacement) : token));
}

/** Leg C argv: `review <operation> <tokens with the staged path substituted>`; nothing added or removed. */
export function reviewHostRelaySubmitArgv(binding: ReviewHostRelaySubmissionBinding, stagedPath: string): string[] {
  return [
    "review",
    binding.operationToken,
    ...substituteSubmissionToken(
      binding.argumentTokens,
      binding.substitutionLocation,
      REVIEW_HOST_RELAY_SUBMISSION_VALUE_SLOT,
      stagedPath,
    ),
  ];
}
