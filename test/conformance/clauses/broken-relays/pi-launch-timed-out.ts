// Broken relay: a pi that could not start is reported as timed out (relay/pi-adapter.ts with its `timedOut ?? false`
// default turned true), which tells the host to raise a bound that never applied.
import type { ReviewHostRelayRequest, ReviewHostRelayResult } from "../../../../relay/index.ts";
import { ReviewHostRelayError, runReviewHostRelaySlot as run } from "../../../../relay/index.ts";
export * from "../../../../relay/index.ts";

/** Our relay, with timedOut set on a pi launch failure. */
export async function runReviewHostRelaySlot(request: ReviewHostRelayRequest): Promise<ReviewHostRelayResult> {
  try {
    return await run(request);
  } catch (error) {
    if (!(error instanceof ReviewHostRelayError) || error.kind !== "pi-launch-failed") throw error;
    throw new ReviewHostRelayError(error.kind, error.stage, error.message, {
      exitCode: error.exitCode,
      stderr: error.stderr,
      timedOut: true,
    });
  }
}
