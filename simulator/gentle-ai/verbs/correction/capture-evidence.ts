// review capture-evidence (gentle-ai fb55ef7b `RunReviewCaptureEvidence`, review_artifact.go:47-127): refusal order,
// the handle or kill switch, the binding, the 4 MiB bound, the outcome, the VerificationEvidenceRecord output,
// idempotent resubmission and the conflict refusal.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Invocation, Outcome } from "../../invocation.ts";
import type { FlagDef, FlagSetSpec } from "../../../go/flag-spec.ts";
import { goQuoteStr } from "../../../go/go-quote.ts";
import { traitsOf } from "../../profiles.ts";
import type { ProfileTraits } from "../../profiles.ts";
import { routeFor, runRouted } from "../../route.ts";
import type { StdoutBuffer } from "../../route.ts";
import { invalidRequest, rddDisabled, ReviewRefusal } from "../../refusal.ts";
import { resolveRepositoryContext } from "../../gates/repository-context.ts";
import { encodeReviewJson } from "../../../go/go-json.ts";
import { readLineage, updateLineage } from "../../lineage.ts";
import type { LineageState } from "../../../state/lineage-state.ts";
import {
  buildEvidenceRecord,
  isVerificationOutcome,
  MAX_EVIDENCE_BYTES,
  recordJson,
  recordText,
  sameEvidenceContent,
} from "../../../state/evidence-record.ts";
import type { VerificationEvidenceRecord, VerificationOutcome } from "../../../state/evidence-record.ts";
import { sha256Prefixed } from "../../../state/identities.ts";
import { readInputDocument } from "../shared/read-input.ts";
import { resolveRepository } from "../../../repository/locate.ts";
import { authorityOf, capturedEvidence, evidenceBinding, evidenceTarget } from "../shared/correction-authority.ts";
import type { Authority } from "../shared/correction-authority.ts";
import { modernCorrection } from "../status/status-correction.ts";
import { parseVerbFlags, REPOSITORY_CONTEXT_FLAG } from "../shared/verb-flags.ts";

const V = "review capture-evidence";

// The FlagSet of RunReviewCaptureEvidence (review_artifact.go:48-56), usage texts verbatim.
const FLAGS_22X: readonly FlagDef[] = [
  { name: "cwd", kind: "string", default: ".", usage: "repository path" },
  { name: "lineage", kind: "string", usage: "exact review lineage identifier" },
  { name: "target", kind: "string", usage: "exact frozen target identity" },
  { name: "expected-revision", kind: "string", usage: "exact validating or correction authority revision" },
  {
    name: "outcome",
    kind: "string",
    usage: "closed verification outcome: passed, verification_failed, or procedural_tooling_failed",
  },
  { name: "input", kind: "string", usage: "final verification evidence file or - for stdin" },
];

/** The capture-evidence FlagSet of a profile (--repository-context arrived on 2026-08-06; absent in the 2.2.x era). */
export function captureEvidenceFlags(traits: ProfileTraits): FlagSetSpec {
  return {
    name: V,
    details: "Capture outcome-bearing verification evidence bound to one compact authority and candidate.",
    flags: modernCorrection(traits) ? [...FLAGS_22X, REPOSITORY_CONTEXT_FLAG] : FLAGS_22X,
  };
}

const REQUIRES_V240 =
  "review capture-evidence requires one exact repository resolver: --repository-context or --cwd, plus --lineage, --target, --expected-revision, --outcome, and --input";
// (inferred) the 2.2.x-era wording, before --repository-context.
const REQUIRES_22X =
  "review capture-evidence requires exact --cwd, --lineage, --target, --expected-revision, --outcome, and --input";

const REVISION_MISMATCH = "verification evidence binding does not match the current authority revision";
const TARGET_MISMATCH = "verification evidence binding does not match the current validating or correction authority";

interface Request {
  readonly lineage: string;
  readonly target: string;
  readonly revision: string;
  /** As given: the emptiness check trims it, the record check does not (review_artifact.go:63, :108). */
  readonly outcome: string;
  readonly input: string;
  /** The trimmed handle ("" on the --cwd route). */
  readonly context: string;
}

/** The request-shape refusals (review_artifact.go:57-71). */
function shapeChecks(traits: ProfileTraits, argv: readonly string[], out: StdoutBuffer): Request | undefined {
  const modern = modernCorrection(traits);
  const f = parseVerbFlags(captureEvidenceFlags(traits), argv, out);
  if (f === undefined) return undefined;
  const r = {
    lineage: f.str("lineage"),
    target: f.str("target"),
    revision: f.str("expected-revision"),
    outcome: f.str("outcome"),
    input: f.str("input"),
    context: modern ? f.str("repository-context").trim() : "",
  };
  if (f.positionals.length > 0 || [r.lineage, r.target, r.revision, r.outcome, r.input].some((v) => v.trim() === ""))
    throw invalidRequest(modern ? REQUIRES_V240 : REQUIRES_22X);
  if (r.context !== "" && f.has("cwd"))
    throw invalidRequest(`${V} accepts either --repository-context or --cwd, not both`);
  return r;
}

/** `reviewCompactFacadeLineageAbsentError` (review_facade.go:74-79) for an explicit lineage. */
function lineageAbsent(lineage: string): ReviewRefusal {
  const id = lineage.trim();
  return invalidRequest(
    `no compact facade review lineage ${goQuoteStr(id)} was found; run gentle-ai review start --lineage ${id} to begin a fresh compact review, or use gentle-ai review-resume --cwd <repo> --lineage ${id} for explicit read-only historical compatibility`,
  );
}

/**
 * Authority discovery and the binding refusals (review_artifact.go:88-104): on the --cwd route a malformed or unknown
 * lineage is a preflight refusal (an approved authority was burned: unknown); then the revision, then the target.
 */
function checkBinding(lineage: LineageState, a: Authority, r: Request): void {
  if (r.lineage.length > 128 || !/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(r.lineage))
    throw invalidRequest("lineage_id must be a canonical lowercase kebab-case identifier of at most 128 bytes");
  if (r.lineage !== a.lineageId || lineage.state === "approved") throw lineageAbsent(r.lineage);
  const mismatch = (text: string) => new ReviewRefusal("verification_evidence_binding_mismatch", text);
  if (r.revision !== a.revision) throw mismatch(REVISION_MISMATCH);
  // Any failure to derive the target (no forecast or corrected candidate yet, another state) reads the same.
  const target = evidenceTarget(a);
  if (target === undefined || r.target !== target) throw mismatch(TARGET_MISMATCH);
}

function readPayload(invocation: Invocation, path: string): Buffer {
  // readFacadeBytes' own error is dropped: any read failure is "evidence is required" (review_artifact.go:105-107).
  try {
    return readInputDocument(invocation, path, "final verification evidence");
  } catch {
    return Buffer.alloc(0);
  }
}

// reviewDefectReportIssuesURL and the Tier C clause (review_defect_report.go:22, 251-258).
const DEFECT_REPORT_ISSUES_URL = "https://github.com/Gentleman-Programming/gentle-ai/issues/new/choose";

/**
 * Writes the conflict's defect report and returns the clause naming it (writeReviewDefectReport,
 * review_defect_report.go:227-245): `<git common dir>/gentle-ai/defect-reports/<slug>-<12 hex of the report>.md` for a
 * repository lineage (the state dir stands in for a seeded one). (inferred) the Markdown body is shorter than Go's.
 */
function defectReportClause(
  invocation: Invocation,
  existing: VerificationEvidenceRecord,
  payload: Buffer,
  outcome: VerificationOutcome,
): string {
  const root = invocation.repositoryRoot;
  const dir =
    root === undefined
      ? join(invocation.stateDir, "defect-reports")
      : join(resolveRepository(root).gitCommonDir, "gentle-ai", "defect-reports");
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const content = [
    "# Bug Description",
    "",
    "Gentle AI reached a tool-internal fault state (`captured_final_evidence_conflict`) that should never happen.",
    "",
    "## Logs / Error Output",
    "",
    "```",
    "reason_code: captured_final_evidence_conflict",
    `existing_record_digest: ${existing.record_digest}`,
    `submitted_outcome: ${outcome}`,
    `submitted_raw_payload_sha256: ${sha256Prefixed(payload)}`,
    "```",
    "",
    `File this report at ${DEFECT_REPORT_ISSUES_URL}.`,
    "",
  ].join("\n");
  const path = join(dir, `captured-final-evidence-conflict-${sha256Prefixed(content).slice(7, 19)}.md`);
  writeFileSync(path, content, { mode: 0o600 });
  return ` A defect report was saved at ${path} -- file it at ${DEFECT_REPORT_ISSUES_URL}.`;
}

async function body(
  invocation: Invocation,
  traits: ProfileTraits,
  argv: readonly string[],
  out: StdoutBuffer,
): Promise<void> {
  const r = shapeChecks(traits, argv, out);
  if (r === undefined) return; // -h / --help: usage only
  const current = readLineage(invocation.stateDir, invocation.scenario, invocation.identitySource);
  if (r.context !== "") {
    // The opaque route resolves the handle and checks reviewer assets only: no kill switch (review_artifact.go:75-82).
    resolveRepositoryContext(authorityOf(invocation.scenario, current, invocation.identitySource), r.context, {
      lineage: r.lineage,
      target: r.target,
      revision: r.revision,
    });
  } else if (current.rddDisabled) {
    // resolveReviewMutationRoot applies the kill switch before any authority is read (review_kill_switch.go:51-66).
    throw rddDisabled(current);
  }
  let payload: Buffer | undefined;
  const record = updateLineage(invocation.stateDir, invocation.scenario, invocation.identitySource, (draft) => {
    const a = authorityOf(invocation.scenario, draft, invocation.identitySource);
    checkBinding(draft, a, r);
    payload ??= readPayload(invocation, r.input);
    if (payload.length === 0 || payload.length > MAX_EVIDENCE_BYTES)
      throw invalidRequest("final verification evidence is required");
    // NewVerificationEvidenceRecord validates the outcome, untrimmed (verification_evidence.go:81-150).
    if (!isVerificationOutcome(r.outcome))
      throw invalidRequest("invalid verification evidence record identity or digest");
    const outcome: VerificationOutcome = r.outcome;
    const existing = capturedEvidence(a);
    if (existing !== undefined) {
      // Identical bytes and outcome return the stored record unchanged (publishImmutable is idempotent).
      if (sameEvidenceContent(existing, { rawPayloadSha256: sha256Prefixed(payload), outcome })) return existing;
      throw new ReviewRefusal(
        "captured_final_evidence_conflict",
        "captured verification evidence already exists with different bytes or outcome." +
          defectReportClause(invocation, existing, payload, outcome),
      );
    }
    const created = buildEvidenceRecord(evidenceBinding(a), payload, outcome, a.identityMode);
    draft.correction.evidence = recordText(created);
    draft.correction.evidenceOutcome = outcome;
    // Passed evidence moves the correction on to targeted validation; failures stay at the evidence stage (STATUS
    // stops).
    if (draft.state === "correction_required")
      draft.correction.stage = outcome === "passed" ? "validation_required" : "evidence_required";
    return created;
  });
  out.write(encodeReviewJson(recordJson(record)));
}

/** review capture-evidence: collect-capture route from v2.4.0, plain route before. */
export function captureEvidence(invocation: Invocation): Promise<Outcome> {
  const traits = traitsOf(invocation.scenario.profile);
  const argv = invocation.argv.slice(2);
  const route = routeFor(argv, "capture-evidence", traits.collectCapture ? "collect-capture" : "plain");
  return runRouted(route, (out) => body(invocation, traits, argv, out));
}
