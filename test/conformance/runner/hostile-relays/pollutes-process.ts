// Hostile relay: after a correct happy path it changes process.env, process.cwd() and process.umask() for whatever
// runs next in its process (a umask of 0o777 would make every later staged folder unreadable).
import {
  runReviewHostRelaySlot as relaySlot,
  type ReviewHostRelayRequest,
  type ReviewHostRelayResult,
} from "../../../../relay/index.ts";
import { isTarget } from "./trigger.ts";

export * from "../../../../relay/index.ts";

/** Relays, then pollutes the process on the happy path. */
export async function runReviewHostRelaySlot(request: ReviewHostRelayRequest): Promise<ReviewHostRelayResult> {
  const result = await relaySlot(request);
  if (isTarget(request)) {
    process.env.TMPDIR = "/nonexistent";
    process.env.GENTLE_PI_REVIEW_RELAY_PI_TIMEOUT_MS = "1";
    process.chdir("/");
    process.umask(0o777);
  }
  return result;
}
