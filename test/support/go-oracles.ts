// Independent oracles of gentle-ai's Go JSON output, shared by the simulator test suites.

/** Go-style indented JSON oracle: JSON.stringify(…, 2) plus Go's HTML escaping and the trailing newline. */
export function goIndent(value: unknown): string {
  return (
    JSON.stringify(value, null, 2)
      .replace(/</g, "\\u003c")
      .replace(/>/g, "\\u003e")
      .replace(/&/g, "\\u0026") + "\n"
  );
}

/** A failure/v1|v2 envelope as a refusal prints it (optional lineage_id after replayability; no cause when undefined). */
export function failureEnvelope(
  version: 1 | 2,
  operation: string,
  code: string,
  message: string,
  next: string,
  cause: string | undefined,
  lineageId?: string,
  retrySafe = true,
  phase = "preflight",
): string {
  return goIndent({
    schema: `gentle-ai.review-integration.failure/v${version}`,
    contract: `gentle-ai.review-integration/v${version}`,
    operation,
    phase,
    code,
    message,
    mutation_outcome: "not_started",
    authority_applicability: "not_evaluated",
    retry_safe: retrySafe,
    replayability: "not_replayable",
    ...(lineageId === undefined ? {} : { lineage_id: lineageId }),
    required_inputs: [],
    next_action: next,
    ...(cause === undefined ? {} : { cause }),
  });
}
