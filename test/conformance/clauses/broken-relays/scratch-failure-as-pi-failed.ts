// Broken relay: a pi scratch folder that cannot be made is reported as a pi failure, as if pi had run and failed
// (relay/pi-adapter.ts without its scratch-failed mapping), not as the launch failure it is.
import type { ReviewHostRelayRequest, ReviewHostRelayResult } from "../../../../relay/index.ts";
import { ReviewHostRelayError, runReviewHostRelaySlot as run } from "../../../../relay/index.ts";
export * from "../../../../relay/index.ts";

/** Our relay, with the scratch failure renamed to pi-failed. */
export async function runReviewHostRelaySlot(request: ReviewHostRelayRequest): Promise<ReviewHostRelayResult> {
  try {
    return await run(request);
  } catch (error) {
    if (
      !(error instanceof ReviewHostRelayError) ||
      !error.message.includes("Pi scratch directory could not be prepared")
    )
      throw error;
    throw new ReviewHostRelayError("pi-failed", "pi", "pi subprocess failed", {
      exitCode: null,
      stderr: "",
      timedOut: false,
    });
  }
}
