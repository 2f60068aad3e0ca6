// Broken relay: leaves a leg's timer armed after it settles (relay/subprocess.ts with its clearTimeout skipped): ten
// minutes later it would SIGKILL a process group the kernel may since have given to another process.
import type { ReviewHostRelayRequest, ReviewHostRelayResult } from "../../../../relay/index.ts";
import { runReviewHostRelaySlot as run } from "../../../../relay/index.ts";
export * from "../../../../relay/index.ts";

/** Our relay, plus a ref'd timer nobody clears. */
export async function runReviewHostRelaySlot(request: ReviewHostRelayRequest): Promise<ReviewHostRelayResult> {
  setTimeout(() => undefined, 600_000);
  return run(request);
}
