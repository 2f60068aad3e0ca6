/**
 * facadeReviewPolicy (cli/review_facade.go:92 at fb55ef7b): the native bounded policy START freezes into the authority
 * when no --policy file is given; the validation request and the validator's prompt carry it verbatim (real 2.5.0
 * bytes).
 */
export const NATIVE_POLICY_CONTENT =
  "Gentle AI native bounded review policy.\n\nOnly candidate-caused BLOCKER or CRITICAL findings may require correction. Pre-existing and base-only findings are follow-ups. One correction is bounded by the frozen original scope. Gates are informational and unmanaged; ordinary repository policy decides delivery.\n";
