import { withRelayHandshake } from "../handshake.ts";
import { messageOf } from "../errors.ts";
import { spawnGentleAiLeg, type GentleAiLeg } from "../gentle-ai-leg.ts";
import type { CollectedSpawnResult } from "../subprocess.ts";
import { CorrectionFinalizeError, type CorrectionFinalizeFailureCode, type CorrectionFinalizeStage } from "./errors.ts";

/** One gentle-ai invocation of the correction client. */
export interface GentleAiCall extends GentleAiLeg {
  readonly argv: readonly string[];
  /** Base environment; the handshake is injected here, overriding any inherited value. */
  readonly environment: NodeJS.ProcessEnv;
  /** Negotiated calls fail closed on any stderr from a successful exit. */
  readonly requireQuietStderr: boolean;
}

/** The provider's failure envelope fields the client reports, when stdout holds one. */
function envelopeOf(stdout: Buffer): { mutationOutcome?: string; cause?: string } {
  try {
    const parsed: unknown = JSON.parse(stdout.toString("utf8"));
    if (typeof parsed !== "object" || parsed === null) return {};
    const o = parsed as Record<string, unknown>;
    return {
      ...(typeof o["mutation_outcome"] === "string" ? { mutationOutcome: o["mutation_outcome"] } : {}),
      ...(typeof o["cause"] === "string" ? { cause: o["cause"] } : {}),
    };
  } catch {
    return {};
  }
}

/**
 * Runs one gentle-ai call with stdin closed and returns its stdout; every failure (could not start, abort, timeout,
 * non-zero exit, empty stdout, stderr on success) becomes a CorrectionFinalizeError with `code`/`stage`. The mutation
 * outcome is "none" only when nothing mutating ran or the provider's envelope says `not_started`.
 */
export async function runGentleAiCall(
  call: GentleAiCall,
  code: CorrectionFinalizeFailureCode,
  stage: CorrectionFinalizeStage,
  label: string,
): Promise<Buffer> {
  const mutating = stage === "evidence" || stage === "finalize";
  let run: CollectedSpawnResult;
  try {
    run = await spawnGentleAiLeg({ ...call, environment: withRelayHandshake(call.environment) }, call.argv);
  } catch (error) {
    throw new CorrectionFinalizeError(code, stage, `gentle-ai ${label} could not start: ${messageOf(error)}`, {
      mutationOutcome: "none",
    });
  }
  const ok =
    run.exitCode === 0 &&
    !run.timedOut &&
    !run.cancelled &&
    run.stdout.length > 0 &&
    (!call.requireQuietStderr || run.stderr.length === 0);
  if (ok) return run.stdout;
  const envelope = envelopeOf(run.stdout);
  const timeoutMs = call.timeoutMs;
  const message = run.cancelled
    ? `gentle-ai ${label} was aborted`
    : run.timedOut
      ? `gentle-ai ${label} exceeded its ${call.timeoutMs}ms bound after ${run.elapsedMs}ms`
      : run.exitCode === 0
        ? `gentle-ai ${label} succeeded without a clean result`
        : `gentle-ai ${label} failed: ${run.stderr.toString("utf8").trim()}`;
  throw new CorrectionFinalizeError(code, stage, message, {
    exitCode: run.exitCode,
    stdout: run.stdout.toString("utf8"),
    stderr: run.stderr.toString("utf8"),
    timedOut: run.timedOut,
    elapsedMs: run.elapsedMs,
    timeoutMs,
    mutationOutcome: !mutating || envelope.mutationOutcome === "not_started" ? "none" : "unknown",
    ...(envelope.cause !== undefined ? { providerCause: envelope.cause } : {}),
  });
}
