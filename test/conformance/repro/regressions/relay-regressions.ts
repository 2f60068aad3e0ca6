// Regression fixtures: our relay with one documented behaviour reverted, selected by the
// REPRO_RELAY_REGRESSION variable the test sets. Each shipped relay reproduction must notice its own.
//   untyped-admission  every submit refusal "unknown" (gentle-pi 2.2.0, before #522/#524)
//   pi-failed          a pi timeout reported as pi-failed (before #367, b3475557)
//   no-unknown-flag    an old binary's refusal reported as materialize-failed
//   trimmed-handshake  the handshake refusal text trimmed instead of verbatim
import {
  ReviewHostRelayError,
  runReviewHostRelaySlot as ours,
  type ReviewHostRelayRequest,
  type ReviewHostRelayResult,
} from "../../../../relay/index.ts";

export * from "../../../../relay/index.ts";

function revert(e: ReviewHostRelayError, which: string | undefined): Error {
  const details = {
    exitCode: e.exitCode,
    stderr: e.stderr,
    timedOut: e.timedOut,
    ...(e.elapsedMs !== null ? { elapsedMs: e.elapsedMs } : {}),
    ...(e.timeoutMs !== null ? { timeoutMs: e.timeoutMs } : {}),
  };
  if (which === "untyped-admission" && e.kind === "submission-refused" && e.mutationOutcome === "none") {
    return new ReviewHostRelayError(
      "submission-refused",
      "submit",
      "gentle-ai refused the relayed capture submission",
      { ...details, mutationOutcome: "unknown" },
    );
  }
  if (which === "pi-failed" && e.kind === "pi-timed-out")
    return new ReviewHostRelayError("pi-failed", "pi", "pi subprocess failed", details);
  if (which === "no-unknown-flag" && e.kind === "relay-unavailable")
    return new ReviewHostRelayError(
      "materialize-failed",
      "materialize",
      "gentle-ai prompt materialization failed",
      details,
    );
  if (which === "trimmed-handshake" && e.kind === "handshake-refused")
    return new ReviewHostRelayError("handshake-refused", "materialize", e.message.trim(), details);
  return e;
}

/** Our runReviewHostRelaySlot with the selected regression applied to its errors. */
export async function runReviewHostRelaySlot(request: ReviewHostRelayRequest): Promise<ReviewHostRelayResult> {
  try {
    return await ours(request);
  } catch (e) {
    throw e instanceof ReviewHostRelayError ? revert(e, process.env["REPRO_RELAY_REGRESSION"]) : e;
  }
}
