// Broken relay: pi-stage failures report mutationOutcome "unknown" (the contract says "none": only a launched
// submit can have mutated provider state). Issue #14's reproduction relay.
import { ReviewHostRelayError } from "../../../../relay/index.ts";
import { rewriteRelayError } from "./rewrite-error.ts";

export * from "../../../../relay/index.ts";

/** Our relay, with every pi-stage error re-thrown as mutationOutcome "unknown". */
export const runReviewHostRelaySlot = rewriteRelayError((error) => {
  if (error.stage !== "pi") return error;
  const { exitCode, stderr, timedOut, elapsedMs, timeoutMs } = error;
  return new ReviewHostRelayError(error.kind, error.stage, error.message, {
    exitCode,
    stderr,
    timedOut,
    elapsedMs,
    timeoutMs,
    mutationOutcome: "unknown",
  });
});
