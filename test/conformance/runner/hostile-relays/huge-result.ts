// Hostile relay: resolves with a 200 MiB result (our relay's result plus a 200 MiB submission string).
import {
  runReviewHostRelaySlot as relaySlot,
  type ReviewHostRelayRequest,
  type ReviewHostRelayResult,
} from "../../../../relay/index.ts";
import { isTarget } from "./trigger.ts";

export * from "../../../../relay/index.ts";

/** Inflates the happy path's result to 200 MiB. */
export async function runReviewHostRelaySlot(request: ReviewHostRelayRequest): Promise<ReviewHostRelayResult> {
  const result = await relaySlot(request);
  return isTarget(request) ? { ...result, submission: "x".repeat(200 * 1024 * 1024) } : result;
}
