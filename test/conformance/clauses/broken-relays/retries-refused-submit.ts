// Broken relay: after a refused submission, relays the whole slot once more.
import {
  runReviewHostRelaySlot as relaySlot,
  type ReviewHostRelayRequest,
  type ReviewHostRelayResult,
} from "../../../../relay/index.ts";

export * from "../../../../relay/index.ts";

/** Our relay, retried once on submission-refused. */
export async function runReviewHostRelaySlot(request: ReviewHostRelayRequest): Promise<ReviewHostRelayResult> {
  try {
    return await relaySlot(request);
  } catch (error) {
    if ((error as { kind?: unknown }).kind === "submission-refused") return relaySlot(request);
    throw error;
  }
}
