/** Relay failure kinds, key order exactly as the reference declares them. */
export const REVIEW_HOST_RELAY_FAILURE = Object.freeze({
  RELAY_UNAVAILABLE: "relay-unavailable",
  HANDSHAKE_REFUSED: "handshake-refused",
  SUBMISSION_CONTRACT_MISMATCH: "submission-contract-mismatch",
  MATERIALIZE_FAILED: "materialize-failed",
  EMPTY_PROMPT: "empty-prompt",
  PI_LAUNCH_FAILED: "pi-launch-failed",
  PI_FAILED: "pi-failed",
  PI_TIMED_OUT: "pi-timed-out",
  PI_EMPTY_OUTPUT: "pi-empty-output",
  SUBMISSION_REFUSED: "submission-refused",
} as const);

export type ReviewHostRelayFailureKind = (typeof REVIEW_HOST_RELAY_FAILURE)[keyof typeof REVIEW_HOST_RELAY_FAILURE];

export type ReviewHostRelayStage = "binding" | "materialize" | "pi" | "submit";

/** Whether a failed relay may have mutated provider state: only a launched submit can. */
export type ReviewHostRelayMutationOutcome = "none" | "unknown";

/** A thrown value's message (its String() when it is not an Error). */
export const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** The evidence a failed gentle-ai launch leaves, as the relay's and the correction client's typed errors carry it. */
export interface LaunchedProcessDetails {
  readonly exitCode?: number | null;
  readonly stderr?: string;
  readonly timedOut?: boolean;
  readonly elapsedMs?: number | null;
  readonly timeoutMs?: number | null;
}

/** Optional evidence attached to a typed relay failure. */
export interface ReviewHostRelayErrorDetails extends LaunchedProcessDetails {
  readonly mutationOutcome?: ReviewHostRelayMutationOutcome;
}

/**
 * The details of a launched leg's failure: exit, stderr and timing, with the bound as given (≤ 0 meant "no timer"):
 * the reference attaches timeoutMs=T to every launched failure.
 */
export function launchedFailureDetails(
  run: { readonly exitCode: number | null; readonly timedOut: boolean; readonly elapsedMs: number },
  stderr: string,
  timeoutMs: number,
): ReviewHostRelayErrorDetails {
  return { exitCode: run.exitCode, stderr, timedOut: run.timedOut, elapsedMs: run.elapsedMs, timeoutMs };
}

/**
 * Typed failure of one relay slot; stage `submit` defaults to mutationOutcome "unknown", every other stage to "none".
 */
export class ReviewHostRelayError extends Error {
  override readonly name = "ReviewHostRelayError";
  readonly kind: ReviewHostRelayFailureKind;
  readonly stage: ReviewHostRelayStage;
  readonly exitCode: number | null;
  readonly stderr: string;
  readonly timedOut: boolean;
  readonly elapsedMs: number | null;
  readonly timeoutMs: number | null;
  readonly mutationOutcome: ReviewHostRelayMutationOutcome;

  constructor(
    kind: ReviewHostRelayFailureKind,
    stage: ReviewHostRelayStage,
    message: string,
    details: ReviewHostRelayErrorDetails = {},
  ) {
    super(message);
    this.kind = kind;
    this.stage = stage;
    this.exitCode = details.exitCode ?? null;
    this.stderr = details.stderr ?? "";
    this.timedOut = details.timedOut ?? false;
    this.elapsedMs = details.elapsedMs ?? null;
    this.timeoutMs = details.timeoutMs ?? null;
    this.mutationOutcome = details.mutationOutcome ?? (stage === "submit" ? "unknown" : "none");
  }
}
