// A typed gentle-ai refusal: the native error text plus its failure code (the `[code]` stderr suffix).
import type { FailureCode } from "../output/envelope.ts";
import { scrubCause } from "../output/envelope.ts";
import { disabledText } from "../repository/review-mode.ts";
import type { LineageState } from "../state/lineage-state.ts";

/**
 * How the envelope classifies a refusal (review_operation_contract.go `newReviewIntegrationFailure`): a preflight
 * refusal keeps its own code; an untyped native error falls to the read-only catch-all or `operation_outcome_unknown`.
 */
export type RefusalKind = "preflight" | "native";

/** Thrown by verb bodies; the routing class decides how it reaches stdout/stderr (provider reference §2-§4). */
export class ReviewRefusal extends Error {
  constructor(
    readonly code: FailureCode,
    /** The native, unscrubbed error text (what `Error: ` prints on the plain and collect-capture routes). */
    readonly text: string,
    readonly kind: RefusalKind = "preflight",
    /** The envelope's `required_inputs` (reviewPreflightReason.RequiredInputs). */
    readonly requiredInputs: readonly string[] = [],
    /** The envelope's cause when the classifier takes it from a wrapped error rather than the whole text. */
    readonly envelopeCause: string = text,
  ) {
    super(text);
    this.name = "ReviewRefusal";
  }
}

/** Shorthand for the most common class: `reviewPreflightError` with the generic invalid-request reason. */
export function invalidRequest(text: string): ReviewRefusal {
  return new ReviewRefusal("invalid_request", text);
}

/**
 * An untyped native error (a bare `errors.New`/`fmt.Errorf` that no typed branch of the envelope classifier claims).
 */
export function nativeError(text: string): ReviewRefusal {
  return new ReviewRefusal("operation_outcome_unknown", text, "native");
}

/**
 * A failed git subprocess (reviewtransaction.GitCommandError) wrapped as `text`: the envelope classifies it as
 * git_command_failed and publishes only the git error (review_operation_contract.go:882-893,
 * reviewIntegrationFailureCause).
 */
export function gitCommandFailed(text: string, gitError: string): ReviewRefusal {
  return new ReviewRefusal("git_command_failed", text, "preflight", [], gitError);
}

/**
 * The opaque repository-context refusal (review_incident.go:66-73 `reviewOpaqueContextOperationError`), a preflight
 * error.
 */
export function opaqueContextRefusal(code: string, cause: string): ReviewRefusal {
  return invalidRequest(
    `${code}: provider-issued review repository context operation failed; cause: ${scrubCause(cause)}; refresh the exact native next_transition before retrying`,
  );
}

/**
 * The refusal of a --repository-context handle this repository did not issue (resolveOpaqueReviewRepositoryContext,
 * repository_locator.go:290-330): a malformed handle fails its shape check; a well-formed one finds no private locator
 * file under HOME, and Go's lstat error names that path, which the scrub redacts (real 2.4.0 and 2.5.0 bytes).
 */
export function repositoryContextUnavailable(handle: string): ReviewRefusal {
  if (!/^rctx1_[0-9a-f]{64}$/.test(handle))
    return opaqueContextRefusal("repository_context_unavailable", "invalid review repository context handle");
  return opaqueContextRefusal(
    "repository_context_unavailable",
    `lstat /.gentle-ai/review-contexts/v1/${handle}.json: no such file or directory`,
  );
}

/**
 * The clone-wide kill switch for a mutating verb (`RDDDisabledError.Error()`, reviewtransaction/rdd_mode.go:214-229,
 * operation "mutate"), naming the mode source that keeps review off. (inferred) Without one, a seeded lineage's
 * `rddDisabled` models a clone-local `review mode disable`.
 */
export function rddDisabled(lineage: Pick<LineageState, "rddDisabledSource">): ReviewRefusal {
  return new ReviewRefusal("rdd_disabled", disabledText("mutate", lineage.rddDisabledSource ?? "clone_local"));
}
