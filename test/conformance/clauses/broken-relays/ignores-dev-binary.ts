// Broken relay: never reads the dev-binary override (gentle-pi's devbinary lane): with no gentleAiExecutable it always
// reports the package-local binary missing, as relay/gentle-ai-binary.ts does with its override check turned false.
import type { ReviewHostRelayRequest, ReviewHostRelayResult } from "../../../../relay/index.ts";
import { runReviewHostRelaySlot as run } from "../../../../relay/index.ts";
export * from "../../../../relay/index.ts";

/** Our relay, but without an explicit executable it never looks at GENTLE_PI_GENTLE_AI_DEV_BINARY. */
export async function runReviewHostRelaySlot(request: ReviewHostRelayRequest): Promise<ReviewHostRelayResult> {
  if (request.gentleAiExecutable === undefined)
    throw new Error(
      "package-local-binary-missing: no package-local pinned gentle-ai binary is bundled with this relay",
    );
  return run(request);
}
