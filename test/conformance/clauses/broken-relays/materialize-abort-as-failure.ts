// Broken relay: an abort that lands while materialize runs is reported as a materialize failure, not as the aborted
// launch (relay/materialize.ts with its `run.cancelled` check turned false). An abort before the call stays right, so
// only ABORT-HONOURED's running-leg case can see it.
import type { ReviewHostRelayRequest, ReviewHostRelayResult } from "../../../../relay/index.ts";
import { ReviewHostRelayError, runReviewHostRelaySlot as run } from "../../../../relay/index.ts";
export * from "../../../../relay/index.ts";

const ABORTED = "gentle-ai prompt materialization could not start: The operation was aborted";

/** Our relay, with a mid-materialize abort renamed to the failed-materialize error. */
export async function runReviewHostRelaySlot(request: ReviewHostRelayRequest): Promise<ReviewHostRelayResult> {
  const abortedBefore = request.signal?.aborted === true;
  try {
    return await run(request);
  } catch (error) {
    if (abortedBefore || !(error instanceof ReviewHostRelayError) || error.message !== ABORTED) throw error;
    throw new ReviewHostRelayError("materialize-failed", "materialize", "gentle-ai prompt materialization failed");
  }
}
