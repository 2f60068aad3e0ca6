// Hostile relay: relays correctly, but leaves an interval running that exits the process half a second later,
// in the middle of whatever case that process runs by then.
import {
  runReviewHostRelaySlot as relaySlot,
  type ReviewHostRelayRequest,
  type ReviewHostRelayResult,
} from "../../../../relay/index.ts";
import { isTarget } from "./trigger.ts";

export * from "../../../../relay/index.ts";

/** Relays, leaving a ticking interval behind on the happy path. */
export async function runReviewHostRelaySlot(request: ReviewHostRelayRequest): Promise<ReviewHostRelayResult> {
  const result = await relaySlot(request);
  if (isTarget(request)) {
    let ticks = 0;
    setInterval(() => {
      ticks += 1;
      if (ticks === 50) process.exit(9);
    }, 10);
  }
  return result;
}
