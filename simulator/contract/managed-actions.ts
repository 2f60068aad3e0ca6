// gentle-ai's managed review actions (cli/review_status_contract.go:148-159): one home for the STATUS and FINALIZE
// builders and for the documents' mirror. Plain constants, no zod, so builders may import them at run time.

/** reviewManagedActions: the actions STATUS's action eligibility forbids (all but the one allowed). */
export const MANAGED_ACTIONS = [
  "review.abandon",
  "review.finalize",
  "review.invalidate",
  "review.quarantine-legacy",
  "review.reclaim",
  "review.reconcile-authority",
  "review.reconcile-authority-batch",
  "review.recover",
  "review.repair",
  "review.retry_final_verification",
  "review.start",
  "review.validate",
] as const;

/**
 * reviewFinalizeManagedActions: FINALIZE's eligibility, each forbidden with the finalize reason (no repair or retry).
 */
export const FINALIZE_MANAGED_ACTIONS = MANAGED_ACTIONS.filter(
  (a): a is Exclude<(typeof MANAGED_ACTIONS)[number], "review.repair" | "review.retry_final_verification"> =>
    a !== "review.repair" && a !== "review.retry_final_verification",
);
