// Broken relay: reports a pi that failed before its bound as pi-timed-out, with the bound it applied.
import { ReviewHostRelayError, runReviewHostRelaySlot as relaySlot, type ReviewHostRelayRequest, type ReviewHostRelayResult } from "../../../../relay/index.ts";

export * from "../../../../relay/index.ts";

/** Our relay, with every pi-failed error re-thrown as pi-timed-out. */
export async function runReviewHostRelaySlot(request: ReviewHostRelayRequest): Promise<ReviewHostRelayResult> {
  try {
    return await relaySlot(request);
  } catch (error) {
    if (!(error instanceof ReviewHostRelayError) || error.kind !== "pi-failed") throw error;
    const { stderr, elapsedMs, timeoutMs, mutationOutcome } = error;
    throw new ReviewHostRelayError("pi-timed-out", error.stage, error.message, { exitCode: null, stderr, timedOut: true, elapsedMs, timeoutMs, mutationOutcome });
  }
}
