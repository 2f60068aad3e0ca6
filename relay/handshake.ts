/** Environment variable through which gentle-ai admits pi as an immutable-review runtime. */
export const GENTLE_PI_REVIEW_RELAY_CONTRACT_ENV = "GENTLE_PI_REVIEW_RELAY_CONTRACT";

/** Exact handshake value; gentle-ai compares it byte for byte (no trimming, case-sensitive). */
export const GENTLE_PI_REVIEW_RELAY_CONTRACT = "gentle-pi.review-relay/v1";

/** Copies the base environment and forces the handshake, overriding any inherited value. */
export function withRelayHandshake(environment: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { ...environment, [GENTLE_PI_REVIEW_RELAY_CONTRACT_ENV]: GENTLE_PI_REVIEW_RELAY_CONTRACT };
}
