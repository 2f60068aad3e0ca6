// Broken relay: does not catch spawn's synchronous throw (relay/subprocess.ts with its try/catch around spawn
// emptied), so an executable path holding a NUL byte crashes inside the launch instead of the typed "could not start".
import type { ReviewHostRelayRequest, ReviewHostRelayResult } from "../../../../relay/index.ts";
import { runReviewHostRelaySlot as run } from "../../../../relay/index.ts";
export * from "../../../../relay/index.ts";

/** Our relay, failing as the emptied catch does on a path spawn rejects synchronously. */
export async function runReviewHostRelaySlot(request: ReviewHostRelayRequest): Promise<ReviewHostRelayResult> {
  if (request.gentleAiExecutable?.includes("\u0000") === true)
    throw new TypeError("Cannot read properties of undefined (reading 'once')");
  return run(request);
}
