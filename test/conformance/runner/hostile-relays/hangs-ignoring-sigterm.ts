// Hostile relay: hangs for ever with its thread blocked and SIGTERM trapped; only SIGKILL ends it.
import {
  runReviewHostRelaySlot as relaySlot,
  type ReviewHostRelayRequest,
  type ReviewHostRelayResult,
} from "../../../../relay/index.ts";
import { isTarget } from "./trigger.ts";

export * from "../../../../relay/index.ts";

/** Blocks the adapter's thread for ever on the happy path. */
export async function runReviewHostRelaySlot(request: ReviewHostRelayRequest): Promise<ReviewHostRelayResult> {
  if (isTarget(request)) {
    process.on("SIGTERM", () => undefined);
    for (;;) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
  }
  return relaySlot(request);
}
