import { GENTLE_PI_REVIEW_RELAY_CONTRACT, GENTLE_PI_REVIEW_RELAY_CONTRACT_ENV } from "./handshake.ts";

/** Message of `relay-unavailable`: the binary predates the host relay surface. */
export const REVIEW_HOST_RELAY_UNAVAILABLE_MESSAGE =
  "provider relay requires a gentle-ai build with the pi host relay surface";

const UNKNOWN_FLAG_REFUSAL = /flag provided but not defined: -{1,2}(?:materialize|agent)\b/;
const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
const HANDSHAKE_REFUSAL = new RegExp(
  [
    GENTLE_PI_REVIEW_RELAY_CONTRACT_ENV,
    escapeRegExp(GENTLE_PI_REVIEW_RELAY_CONTRACT),
    "not eligible for immutable receipt review",
  ].join("|"),
);
const ADMISSION_REFUSAL = /\[invalid_request\]/;

/** Classifies a failed materialize's stderr: unknown-flag first, then handshake, else other. */
export function classifyReviewHostRelayRefusal(stderr: string): "unknown-flag" | "handshake" | "other" {
  if (UNKNOWN_FLAG_REFUSAL.test(stderr)) return "unknown-flag";
  if (HANDSHAKE_REFUSAL.test(stderr)) return "handshake";
  return "other";
}

/**
 * True for a typed submit admission refusal (exit 1, not timed out, `[invalid_request]` anywhere in stderr): the slot
 * was not consumed.
 */
export function isReviewHostRelayAdmissionRefusal(
  capture: { exitCode: number | null; timedOut: boolean },
  stderr: string,
): boolean {
  return capture.exitCode === 1 && !capture.timedOut && ADMISSION_REFUSAL.test(stderr);
}
