// Broken relay: returns only the first 64 bytes of the submit leg's stdout, as relay/subprocess.ts's joinChunks does
// with `chunks.length === 1` turned `!==` when the submit writes slowly (its first 64-byte chunk of many).
import type { ReviewHostRelayRequest, ReviewHostRelayResult } from "../../../../relay/index.ts";
import { runReviewHostRelaySlot as run } from "../../../../relay/index.ts";
export * from "../../../../relay/index.ts";

/** Our relay, its submission cut to 64 bytes. */
export async function runReviewHostRelaySlot(request: ReviewHostRelayRequest): Promise<ReviewHostRelayResult> {
  const result = await run(request);
  return { ...result, submission: Buffer.from(result.submission, "utf8").subarray(0, 64).toString("utf8") };
}
