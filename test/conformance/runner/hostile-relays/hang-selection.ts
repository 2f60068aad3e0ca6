// The runs the hang tests and the hang bench (bench/hang.ts) make against the hostile relays: one home, so the bench
// times the runs the test checks.
const HANG_GREP =
  "^(MATERIALIZE-ARGV-VERBATIM|PI-ARGV-FIXED|PI-STDIN-EXACT|SUBMIT-ARGV-EXACT|RESULT-SHAPE|PI-FAILED|FORM-MISSING|API-CONSTANTS)$";

/** The legs a hostile relay hangs in: `hangs-in-<leg>.ts` beside this file. */
export const HANG_LEGS = ["materialize", "pi", "submit"] as const;

/** The `run` argv of one hang run against `relay`: the selection at 2.4.0 under the default 20 s bound. */
export function hangRunArgs(relay: string): string[] {
  return [
    "run",
    "--quiet",
    "--relay",
    relay,
    "--grep",
    HANG_GREP,
    "--profile",
    "2.4.0",
    "--seed",
    "1",
    "--deadline",
    "300s",
  ];
}
