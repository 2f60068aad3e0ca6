// Broken relay: reports a pi that failed before its bound as pi-timed-out, with the bound it applied.
import { ReviewHostRelayError } from "../../../../relay/index.ts";
import { rewriteRelayError } from "./rewrite-error.ts";

export * from "../../../../relay/index.ts";

/** Our relay, with every pi-failed error re-thrown as pi-timed-out. */
export const runReviewHostRelaySlot = rewriteRelayError((error) => {
  if (error.kind !== "pi-failed") return error;
  const { stderr, elapsedMs, timeoutMs, mutationOutcome } = error;
  return new ReviewHostRelayError("pi-timed-out", error.stage, error.message, {
    exitCode: null,
    stderr,
    timedOut: true,
    elapsedMs,
    timeoutMs,
    mutationOutcome,
  });
});
