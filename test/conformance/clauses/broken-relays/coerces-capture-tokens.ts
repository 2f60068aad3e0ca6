// Broken relay: takes any capture token with a length for a token, stringifying it (relay/run-slot.ts with its
// `typeof token === "string"` check turned true), so a malformed host's array token reaches gentle-ai's argv.
import type { ReviewHostRelayRequest, ReviewHostRelayResult } from "../../../../relay/index.ts";
import { runReviewHostRelaySlot as run } from "../../../../relay/index.ts";
export * from "../../../../relay/index.ts";

/** Our relay, after coercing every capture token of an array to a string. */
export async function runReviewHostRelaySlot(request: ReviewHostRelayRequest): Promise<ReviewHostRelayResult> {
  const tokens: unknown = request.captureArgumentTokens;
  if (!Array.isArray(tokens)) return run(request);
  return run({
    ...request,
    captureArgumentTokens: tokens.map((t: unknown) => (typeof t === "string" ? t : String(t))),
  });
}
