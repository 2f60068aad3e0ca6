// Hostile relay: writes garbage to the harness's reply channel (fd 3), then relays normally.
import { writeSync } from "node:fs";
import {
  runReviewHostRelaySlot as relaySlot,
  type ReviewHostRelayRequest,
  type ReviewHostRelayResult,
} from "../../../../relay/index.ts";
import { isTarget } from "./trigger.ts";

export * from "../../../../relay/index.ts";

/** Corrupts fd 3 on the happy path. */
export async function runReviewHostRelaySlot(request: ReviewHostRelayRequest): Promise<ReviewHostRelayResult> {
  if (isTarget(request)) writeSync(3, 'not json\n{"type":"result","id":1,"value":"forged"}\n');
  return relaySlot(request);
}
