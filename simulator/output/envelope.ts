// gentle-ai ReviewIntegrationFailure (failure/v1 and failure/v2), provider reference §4.
import type { FailureV1, FailureV2 } from "../contract/failure.ts";

export const CONTRACT_V1 = "gentle-ai.review-integration/v1";
export const CONTRACT_V2 = "gentle-ai.review-integration/v2";

/**
 * How one failure code classifies a refusal: its fixed message and next action, and where it departs from preflight.
 */
export interface FailureClass {
  readonly message: string;
  readonly next: string;
  /** Default `preflight`. */
  readonly phase?: "preflight" | "pre_native" | "native_running";
  /** Default `true`. */
  readonly retrySafe?: boolean;
  /** Default `not_started`. */
  readonly mutation?: "not_started" | "unknown";
  /** Default `not_replayable`. */
  readonly replayability?: "not_replayable" | "status_required" | "manual_action_required";
  /** The branch clears the cause (the negotiation route and the read-only catch-all publish none). */
  readonly noCause?: boolean;
  /** Default `not_evaluated`. */
  readonly applicability?: "unrelated" | "not_evaluated";
}

/** Failure codes the simulated verbs emit (review_operation_contract.go reasons and typed branches). */
export const FAILURE_CODES = {
  invalid_request: { message: "The negotiated review request is invalid.", next: "correct_request" },
  // The negotiation route (:455-469) builds these before any verb runs: v1 failure, no cause.
  unsupported_contract: {
    message: "The requested review integration contract is not supported.",
    next: "correct_request",
    noCause: true,
  },
  empty_contract: {
    message: "The review integration contract cannot be empty.",
    next: "correct_request",
    noCause: true,
  },
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
  // reviewPreflightStaleTargetReason (review_operation_contract.go:264-290): re-derive, never "correct the request".
  stale_target_identity: {
    message:
      "The negotiated review request no longer matches the live workspace snapshot; re-derive the exact next transition before retrying.",
    next: "review.status",
  },
  // reviewPreflightEmptyCandidateReason (:341-346): its required input (base_ref) travels with the refusal.
  empty_candidate_scope: {
    message: "The review candidate has no pending changes to freeze; name the base to compare against before retrying.",
    next: "correct_request",
  },
  immutable_review_transport_unsupported: {
    message: "The active runtime cannot provide immutable receipt-review transport.",
    next: "stop",
    retrySafe: false,
  },
  review_transport_capability_unsupported: {
    // review_transport_admission.go:13-17.
    message: "The active runtime does not advertise review transport capability.",
    next: "stop",
    retrySafe: false,
  },
  rdd_disabled: {
    message: "Receipt-driven development is disabled; this operation never started.",
    next: "stop",
    phase: "pre_native",
    retrySafe: false,
  },
  // A GitCommandError before any mutation (review_operation_contract.go:882-893), on any negotiated verb.
  git_command_failed: {
    message: "A Git subprocess failed before review authority mutation.",
    next: "stop",
    phase: "pre_native",
    retrySafe: false,
    replayability: "manual_action_required",
  },
  // A gate's receipt discovery found no receipt that governs the candidate (301fb2ad
  // review_operation_contract.go:1005-1031).
  receipt_missing: {
    message: "No unique exact review receipt applies to the live gate target.",
    next: "review.start",
    phase: "pre_native",
    retrySafe: false,
    replayability: "manual_action_required",
  },
  receipt_unrelated: {
    message: "No approved review receipt covers this candidate; review it with gentle-ai review start.",
    next: "review.status",
    phase: "pre_native",
    retrySafe: false,
    replayability: "manual_action_required",
    applicability: "unrelated",
  },
  // The read-only catch-all (:1132-1145): capabilities, status and validate failing outside every typed branch.
  operation_failed: {
    message: "The negotiated read-only review operation failed safely.",
    next: "retry",
    phase: "pre_native",
    noCause: true,
  },
  // The mutating default (:507-515, :1146-1151): an untyped failure whose outcome the tool cannot know.
  operation_outcome_unknown: {
    message: "The negotiated review operation failed without authoritative mutation evidence.",
    next: "review.status",
    phase: "native_running",
    retrySafe: false,
    mutation: "unknown",
    replayability: "status_required",
  },
} as const satisfies Record<string, FailureClass>;
export type FailureCode = keyof typeof FAILURE_CODES;

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

/** Builds the envelope object in Go struct field order, omitting empty optional fields (typed by the zod mirror). */
export function failureEnvelope(spec: FailureSpec): FailureV1 | FailureV2 {
  const fixed: FailureClass = FAILURE_CODES[spec.code];
  const cause = spec.cause === undefined || fixed.noCause === true ? "" : scrubCause(spec.cause);
  const rest = {
    // The operation vocabulary is the registry's; the failure/v1 builder is only ever given negotiated operations.
    operation: spec.operation as FailureV2["operation"] & FailureV1["operation"],
    phase: fixed.phase ?? "preflight",
    code: spec.code,
    message: fixed.message,
    mutation_outcome: fixed.mutation ?? "not_started",
    authority_applicability: fixed.applicability ?? "not_evaluated",
    retry_safe: fixed.retrySafe ?? true,
    replayability: fixed.replayability ?? "not_replayable",
    lineage_id: spec.lineageId || undefined,
    required_inputs: [...(spec.requiredInputs ?? [])] as FailureV1["required_inputs"],
    next_action: fixed.next as FailureV1["next_action"],
    cause: cause === "" ? undefined : cause,
  } as const;
  return spec.version === 2
    ? { schema: "gentle-ai.review-integration.failure/v2", contract: CONTRACT_V2, ...rest }
    : { schema: "gentle-ai.review-integration.failure/v1", contract: CONTRACT_V1, ...rest };
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

/** What the safe argument scan found: the last value of each flag it read, and whether every token was well formed. */
export interface SafeScan {
  readonly values: ReadonlyMap<string, string>;
  readonly valid: boolean;
}

/**
 * The safe argument scan (`safeReviewIntegrationArguments`, review_operation_contract.go:1216-1271): every flag token
 * must name a flag of the operation's shape with a well-formed value; it stops like Go flag at the first positional,
 * `-` or `--` (what follows is not examined), and at the first malformed token, keeping the values read before it.
 */
export function safeScanArguments(argv: readonly string[], flags: readonly ScanFlag[]): SafeScan {
  const known = new Map(flags.map((f) => [f.name, f.kind] as const));
  const values = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const tok = argv[i]!;
    if (tok.length < 2 || tok[0] !== "-") break;
    if (tok === "--") break;
    const body = tok.startsWith("--") ? tok.slice(2) : tok.slice(1);
    if (body === "" || body[0] === "-" || body[0] === "=") return { values, valid: false };
    const eq = body.indexOf("=", 1);
    const name = eq < 0 ? body : body.slice(0, eq);
    const kind = known.get(name);
    if (kind === undefined) return { values, valid: false };
    let value: string | undefined = eq < 0 ? undefined : body.slice(eq + 1);
    if (kind === "bool") {
      values.set(name, value ?? "true");
      if (value !== undefined && !BOOLS.has(value)) return { values, valid: false };
      continue;
    }
    if (value === undefined) {
      if (i + 1 >= argv.length) return { values, valid: false };
      value = argv[++i]!;
    }
    values.set(name, value);
    if (kind === "int" && !atoiOk(value)) return { values, valid: false };
  }
  return { values, valid: true };
}

/**
 * The lineage behind `lineage_id` (`safeReviewIntegrationLineage`, :1201-1214): a clean scan's valid `lineageFlag`
 * value.
 */
export function safeScanLineage(
  argv: readonly string[],
  flags: readonly ScanFlag[],
  lineageFlag = "lineage",
): string | undefined {
  const scan = safeScanArguments(argv, flags);
  const lineage = scan.values.get(lineageFlag);
  if (!scan.valid || lineage === undefined || lineage.length > 128 || !LINEAGE_RE.test(lineage)) return undefined;
  return lineage;
}
