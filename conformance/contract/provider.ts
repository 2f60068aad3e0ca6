// The provider-contract constants the harness speaks (one home; `verify` keeps its own copy on purpose, see
// conformance/verify/expected-texts.ts, because it probes the simulator with it).

/** The negotiated review integration contracts gentle-ai accepts on `--contract`. */
export const CONTRACT_V1 = "gentle-ai.review-integration/v1";
export const CONTRACT_V2 = "gentle-ai.review-integration/v2";

/** The Pi host relay handshake: gentle-pi sets it on every gentle-ai leg, never on pi. */
export const HANDSHAKE_ENV = "GENTLE_PI_REVIEW_RELAY_CONTRACT";
export const HANDSHAKE_VALUE = "gentle-pi.review-relay/v1";

/** The negotiated STATUS argv a gentle-pi host sends (relay reference §8.1); `--agent pi` is two tokens. */
export function statusArgv(cwd: string, agent: boolean): string[] {
  return [
    "review",
    "status",
    "--contract",
    CONTRACT_V2,
    "--cwd",
    cwd,
    "--projection",
    "workspace",
    ...(agent ? ["--agent", "pi"] : []),
    "--next-transition",
  ];
}

/**
 * The locked-down pi argv: gentle-pi's relay starts pi with exactly these flags (leg B), and gentle-ai's own pi
 * reviewer transport behind the role vectors uses the same ones. relay/ and simulator/ keep their own copies, as
 * gentle-pi and gentle-ai each do: the judge checks both against this one, so it cannot import either.
 */
export const PI_ARGV = [
  "--print",
  "--mode",
  "text",
  "--no-session",
  "--no-tools",
  "--no-extensions",
  "--no-skills",
  "--no-prompt-templates",
  "--no-themes",
  "--no-context-files",
  "--no-approve",
] as const;

/** The capture operations of the self-contained provider role vectors (gentle-ai spawns its own pi for them). */
export const ROLE_VECTOR_CAPTURE_OPERATIONS = ["review.capture-refuter", "review.capture-validation"] as const;
export type RoleVectorCaptureOperation = (typeof ROLE_VECTOR_CAPTURE_OPERATIONS)[number];
