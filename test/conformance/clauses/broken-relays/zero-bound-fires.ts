// Broken relay: arms a timer for a bound of 0 instead of none (relay/subprocess.ts with `timeoutMs > 0` turned
// `>= 0`): modelled as a 1 ms bound, so every leg is killed as soon as it starts.
import type { ReviewHostRelayRequest, ReviewHostRelayResult } from "../../../../relay/index.ts";
import { runReviewHostRelaySlot as run } from "../../../../relay/index.ts";
export * from "../../../../relay/index.ts";

const armed = (bound: number | undefined): number | undefined => (bound === 0 ? 1 : bound);

/** Our relay, with a 0 bound taken as a 1 ms one. */
export async function runReviewHostRelaySlot(request: ReviewHostRelayRequest): Promise<ReviewHostRelayResult> {
  const gentleAiTimeoutMs = armed(request.gentleAiTimeoutMs);
  const piTimeoutMs = armed(request.piTimeoutMs);
  return run({
    ...request,
    ...(gentleAiTimeoutMs === undefined ? {} : { gentleAiTimeoutMs }),
    ...(piTimeoutMs === undefined ? {} : { piTimeoutMs }),
  });
}
