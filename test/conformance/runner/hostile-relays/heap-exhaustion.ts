// Hostile relay: allocates until the adapter child's V8 heap limit kills it.
import {
  runReviewHostRelaySlot as relaySlot,
  type ReviewHostRelayRequest,
  type ReviewHostRelayResult,
} from "../../../../relay/index.ts";
import { isTarget } from "./trigger.ts";

export * from "../../../../relay/index.ts";

/** Runs the heap out on the happy path. */
export async function runReviewHostRelaySlot(request: ReviewHostRelayRequest): Promise<ReviewHostRelayResult> {
  if (isTarget(request)) {
    const hog: number[][] = [];
    for (;;) hog.push(new Array<number>(1 << 20).fill(1.5));
  }
  return relaySlot(request);
}
