// Broken relay: a submit leg that cannot start escapes as an untyped Error (relay/submit.ts with its spawn catch
// emptied), so the host cannot see that the slot may need reconciling.
import type { ReviewHostRelayRequest, ReviewHostRelayResult } from "../../../../relay/index.ts";
import { ReviewHostRelayError, runReviewHostRelaySlot as run } from "../../../../relay/index.ts";
export * from "../../../../relay/index.ts";

/** Our relay, with the submit leg's spawn error rethrown as a plain Error. */
export async function runReviewHostRelaySlot(request: ReviewHostRelayRequest): Promise<ReviewHostRelayResult> {
  try {
    return await run(request);
  } catch (error) {
    if (
      error instanceof ReviewHostRelayError &&
      error.message.startsWith("gentle-ai capture submission could not start: spawn ")
    )
      throw new Error(error.message, { cause: error });
    throw error;
  }
}
