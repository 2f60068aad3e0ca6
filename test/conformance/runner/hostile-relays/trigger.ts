// The hostile relays misbehave on one case only: the happy path, which the harness runs in a folder named after it
// (…/case-NNNN-happy-path_<profile>/…). Every other case gets our relay unchanged, so the verdicts of clauses that do
// not use the happy path must equal a clean run's.
import type { ReviewHostRelayRequest } from "../../../../relay/index.ts";

/** True for the happy-path case's relay call. */
export function isTarget(request: ReviewHostRelayRequest): boolean {
  return /\/case-\d+-happy-path_/.test(request.targetCwd ?? "");
}
