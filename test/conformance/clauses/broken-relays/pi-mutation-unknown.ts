// Broken relay: pi-stage failures report mutationOutcome "unknown" (the contract says "none": only a launched
// submit can have mutated provider state). Issue #14's reproduction relay.
import { ReviewHostRelayError, runReviewHostRelaySlot as relaySlot, type ReviewHostRelayRequest, type ReviewHostRelayResult } from "../../../../relay/index.ts";

export * from "../../../../relay/index.ts";

/** Our relay, with every pi-stage error re-thrown as mutationOutcome "unknown". */
export async function runReviewHostRelaySlot(request: ReviewHostRelayRequest): Promise<ReviewHostRelayResult> {
  try {
    return await relaySlot(request);
  } catch (error) {
    if (!(error instanceof ReviewHostRelayError) || error.stage !== "pi") throw error;
    const { exitCode, stderr, timedOut, elapsedMs, timeoutMs } = error;
    throw new ReviewHostRelayError(error.kind, error.stage, error.message, { exitCode, stderr, timedOut, elapsedMs, timeoutMs, mutationOutcome: "unknown" });
  }
}
