// Byte-exact provider texts the probes compare against (provider reference §4–§7, §9, §12).
// verify keeps its own copy of the contract constants on purpose: it probes the simulator (and any binary) with
// them, so they must not come from the code that builds the simulator's or the harness's side of the contract.

export const CONTRACT_V2 = "gentle-ai.review-integration/v2";
export const HANDSHAKE_ENV = "GENTLE_PI_REVIEW_RELAY_CONTRACT";
export const HANDSHAKE = "gentle-pi.review-relay/v1";

/** The negotiated STATUS argv gentle-pi sends, as verify's probes send it. */
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

/** v2.4.0 handshake refusal (§6); the backticks and `<repo>` are literal. */
export const NOT_ELIGIBLE_V240 =
  "the active runtime is not eligible for immutable receipt review; exit receipt-driven review with `gentle-ai review mode disable --scope clone --cwd <repo>`; supported immutable review runtimes: claude-code, opencode, codex";

/** PR #3444 handshake refusal (main-0822, v2.5.0 inferred). */
export const NOT_ELIGIBLE_PR3444 =
  "the active runtime is not eligible for immutable receipt review; pi is eligible only while GENTLE_PI_REVIEW_RELAY_CONTRACT declares the exact relay contract this binary admits, which the gentle-pi host exports on every invocation it relays; export it in this shell and re-run";

export const TRANSPORT_UNSUPPORTED_STDERR =
  "Error: The active runtime cannot provide immutable receipt-review transport. [immutable_review_transport_unsupported]\n";

export const WHITESPACE_REFUSAL =
  "reviewer result payload is empty or whitespace-only: the task may have completed without producing output";

export const BINDING_MISMATCH_PREFIX = "capture binding does not match the current reviewing authority";

/**
 * §4's example: capture-result with an undefined flag on a collect-capture build (2-space indent, trailing newline).
 */
export function undefinedFlagEnvelope(name: string): string {
  return `${JSON.stringify(
    {
      schema: "gentle-ai.review-integration.failure/v2",
      contract: CONTRACT_V2,
      operation: "review.capture-result",
      phase: "preflight",
      code: "invalid_request",
      message: "The negotiated review request is invalid.",
      mutation_outcome: "not_started",
      authority_applicability: "not_evaluated",
      retry_safe: true,
      replayability: "not_replayable",
      required_inputs: [],
      next_action: "correct_request",
      cause: `flag provided but not defined: -${name}`,
    },
    null,
    2,
  )}\n`;
}

/** The pre-relay parse-error stdout starts with the flag line and the FlagSet usage header (§5). */
export function preRelayFlagStdoutPrefix(name: string, verb = "capture-result"): string {
  return `flag provided but not defined: -${name}\nUsage: gentle-ai review ${verb} [flags]\n\n`;
}
