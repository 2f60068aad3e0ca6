// Broken relay: with no piExecutable it runs "" instead of "pi" (relay/pi-adapter.ts with its default emptied).
import type { ReviewHostRelayRequest, ReviewHostRelayResult } from "../../../../relay/index.ts";
import { runReviewHostRelaySlot as run } from "../../../../relay/index.ts";
export * from "../../../../relay/index.ts";

/** Our relay, defaulting pi to the empty path. */
export async function runReviewHostRelaySlot(request: ReviewHostRelayRequest): Promise<ReviewHostRelayResult> {
  return run({ ...request, piExecutable: request.piExecutable ?? "" });
}
