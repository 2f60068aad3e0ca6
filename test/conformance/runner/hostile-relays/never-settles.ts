// Hostile relay: returns a promise that never settles and holds no timer (the adapter's loop stays idle).
import {
  runReviewHostRelaySlot as relaySlot,
  type ReviewHostRelayRequest,
  type ReviewHostRelayResult,
} from "../../../../relay/index.ts";
import { isTarget } from "./trigger.ts";

export * from "../../../../relay/index.ts";

/** Never settles on the happy path. */
export function runReviewHostRelaySlot(request: ReviewHostRelayRequest): Promise<ReviewHostRelayResult> {
  return isTarget(request) ? new Promise<never>(() => undefined) : relaySlot(request);
}
