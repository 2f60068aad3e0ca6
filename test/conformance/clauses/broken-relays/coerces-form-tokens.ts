// Broken relay: takes any form token with a length for a token, stringifying it (relay/submission.ts with its
// `typeof value === "string"` check turned true), so a malformed provider form is submitted instead of refused.
import type {
  ReviewCaptureSubmissionV1,
  ReviewHostRelayRequest,
  ReviewHostRelayResult,
} from "../../../../relay/index.ts";
import { runReviewHostRelaySlot as run } from "../../../../relay/index.ts";
export * from "../../../../relay/index.ts";

/** Our relay, after coercing every argument token of the form to a string. */
export async function runReviewHostRelaySlot(request: ReviewHostRelayRequest): Promise<ReviewHostRelayResult> {
  const form = request.submission;
  if (form === undefined || !Array.isArray(form.argumentTokens)) return run(request);
  const argumentTokens = (form.argumentTokens as readonly unknown[]).map((t) =>
    typeof t === "string" ? t : String(t),
  );
  const submission: ReviewCaptureSubmissionV1 = { ...form, argumentTokens };
  return run({ ...request, submission });
}
