// What `gentle-ai review` knows per profile: its usage (no verb, help, -h, --help) and the verbs its facade dispatches
// (review_facade.go `RunReview` / `runReviewCommandContext`); any other verb is `unknown review command %q`.
import type { Profile } from "../scenario/schema.ts";

/** The review facade of one release. */
export interface ReviewFacade {
  readonly usage: string;
  readonly verbs: readonly string[];
}

const V240_VERBS = [
  "capture-result",
  "capture-refuter",
  "capture-validation",
  "lens-context",
  "capture-evidence",
  "preserve-result",
  "capabilities",
  "start",
  "finalize",
  "validate",
  "status",
  "repair",
  "invalidate",
  "abandon",
  "recover",
  "retry-final-verification",
  "reclaim",
  "store-reset",
  "inspect-authority",
  "inspect-candidate",
  "dispose-result",
  "reopen-results",
  "schema",
  "opencode-transport",
  "bind-sdd",
] as const;

const DETAILS_V240 =
  "Ordinary review facade; repository scope, authority, canonical artifacts, and lifecycle transitions are derived by Go. Provider transports relay opaque bytes only; Go materializes, admits, captures, and decides delivery. Use review retry-final-verification only for a provider-proven completed failed final-verification tooling incident. Generic review recover remains unchanged. Use review repair --preflight for provider-owned classified authority repair.";
const DETAILS_V230 =
  "Ordinary review facade; repository scope, authority, canonical artifacts, and lifecycle transitions are derived by Go. `review advisory` validates model transport output for later native admission; it never directly creates a receipt or delivery decision. Use review retry-final-verification only for a provider-proven completed failed final-verification tooling incident. Generic review recover remains unchanged. Use review repair --preflight for provider-owned classified authority repair.";
const EXTRA_V230 =
  "Additive headless capabilities: gentle-ai review capture-result (with --preflight), gentle-ai review inspect-candidate, and gentle-ai review preserve-result.";

// Recorded from gentle-ai 2.4.0 built from 301fb2ad (review_facade.go:691); 2.5.0 built from fb55ef7b prints the same.
const V240: ReviewFacade = {
  usage: `Usage: gentle-ai review <${V240_VERBS.join("|")}> [flags]\n\n${DETAILS_V240}\n`,
  verbs: V240_VERBS,
};

// Recorded from gentle-ai 2.3.0 built from d94dc00c: no role verbs, store-reset or opencode-transport, but `advisory`;
// capture-result, lens-context, capture-evidence and preserve-result are dispatched without being listed.
const V230_LISTED = [
  "advisory",
  "capabilities",
  "start",
  "finalize",
  "validate",
  "status",
  "repair",
  "invalidate",
  "abandon",
  "recover",
  "retry-final-verification",
  "reclaim",
  "inspect-authority",
  "inspect-candidate",
  "dispose-result",
  "reopen-results",
  "schema",
  "bind-sdd",
];
const V230: ReviewFacade = {
  usage: `Usage: gentle-ai review <${V230_LISTED.join("|")}> [flags]\n\n${DETAILS_V230}\n${EXTRA_V230}\n`,
  verbs: [...V230_LISTED, "capture-result", "lens-context", "capture-evidence", "preserve-result"],
};

/** The review facade of a profile. */
export function reviewFacade(profile: Profile): ReviewFacade {
  return profile === "2.3.0" ? V230 : V240;
}
