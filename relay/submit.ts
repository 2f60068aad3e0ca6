import { isReviewHostRelayAdmissionRefusal } from "./classify.ts";
import { launchedFailureDetails, messageOf, REVIEW_HOST_RELAY_FAILURE, ReviewHostRelayError } from "./errors.ts";
import { spawnGentleAiLeg, type GentleAiLeg } from "./gentle-ai-leg.ts";

/** Everything leg C needs; argv is already `review <operation> <substituted tokens>`. */
export interface SubmitLeg extends GentleAiLeg {
  readonly argv: readonly string[];
}

/** Leg C: runs the provider-owned submission with stdin closed; returns its stdout decoded as UTF-8, unparsed. */
export async function submitRelayedResult(leg: SubmitLeg): Promise<string> {
  const F = REVIEW_HOST_RELAY_FAILURE;
  let run;
  try {
    run = await spawnGentleAiLeg(leg, leg.argv);
  } catch (error) {
    throw new ReviewHostRelayError(
      F.SUBMISSION_REFUSED,
      "submit",
      `gentle-ai capture submission could not start: ${messageOf(error)}`,
    );
  }
  if (run.cancelled) {
    // The child launched and may have been admitted before the kill: the outcome stays "unknown".
    throw new ReviewHostRelayError(
      F.SUBMISSION_REFUSED,
      "submit",
      "gentle-ai capture submission could not start: The operation was aborted",
    );
  }
  if (run.exitCode === 0 && !run.timedOut && run.stdout.length > 0) return run.stdout.toString("utf8");
  const stderr = run.stderr.toString("utf8");
  const details = launchedFailureDetails(run, stderr, leg.timeoutMs);
  if (isReviewHostRelayAdmissionRefusal(run, stderr)) {
    // The provider states the slot was not consumed (gentle-pi #522/#524).
    throw new ReviewHostRelayError(F.SUBMISSION_REFUSED, "submit", stderr.trim(), {
      ...details,
      mutationOutcome: "none",
    });
  }
  if (run.timedOut) {
    throw new ReviewHostRelayError(
      F.SUBMISSION_REFUSED,
      "submit",
      `gentle-ai capture submission exceeded its ${leg.timeoutMs}ms bound after ${run.elapsedMs}ms`,
      details,
    );
  }
  throw new ReviewHostRelayError(
    F.SUBMISSION_REFUSED,
    "submit",
    "gentle-ai refused the relayed capture submission",
    details,
  );
}
