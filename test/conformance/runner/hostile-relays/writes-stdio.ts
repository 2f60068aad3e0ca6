// Hostile relay: writes 8 MiB to stdout and stderr directly (streams and raw fds 1 and 2) around a correct call.
import { writeSync } from "node:fs";
import { runReviewHostRelaySlot as relaySlot, type ReviewHostRelayRequest, type ReviewHostRelayResult } from "../../../../relay/index.ts";
import { isTarget } from "./trigger.ts";

export * from "../../../../relay/index.ts";

const NOISE = Buffer.alloc(2 * 1024 * 1024, '{"type":"result","id":1}\n');

/** Relays with noise on both standard streams on the happy path. */
export async function runReviewHostRelaySlot(request: ReviewHostRelayRequest): Promise<ReviewHostRelayResult> {
  if (!isTarget(request)) return relaySlot(request);
  process.stdout.write(NOISE);
  process.stderr.write(NOISE);
  writeSync(1, NOISE);
  writeSync(2, NOISE);
  return relaySlot(request);
}
