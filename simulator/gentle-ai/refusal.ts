// A typed gentle-ai refusal: the native error text plus its failure code (the `[code]` stderr suffix).
import type { FailureCode } from "../output/envelope.ts";
import { scrubCause } from "../output/envelope.ts";

/** Thrown by verb bodies; the routing class decides how it reaches stdout/stderr (provider reference §2-§4). */
export class ReviewRefusal extends Error {
  constructor(
    readonly code: FailureCode,
    /** The native, unscrubbed error text (what `Error: ` prints on the plain and collect-capture routes). */
    readonly text: string,
  ) {
    super(text);
    this.name = "ReviewRefusal";
  }
}

/** Shorthand for the most common class. */
export function invalidRequest(text: string): ReviewRefusal {
  return new ReviewRefusal("invalid_request", text);
}

/** The refusal of a --repository-context handle this repository did not issue (native text, scrubbed cause). */
export function repositoryContextUnavailable(): ReviewRefusal {
  return invalidRequest(
    `repository_context_unavailable: provider-issued review repository context operation failed; cause: ${scrubCause("repository context handle is not issued for this repository")}; refresh the exact native next_transition before retrying`,
  );
}

/** (inferred) native text of the clone-wide kill switch for a mutating verb (`review finalize`, …). */
export function rddDisabled(verbName: string): ReviewRefusal {
  return new ReviewRefusal("rdd_disabled", `receipt-driven development is disabled for this clone; ${verbName} never started`);
}
