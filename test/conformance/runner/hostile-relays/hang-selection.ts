// The clauses the hang tests and the hang bench (bench/hang.ts) run against the hostile relays: one home, so the
// bench times the runs the test checks.
export const HANG_GREP =
  "^(MATERIALIZE-ARGV-VERBATIM|PI-ARGV-FIXED|PI-STDIN-EXACT|SUBMIT-ARGV-EXACT|RESULT-SHAPE|PI-FAILED|FORM-MISSING|API-CONSTANTS)$";

/** The legs a hostile relay hangs in: `hangs-in-<leg>.ts` beside this file. */
export const HANG_LEGS = ["materialize", "pi", "submit"] as const;
