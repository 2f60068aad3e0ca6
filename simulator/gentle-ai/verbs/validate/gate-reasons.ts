// The fixed reasons of the gate results no receipt governs (cli/review_facade.go reviewDisabledUnmanagedReason :4867 at
// 301fb2ad, reviewUnmanagedGateResult at fb55ef7b): one home for both gates.

/** The switch is off: delivery follows ordinary repository policy (both gates). */
export const DISABLED_REASON =
  "receipt-driven development is disabled and no receipt governs this candidate, so delivery follows ordinary repository policy";

/** The switch is on but the non-deciding gate (fb55ef7b) reads no authority. */
export const ENABLED_REASON =
  "review enforcement is enabled but no review authority governs this candidate, so delivery follows ordinary repository policy";
