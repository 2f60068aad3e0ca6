import { isReviewHostRelayAdmissionRefusal } from "./classify.ts";
import { REVIEW_HOST_RELAY_FAILURE, ReviewHostRelayError } from "./errors.ts";
import { spawnCollected } from "./subprocess.ts";

/** Everything leg C needs; argv is already `review <operation> <substituted tokens>`. */
export interface SubmitLeg {
  readonly gentleAi: string;
  readonly argv: readonly string[];
  readonly cwd: string;
  readonly environment: NodeJS.ProcessEnv;
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** Leg C: runs the provider-owned submission with stdin closed; returns its stdout decoded as UTF-8, unparsed. */
export async function submitRelayedResult(leg: SubmitLeg): Promise<string> {
  const F = REVIEW_HOST_RELAY_FAILURE;
  let run;
  try {
    run = await spawnCollected({
      file: leg.gentleAi,
      args: leg.argv,
      cwd: leg.cwd,
      env: leg.environment,
      stdin: null,
      timeoutMs: leg.timeoutMs,
      ...(leg.signal !== undefined ? { signal: leg.signal } : {}),
    });
  } catch (error) {
    throw new ReviewHostRelayError(F.SUBMISSION_REFUSED, "submit", `gentle-ai capture submission could not start: ${messageOf(error)}`);
  }
  if (run.cancelled) {
    // The child launched and may have been admitted before the kill: the outcome stays "unknown".
    throw new ReviewHostRelayError(F.SUBMISSION_REFUSED, "submit", "gentle-ai capture submission could not start: The operation was aborted");
  }
  if (run.exitCode === 0 && !run.timedOut && run.stdout.length > 0) return run.stdout.toString("utf8");
  const stderr = run.stderr.toString("utf8");
  const details = {
    exitCode: run.exitCode,
    stderr,
    timedOut: run.timedOut,
    elapsedMs: run.elapsedMs,
    // The bound as given (≤ 0 meant "no timer"): the reference attaches timeoutMs=T to every launched failure.
    timeoutMs: leg.timeoutMs,
  };
  if (isReviewHostRelayAdmissionRefusal(run, stderr)) {
    // The provider states the slot was not consumed (gentle-pi #522/#524).
    throw new ReviewHostRelayError(F.SUBMISSION_REFUSED, "submit", stderr.trim(), { ...details, mutationOutcome: "none" });
  }
  if (run.timedOut) {
    throw new ReviewHostRelayError(
      F.SUBMISSION_REFUSED,
      "submit",
      `gentle-ai capture submission exceeded its ${leg.timeoutMs}ms bound after ${run.elapsedMs}ms`,
      details,
    );
  }
  throw new ReviewHostRelayError(F.SUBMISSION_REFUSED, "submit", "gentle-ai refused the relayed capture submission", details);
}
