import type { ReviewCaptureSubmissionV1 } from "../types.ts";
import { CORRECTION_FINALIZE_FAILURE, CorrectionFinalizeError } from "./errors.ts";

/** Placeholders a provider-rendered descriptor may carry; nothing else is ever substituted. */
export const SUBMISSION_PLACEHOLDERS = ["{{value}}", "{{outcome}}", "{{input}}"] as const;

const mismatch = (why: string): CorrectionFinalizeError =>
  new CorrectionFinalizeError(
    CORRECTION_FINALIZE_FAILURE.DESCRIPTOR_MISMATCH,
    "preflight",
    `provider submission descriptor cannot be executed: ${why}`,
  );

/**
 * Executes a provider-rendered submission descriptor verbatim: `["review", operation, ...tokens]` where only the token
 * at each value's `substitution_location` changes, every `{{<slot>}}` (or `{{value}}`) in it replaced by
 * `values[slot]`. Fails closed on a missing value, an out-of-range location or a token without its placeholder.
 */
export function renderSubmissionDescriptorArgv(
  submission: ReviewCaptureSubmissionV1,
  values: Readonly<Record<string, string>>,
): string[] {
  const tokens = [...submission.argumentTokens];
  if (
    submission.operationToken === "" ||
    tokens.length === 0 ||
    tokens.some((t) => typeof t !== "string" || t === "")
  ) {
    throw mismatch("empty operation or argument token");
  }
  if (submission.values.length === 0) throw mismatch("no value slot");
  const seen = new Set<number>();
  for (const value of submission.values) {
    const location = value.substitutionLocation;
    if (!Number.isSafeInteger(location) || location < 0 || location >= tokens.length || seen.has(location)) {
      throw mismatch(`slot ${value.slot} location ${location} is outside its argument tokens`);
    }
    seen.add(location);
    const replacement = values[value.slot];
    if (replacement === undefined) throw mismatch(`no value supplied for slot ${value.slot}`);
    if (
      value.allowedValues !== undefined &&
      value.domain !== "artifact_path_or_stdin" &&
      !value.allowedValues.includes(replacement)
    ) {
      throw mismatch(`value for slot ${value.slot} is not one of its allowed values`);
    }
    const token = tokens[location] as string;
    const named = `{{${value.slot}}}`;
    const placeholder =
      (SUBMISSION_PLACEHOLDERS as readonly string[]).includes(named) && token.includes(named) ? named : "{{value}}";
    if (!token.includes(placeholder))
      throw mismatch(`token at location ${location} carries no placeholder for slot ${value.slot}`);
    // split/join: the replacement lands verbatim even if it holds `$&`.
    tokens[location] = token.split(placeholder).join(replacement);
  }
  return ["review", submission.operationToken, ...tokens];
}
