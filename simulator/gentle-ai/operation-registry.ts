// gentle-ai's review operation registry (review_operation_contract.go:83-111 at fb55ef7b): which verbs negotiate,
// which are collect-capture verbs, and the flag shape the failure envelope's lineage scan accepts for each.
import type { ScanFlag } from "../output/envelope.ts";

/** One row of `reviewIntegrationOperationRegistry`, reduced to what the simulator consumes. */
export interface OperationRow {
  /** The CLI verb (`review <command>`). */
  readonly command: string;
  /** The envelope `operation`, e.g. `review.finalize`. */
  readonly operation: string;
  /** Part of the published negotiated surface (capabilities `operations`, the `--contract` route). */
  readonly negotiated: boolean;
  /** A collect-satisfying capture verb: always failure/v2, never negotiated. */
  readonly collectCapture: boolean;
  readonly valueFlags: readonly string[];
  readonly boolFlags: readonly string[];
  readonly intFlags: readonly string[];
  /** Mutating verbs fall to `operation_outcome_unknown`; read-only ones to `operation_failed`. */
  readonly mutates: boolean;
}

function row(
  command: string,
  operation: string,
  kind: "negotiated" | "collect" | "verb",
  mutates: boolean,
  valueFlags: readonly string[] = [],
  boolFlags: readonly string[] = [],
  intFlags: readonly string[] = [],
): OperationRow {
  return {
    command,
    operation,
    negotiated: kind === "negotiated",
    collectCapture: kind === "collect",
    valueFlags,
    boolFlags,
    intFlags,
    mutates,
  };
}

/** The registry in source order (the order capabilities publishes `operations` in). */
export const OPERATION_REGISTRY: readonly OperationRow[] = [
  row("bind-sdd", "review.bind_sdd", "negotiated", true, ["cwd", "change", "lineage", "expected-binding-revision"]),
  row("capabilities", "review.capabilities", "negotiated", false),
  row("capture-evidence", "review.capture-evidence", "collect", true, [
    "cwd",
    "repository-context",
    "lineage",
    "target",
    "expected-revision",
    "outcome",
    "input",
  ]),
  row(
    "capture-refuter",
    "review.capture-refuter",
    "collect",
    true,
    ["cwd", "repository-context", "lineage", "target", "expected-revision", "agent"],
    ["materialize", "execute"],
  ),
  row(
    "capture-result",
    "review.capture-result",
    "collect",
    true,
    ["cwd", "repository-context", "lineage", "target", "lens", "expected-revision", "subject-hash", "agent", "input"],
    ["preflight", "materialize"],
    ["order"],
  ),
  row(
    "capture-validation",
    "review.capture-validation",
    "collect",
    true,
    ["cwd", "repository-context", "lineage", "target", "expected-revision", "request-hash", "agent"],
    ["materialize", "execute"],
  ),
  row(
    "finalize",
    "review.finalize",
    "negotiated",
    true,
    [
      "cwd",
      "agent",
      "lineage",
      "expected-revision",
      "target",
      "request-hash",
      "repository-context",
      "validation",
      "refuter",
      "evidence",
      "trace",
      "result",
      "result-artifact",
      "result-artifact-file",
    ],
    ["failed", "captured-results", "captured-evidence"],
    ["correction-lines"],
  ),
  row("recover", "review.recover", "verb", false),
  row(
    "repair",
    "review.repair",
    "negotiated",
    true,
    [
      "cwd",
      "class",
      "lineage",
      "expected-revision",
      "cause",
      "disposition",
      "repository-binding",
      "actor",
      "reason",
      "maintainer-authorization",
    ],
    ["preflight"],
  ),
  row("retry-final-verification", "review.retry_final_verification", "negotiated", true, [
    "cwd",
    "predecessor-lineage",
    "expected-predecessor-revision",
    "successor-lineage",
    "incident",
    "actor",
    "reason",
    "maintainer-authorization",
  ]),
  row(
    "start",
    "review.start",
    "negotiated",
    true,
    [
      "cwd",
      "agent",
      "target",
      "lineage",
      "policy",
      "focus",
      "base-ref",
      "projection",
      "trace",
      "consent",
      "locale",
      "untracked-scope",
      "intended-untracked",
      "expected-untracked-inventory",
    ],
    ["committed-only", "workspace-overlay"],
  ),
  row(
    "status",
    "review.status",
    "negotiated",
    false,
    [
      "cwd",
      "agent",
      "lineage",
      "projection",
      "base-ref",
      "base-tree",
      "gate",
      "recovery-successor-lineage",
      "recovery-reason",
      "recovery-actor",
      "recovery-authorization",
      "repair-actor",
      "repair-reason",
      "repair-authorization",
      "untracked-scope",
      "intended-untracked",
      "expected-untracked-inventory",
    ],
    ["committed-only", "workspace-overlay", "action-eligibility", "next-transition"],
  ),
  row("validate", "review.validate", "negotiated", false, [
    "cwd",
    "lineage",
    "gate",
    "base-ref",
    "pre-pr-ci-attestation",
    "policy",
    "release-configuration",
    "release-generated",
    "release-provenance",
    "release-publication-boundary",
    "release-evidence-freshness",
  ]),
];

/** The registry row of a verb, if it has one. */
export function operationRow(command: string): OperationRow | undefined {
  return OPERATION_REGISTRY.find((r) => r.command === command);
}

/** The published negotiated operations (capabilities `operations`, in registry order). */
export function negotiatedOperations(): string[] {
  return OPERATION_REGISTRY.filter((r) => r.negotiated).map((r) => r.operation);
}

/**
 * The flags the lineage safe scan accepts for one operation (`reviewIntegrationOperationFlagShape`, :1305-1319):
 * `contract` plus the row's value flags, its bool and int flags, and `h`/`help` as bools, for every operation.
 */
export function scanShape(row: OperationRow | undefined): ScanFlag[] {
  return [
    { name: "contract", kind: "string" },
    ...(row?.valueFlags ?? []).map((name) => ({ name, kind: "string" as const })),
    ...(row?.boolFlags ?? []).map((name) => ({ name, kind: "bool" as const })),
    ...(row?.intFlags ?? []).map((name) => ({ name, kind: "int" as const })),
    { name: "h", kind: "bool" },
    { name: "help", kind: "bool" },
  ];
}
