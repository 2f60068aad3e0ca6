// Independent oracles of gentle-ai's Go JSON output, shared by the simulator test suites.

/** Go-style indented JSON oracle: JSON.stringify(…, 2) plus Go's HTML escaping and the trailing newline. */
export function goIndent(value: unknown): string {
  return (
    JSON.stringify(value, null, 2).replace(/</g, "\\u003c").replace(/>/g, "\\u003e").replace(/&/g, "\\u0026") + "\n"
  );
}

/**
 * A failure/v1|v2 envelope as a refusal prints it (optional lineage_id after replayability; no cause when undefined).
 */
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

/** The message of every negotiated-request refusal. */
export const INVALID = "The negotiated review request is invalid.";

/** The failure/v2 envelope a collect-capture refusal prints (optional lineage_id after replayability). */
export function envelope(
  operation: string,
  code: string,
  message: string,
  next: string,
  cause: string,
  lineageId?: string,
  retrySafe = true,
  phase = "preflight",
): string {
  return failureEnvelope(2, operation, code, message, next, cause, lineageId, retrySafe, phase);
}

/** goIndent plus the changed_path_manifest compact-per-line rendering (independent oracle of encodeReviewJson). */
export function goReviewJson(value: unknown): string {
  const esc = (s: string) => s.replace(/</g, "\\u003c").replace(/>/g, "\\u003e").replace(/&/g, "\\u0026");
  const render = (v: unknown, depth: number, key?: string): string => {
    const pad = "  ".repeat(depth);
    if (Array.isArray(v)) {
      if (v.length === 0) return "[]";
      const items = v.map(
        (x) => pad + "  " + (key === "changed_path_manifest" ? esc(JSON.stringify(x)) : render(x, depth + 1)),
      );
      return "[\n" + items.join(",\n") + "\n" + pad + "]";
    }
    if (v !== null && typeof v === "object") {
      const entries = Object.entries(v as Record<string, unknown>);
      if (entries.length === 0) return "{}";
      return (
        "{\n" +
        entries.map(([k, x]) => `${pad}  ${esc(JSON.stringify(k))}: ${render(x, depth + 1, k)}`).join(",\n") +
        "\n" +
        pad +
        "}"
      );
    }
    return esc(JSON.stringify(v));
  };
  return render(value, 0) + "\n";
}
