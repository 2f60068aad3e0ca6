// A typed gentle-ai refusal: the native error text plus its failure code (the `[code]` stderr suffix).
import type { FailureCode } from "../output/envelope.ts";

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
