/** Environment variable that replaces the derived pi bound (digits only, clamped to the ceiling). */
export const REVIEW_HOST_RELAY_PI_TIMEOUT_ENV = "GENTLE_PI_REVIEW_RELAY_PI_TIMEOUT_MS";
export const REVIEW_HOST_RELAY_PI_TIMEOUT_FLOOR_MS = 900_000;
export const REVIEW_HOST_RELAY_PI_TIMEOUT_PER_MEBIBYTE_MS = 900_000;
export const REVIEW_HOST_RELAY_PI_TIMEOUT_MAX_MS = 7_200_000;

/** Per-leg bound of both gentle-ai legs unless the request overrides it (module-private upstream). */
export const DEFAULT_GENTLE_AI_TIMEOUT_MS = 120_000;
/** Standalone adapter bound; the relay always passes its own. */
export const DEFAULT_OPAQUE_PI_TIMEOUT_MS = 600_000;

const BYTES_PER_MEBIBYTE = 1024 * 1024;
const OVERRIDE_PATTERN = /^[1-9]\d*$/;

/** Pi bound for a prompt: env override if well-formed, else floor + 900 s per MiB, both capped at 2 h. */
export function resolveReviewHostRelayPiTimeoutMs(
  promptByteLength: number,
  environment: NodeJS.ProcessEnv = process.env,
): number {
  const override = environment[REVIEW_HOST_RELAY_PI_TIMEOUT_ENV];
  if (override !== undefined && OVERRIDE_PATTERN.test(override)) {
    const value = Number(override);
    if (Number.isSafeInteger(value)) return Math.min(value, REVIEW_HOST_RELAY_PI_TIMEOUT_MAX_MS);
  }
  const bytes = Number.isSafeInteger(promptByteLength) && promptByteLength > 0 ? promptByteLength : 0;
  // Divide, then multiply, then ceil: the reference pins IEEE-754 results such as 7 340 030 bytes -> 7199999.
  const derived =
    REVIEW_HOST_RELAY_PI_TIMEOUT_FLOOR_MS +
    Math.ceil((bytes / BYTES_PER_MEBIBYTE) * REVIEW_HOST_RELAY_PI_TIMEOUT_PER_MEBIBYTE_MS);
  return Math.min(derived, REVIEW_HOST_RELAY_PI_TIMEOUT_MAX_MS);
}

/** Operator message for a pi leg killed at its bound. */
export function reviewHostRelayPiTimeoutMessage(
  elapsedMs: number,
  timeoutMs: number,
  promptByteLength: number,
): string {
  return (
    `pi reviewer subprocess exceeded the relay bound: killed after ${elapsedMs}ms against a ${timeoutMs}ms limit ` +
    `for a ${promptByteLength}-byte materialized prompt. Relaunching the same slot unchanged reaches the same wall. ` +
    `Raise ${REVIEW_HOST_RELAY_PI_TIMEOUT_ENV} above the reviewer's real wall time (ceiling ${REVIEW_HOST_RELAY_PI_TIMEOUT_MAX_MS}ms) ` +
    `or reduce the candidate scope so the materialized prompt is smaller.`
  );
}
