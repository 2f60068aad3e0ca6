// Defect injection on the relay's answer: our relay, with each typed error it throws rewritten before it leaves.
import {
  ReviewHostRelayError,
  runReviewHostRelaySlot as relaySlot,
  type ReviewHostRelayRequest,
  type ReviewHostRelayResult,
} from "../../../../relay/index.ts";

/** Our runReviewHostRelaySlot, throwing `rewrite(error)` for every ReviewHostRelayError. */
export function rewriteRelayError(
  rewrite: (error: ReviewHostRelayError) => ReviewHostRelayError,
): (request: ReviewHostRelayRequest) => Promise<ReviewHostRelayResult> {
  return async (request) => {
    try {
      return await relaySlot(request);
    } catch (error) {
      throw error instanceof ReviewHostRelayError ? rewrite(error) : error;
    }
  };
}
