// Hostile relay: rejects with undefined on the happy path, and throws a value whose getters throw on the
// default-target-cwd case; neither may crash the adapter child.
import {
  runReviewHostRelaySlot as relaySlot,
  type ReviewHostRelayRequest,
  type ReviewHostRelayResult,
} from "../../../../relay/index.ts";
import { isTarget } from "./trigger.ts";

export * from "../../../../relay/index.ts";

/** Rejects with non-Error values on two cases. */
export async function runReviewHostRelaySlot(request: ReviewHostRelayRequest): Promise<ReviewHostRelayResult> {
  if (isTarget(request)) return Promise.reject(undefined);
  if (request.targetCwd === undefined) {
    throw new Proxy(
      {},
      {
        get: () => {
          throw new Error("trap");
        },
        has: () => true,
        getPrototypeOf: () => {
          throw new Error("trap");
        },
      },
    );
  }
  return relaySlot(request);
}
