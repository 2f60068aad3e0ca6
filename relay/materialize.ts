import { classifyReviewHostRelayRefusal, REVIEW_HOST_RELAY_UNAVAILABLE_MESSAGE } from "./classify.ts";
import { launchedFailureDetails, messageOf, REVIEW_HOST_RELAY_FAILURE, ReviewHostRelayError } from "./errors.ts";
import { spawnGentleAiLeg, type GentleAiLeg } from "./gentle-ai-leg.ts";

/** Everything leg A needs; the environment already carries the handshake. */
export interface MaterializeLeg extends GentleAiLeg {
  readonly captureArgumentTokens: readonly string[];
}

/** The materialized prompt as received from gentle-ai's stdout: chunks in order, never joined. */
export interface MaterializedPrompt {
  readonly chunks: readonly Buffer[];
  readonly length: number;
}

/** Leg A: `gentle-ai review capture-result <tokens>` with stdin closed; returns the prompt bytes verbatim. */
export async function materializeReviewPrompt(leg: MaterializeLeg): Promise<MaterializedPrompt> {
  const F = REVIEW_HOST_RELAY_FAILURE;
  let run;
  try {
    run = await spawnGentleAiLeg(leg, ["review", "capture-result", ...leg.captureArgumentTokens]);
  } catch (error) {
    throw new ReviewHostRelayError(
      F.MATERIALIZE_FAILED,
      "materialize",
      `gentle-ai prompt materialization could not start: ${messageOf(error)}`,
    );
  }
  if (run.cancelled) {
    // Node's spawn({signal}) reports an abort as an `error` event, i.e. the "could not start" path.
    throw new ReviewHostRelayError(
      F.MATERIALIZE_FAILED,
      "materialize",
      "gentle-ai prompt materialization could not start: The operation was aborted",
    );
  }
  const stderr = run.stderr.toString("utf8");
  const details = launchedFailureDetails(run, stderr, leg.timeoutMs);
  if (run.exitCode !== 0 || run.timedOut) {
    switch (classifyReviewHostRelayRefusal(stderr)) {
      case "unknown-flag":
        throw new ReviewHostRelayError(
          F.RELAY_UNAVAILABLE,
          "materialize",
          REVIEW_HOST_RELAY_UNAVAILABLE_MESSAGE,
          details,
        );
      case "handshake":
        throw new ReviewHostRelayError(F.HANDSHAKE_REFUSED, "materialize", stderr, details);
      default:
        throw new ReviewHostRelayError(
          F.MATERIALIZE_FAILED,
          "materialize",
          run.timedOut
            ? `gentle-ai prompt materialization exceeded its ${leg.timeoutMs}ms bound after ${run.elapsedMs}ms`
            : "gentle-ai prompt materialization failed",
          details,
        );
    }
  }
  if (run.stdoutLength === 0) {
    throw new ReviewHostRelayError(
      F.EMPTY_PROMPT,
      "materialize",
      "gentle-ai prompt materialization produced no bytes",
      details,
    );
  }
  return { chunks: run.stdoutChunks, length: run.stdoutLength };
}
