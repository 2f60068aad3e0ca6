// gentle-ai ReviewIntegrationFailure (failure/v1 and failure/v2), provider reference §4.
import type { GoJson } from "./go-json.ts";

export const CONTRACT_V1 = "gentle-ai.review-integration/v1";
export const CONTRACT_V2 = "gentle-ai.review-integration/v2";

/** Failure codes the simulated verbs emit, with their fixed message and next action. */
export const FAILURE_CODES = {
  invalid_request: { message: "The negotiated review request is invalid.", next: "correct_request" },
  capture_binding_mismatch: {
    message:
      "The capture binding does not match the current review authority; re-derive the exact next transition before retrying.",
    next: "review.status",
  },
  reviewer_result_slot_occupied: {
    message:
      "A different reviewer result already occupies this immutable slot; re-derive the exact next transition before retrying.",
    next: "review.status",
  },
  verification_evidence_binding_mismatch: {
    message:
      "The verification evidence binding does not match the current validating or correction authority; re-derive the exact next transition before retrying.",
    next: "review.status",
  },
  captured_final_evidence_conflict: {
    message:
      "Captured verification evidence already exists for this authority and candidate with different immutable content.",
    next: "review.status",
  },
  immutable_review_transport_unsupported: {
    message: "The active runtime cannot provide immutable receipt-review transport.",
    next: "stop",
  },
  review_transport_capability_unsupported: {
    // (inferred) message wording; only retry_safe=false is documented for this code.
    message: "The active runtime cannot provide the required review transport capability.",
    next: "stop",
  },
  rdd_disabled: { message: "Receipt-driven development is disabled; this operation never started.", next: "stop" },
  // The read-only catch-all (review_operation_contract.go:1129-1142): phase pre_native and no cause.
  operation_failed: { message: "The negotiated read-only review operation failed safely.", next: "retry" },
} as const;
export type FailureCode = keyof typeof FAILURE_CODES;

const NOT_RETRY_SAFE: ReadonlySet<FailureCode> = new Set([
  "immutable_review_transport_unsupported",
  "review_transport_capability_unsupported",
  "rdd_disabled",
]);

/** Inputs of one failure envelope; `cause` is the unscrubbed native text. */
export interface FailureSpec {
  readonly version: 1 | 2;
  readonly operation: string;
  readonly code: FailureCode;
  readonly cause?: string;
  readonly lineageId?: string;
  readonly requiredInputs?: readonly string[];
}

const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g;
const ENV_ASSIGN = /\b[A-Z][A-Z0-9_]{2,}=\S+/g;
const PATHLIKE = /(?:[A-Za-z]:)?[\\/][^\s"'`]+/g;

/** reviewScrubDefectReportField: first line, env assignments, e-mails, path-like runs, trim, 4000 runes. */
export function scrubCause(text: string): string {
  let s = text.replace(/\r/g, "\n").split("\n")[0] ?? "";
  s = s.replace(ENV_ASSIGN, "<redacted>").replace(EMAIL, "<redacted>").replace(PATHLIKE, "<redacted>");
  s = s.trim();
  const runes = Array.from(s);
  return runes.length > 4000 ? runes.slice(0, 4000).join("") : s;
}

/** Builds the envelope object in Go struct field order, omitting empty optional fields. */
export function failureEnvelope(spec: FailureSpec): GoJson {
  const fixed = FAILURE_CODES[spec.code];
  const cause = spec.cause === undefined ? "" : scrubCause(spec.cause);
  return {
    schema: spec.version === 2 ? "gentle-ai.review-integration.failure/v2" : "gentle-ai.review-integration.failure/v1",
    contract: spec.version === 2 ? CONTRACT_V2 : CONTRACT_V1,
    operation: spec.operation,
    phase: spec.code === "rdd_disabled" ? "pre_native" : "preflight",
    code: spec.code,
    message: fixed.message,
    mutation_outcome: "not_started",
    authority_applicability: "not_evaluated",
    retry_safe: !NOT_RETRY_SAFE.has(spec.code),
    replayability: "not_replayable",
    lineage_id: spec.lineageId || undefined,
    required_inputs: [...(spec.requiredInputs ?? [])],
    next_action: fixed.next,
    cause: cause === "" ? undefined : cause,
  };
}

/** What the lineage safe scan needs to know of one operation's flags. */
export interface ScanFlag {
  readonly name: string;
  readonly kind: "string" | "bool" | "int";
}

const LINEAGE_RE = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const BOOLS = new Set(["1", "t", "T", "TRUE", "true", "True", "0", "f", "F", "FALSE", "false", "False"]);

function atoiOk(v: string): boolean {
  // strconv.Atoi: optional sign, decimal digits, fits a 64-bit int.
  if (!/^[+-]?[0-9]+$/.test(v)) return false;
  const n = BigInt(v);
  return n >= -(2n ** 63n) && n <= 2n ** 63n - 1n;
}

/**
 * The safe argument scan behind `lineage_id`: every flag token must name a known flag of the operation with
 * a well-formed value; the scan stops like Go flag at the first positional, `-` or `--`.
 * (inferred) positionals after the stop point do not disqualify the scan.
 */
export function safeScanLineage(argv: readonly string[], flags: readonly ScanFlag[]): string | undefined {
  const known = new Map(flags.map((f) => [f.name, f.kind] as const));
  let lineage: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const tok = argv[i]!;
    if (tok.length < 2 || tok[0] !== "-") break;
    if (tok === "--") break;
    const body = tok.startsWith("--") ? tok.slice(2) : tok.slice(1);
    if (body === "" || body[0] === "-" || body[0] === "=") return undefined;
    const eq = body.indexOf("=", 1);
    const name = eq < 0 ? body : body.slice(0, eq);
    const kind = known.get(name);
    if (kind === undefined) return undefined;
    let value: string | undefined = eq < 0 ? undefined : body.slice(eq + 1);
    if (kind === "bool") {
      if (value !== undefined && !BOOLS.has(value)) return undefined;
      continue;
    }
    if (value === undefined) {
      if (i + 1 >= argv.length) return undefined;
      value = argv[++i]!;
    }
    if (kind === "int" && !atoiOk(value)) return undefined;
    if (name === "lineage") lineage = value;
  }
  if (lineage === undefined || lineage.length > 128 || !LINEAGE_RE.test(lineage)) return undefined;
  return lineage;
}
