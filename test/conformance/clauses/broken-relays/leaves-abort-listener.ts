// Broken relay: adds an abort listener to the caller's signal and never removes it (relay/subprocess.ts with its
// removeEventListener emptied), so a host's session-long signal gathers one per slot.
import type { ReviewHostRelayRequest, ReviewHostRelayResult } from "../../../../relay/index.ts";
import { runReviewHostRelaySlot as run } from "../../../../relay/index.ts";
export * from "../../../../relay/index.ts";

/** Our relay, plus a listener left on request.signal. */
export async function runReviewHostRelaySlot(request: ReviewHostRelayRequest): Promise<ReviewHostRelayResult> {
  request.signal?.addEventListener("abort", () => undefined, { once: true });
  return run(request);
}
