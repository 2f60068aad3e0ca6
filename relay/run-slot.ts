import { isAbsolute } from "node:path";
import { messageOf, REVIEW_HOST_RELAY_FAILURE, ReviewHostRelayError } from "./errors.ts";
import { resolveGentleAiBinary } from "./gentle-ai-binary.ts";
import { withRelayHandshake } from "./handshake.ts";
import { materializeReviewPrompt } from "./materialize.ts";
import {
  OpaquePiReviewerTransportError,
  OPAQUE_PI_REVIEWER_TRANSPORT_FAILURE,
  runOpaquePiReviewerChunks,
} from "./pi-adapter.ts";
import { withStagedResult } from "./staging.ts";
import { resolveReviewHostRelaySubmission, reviewHostRelaySubmitArgv } from "./submission.ts";
import { submitRelayedResult } from "./submit.ts";
import {
  DEFAULT_GENTLE_AI_TIMEOUT_MS,
  resolveReviewHostRelayPiTimeoutMs,
  reviewHostRelayPiTimeoutMessage,
} from "./timeouts.ts";
import type { ReviewHostRelayRequest, ReviewHostRelayResult } from "./types.ts";

/** Maps any pi-leg failure onto the relay's typed kinds (reference §9 table). */
function piLegError(error: unknown, promptByteLength: number): ReviewHostRelayError {
  const F = REVIEW_HOST_RELAY_FAILURE;
  // Stryker disable next-line BlockStatement: unreachable: the adapter wraps every pi-leg failure
  if (!(error instanceof OpaquePiReviewerTransportError)) {
    // Stryker disable next-line StringLiteral: unreachable: the adapter wraps every pi-leg failure
    return new ReviewHostRelayError(F.PI_LAUNCH_FAILED, "pi", `pi subprocess could not start: ${messageOf(error)}`);
  }
  const details = {
    exitCode: error.exitCode,
    stderr: error.stderr.toString("utf8"),
    timedOut: error.timedOut,
    ...(error.elapsedMs !== null ? { elapsedMs: error.elapsedMs } : {}),
    ...(error.timeoutMs !== null ? { timeoutMs: error.timeoutMs } : {}),
  };
  const A = OPAQUE_PI_REVIEWER_TRANSPORT_FAILURE;
  switch (error.kind) {
    case A.LAUNCH_FAILED:
    case A.SCRATCH_FAILED:
      return new ReviewHostRelayError(
        F.PI_LAUNCH_FAILED,
        "pi",
        `pi subprocess could not start: ${error.message}`,
        details,
      );
    case A.TIMED_OUT:
      // Stryker disable next-line LogicalOperator: a timed-out error always carries both timings (pi-adapter.ts)
      if (error.elapsedMs !== null && error.timeoutMs !== null) {
        return new ReviewHostRelayError(
          F.PI_TIMED_OUT,
          "pi",
          reviewHostRelayPiTimeoutMessage(error.elapsedMs, error.timeoutMs, promptByteLength),
          details,
        );
      }
      // Stryker disable next-line StringLiteral: unreachable: a timed-out error always carries both timings
      return new ReviewHostRelayError(F.PI_FAILED, "pi", "pi subprocess failed", details);
    case A.EMPTY_OUTPUT:
      return new ReviewHostRelayError(F.PI_EMPTY_OUTPUT, "pi", "pi subprocess produced no output bytes", details);
    default:
      return new ReviewHostRelayError(F.PI_FAILED, "pi", "pi subprocess failed", details);
  }
}

/** Relays one provider-issued slot: materialize (leg A), pi (leg B), stage and submit (leg C); never retries. */
export async function runReviewHostRelaySlot(request: ReviewHostRelayRequest): Promise<ReviewHostRelayResult> {
  const tokens: readonly unknown[] = Array.isArray(request.captureArgumentTokens) ? request.captureArgumentTokens : [];
  if (tokens.length === 0) throw new TypeError("Pi host relay requires the provider-issued capture tokens");
  if (!tokens.every((token) => typeof token === "string" && token.length > 0)) {
    throw new TypeError("Pi host relay capture tokens must all be non-empty strings");
  }
  // The form is validated before any process launches.
  const binding = resolveReviewHostRelaySubmission(request.submission);
  const baseEnvironment = request.environment ?? process.env;
  const gentleAi = request.gentleAiExecutable ?? resolveGentleAiBinary(baseEnvironment);
  if (typeof gentleAi !== "string" || !isAbsolute(gentleAi)) {
    throw new TypeError("Pi host relay requires an absolute gentle-ai executable path");
  }
  const gentleAiEnvironment = withRelayHandshake(baseEnvironment);
  const cwd = request.targetCwd ?? process.cwd();
  const gentleAiTimeoutMs = request.gentleAiTimeoutMs ?? DEFAULT_GENTLE_AI_TIMEOUT_MS;
  const signal = request.signal !== undefined ? { signal: request.signal } : {};

  const prompt = await materializeReviewPrompt({
    gentleAi,
    captureArgumentTokens: tokens as readonly string[],
    cwd,
    environment: gentleAiEnvironment,
    timeoutMs: gentleAiTimeoutMs,
    ...signal,
  });
  const promptByteLength = prompt.length;

  let reviewed;
  try {
    // pi gets the caller's environment untouched: no handshake added, none removed.
    reviewed = await runOpaquePiReviewerChunks(prompt, {
      ...(request.piExecutable !== undefined ? { piExecutable: request.piExecutable } : {}),
      environment: baseEnvironment,
      timeoutMs: request.piTimeoutMs ?? resolveReviewHostRelayPiTimeoutMs(promptByteLength, baseEnvironment),
      ...signal,
    });
  } catch (error) {
    throw piLegError(error, promptByteLength);
  }

  const submission = await withStagedResult(
    reviewed.stdoutChunks,
    (stagedPath) =>
      submitRelayedResult({
        gentleAi,
        argv: reviewHostRelaySubmitArgv(binding, stagedPath),
        cwd,
        environment: gentleAiEnvironment,
        timeoutMs: gentleAiTimeoutMs,
        ...signal,
      }),
    (error) =>
      new ReviewHostRelayError(
        REVIEW_HOST_RELAY_FAILURE.SUBMISSION_REFUSED,
        "submit",
        `Pi host relay result staging cleanup failed: ${messageOf(error)}`,
      ),
  );
  return { promptByteLength, resultByteLength: reviewed.stdoutByteLength, submission };
}
