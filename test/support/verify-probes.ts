/** The provider probes `verify` runs, in report order (pinned here, not imported from the code under test). */
export const PROBE_IDS = [
  "version-output",
  "unknown-verb",
  "unknown-flag-shape",
  "relay-flags",
  "handshake-gate",
  "status-agent-without-handshake",
  "status-submission-form",
  "identity-formats",
  "materialize-deterministic-read-only",
  "refusal-codes",
  "role-verbs",
  "output-discipline",
];
