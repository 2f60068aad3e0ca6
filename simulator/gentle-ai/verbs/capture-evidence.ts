// review capture-evidence (provider reference §11, gentle-ai v2.4.0 `RunReviewCaptureEvidence`): refusal order,
// the 4 MiB bound, the VerificationEvidenceRecord output, idempotent resubmission and the conflict refusal.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Invocation, Outcome } from "../invocation.ts";
import type { FlagDef, FlagSetSpec } from "../argv/go-flags.ts";
import { goQuoteStr, scanFlagsOf } from "../argv/go-flags.ts";
import { traitsOf } from "../profiles.ts";
import type { ProfileTraits } from "../profiles.ts";
import { routeFor, runRouted } from "../route.ts";
import type { StdoutBuffer } from "../route.ts";
import { invalidRequest, rddDisabled, repositoryContextUnavailable, ReviewRefusal } from "../refusal.ts";
import { encodeReviewJson, goMarshal } from "../../output/go-json.ts";
import { readLineage, updateLineage } from "../../state/lineage-store.ts";
import type { LineageState } from "../../state/lineage-state.ts";
import {
  buildEvidenceRecord,
  isVerificationOutcome,
  MAX_EVIDENCE_BYTES,
  recordJson,
  recordText,
  sameEvidenceContent,
} from "../../state/evidence-record.ts";
import type { VerificationEvidenceRecord, VerificationOutcome } from "../../state/evidence-record.ts";
import { identitiesFor, sha256Prefixed } from "../../state/identities.ts";
import { readInputDocument } from "./read-input.ts";
import { authorityOf, capturedEvidence, evidenceBinding, evidenceTarget } from "./correction-authority.ts";
import { modernCorrection } from "./status-correction.ts";
import { parseVerbFlags, REPOSITORY_CONTEXT_FLAG } from "./verb-flags.ts";

const V = "review capture-evidence";

// (inferred) usage texts of --cwd, --lineage, --target and --expected-revision; --outcome and --input are documented.
const FLAGS_22X: readonly FlagDef[] = [
  { name: "cwd", kind: "string", default: ".", usage: "repository path" },
  { name: "expected-revision", kind: "string", usage: "exact validating or correction authority revision" },
  { name: "input", kind: "string", usage: "final verification evidence file or - for stdin" },
  { name: "lineage", kind: "string", usage: "exact review lineage identifier" },
  { name: "outcome", kind: "string", usage: "closed verification outcome: passed, verification_failed, or procedural_tooling_failed" },
  { name: "target", kind: "string", usage: "exact validating or correction target identity" },
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
const REQUIRES_22X = "review capture-evidence requires exact --cwd, --lineage, --target, --expected-revision, --outcome, and --input";

const REVISION_MISMATCH = "verification evidence binding does not match the current authority revision";
const TARGET_MISMATCH = "verification evidence binding does not match the current validating or correction authority";

interface Request {
  readonly lineage: string;
  readonly target: string;
  readonly revision: string;
  readonly outcome: VerificationOutcome;
  readonly input: string;
  readonly context: string;
}

function shapeChecks(traits: ProfileTraits, argv: readonly string[], out: StdoutBuffer): Request | undefined {
  const modern = modernCorrection(traits);
  const f = parseVerbFlags(captureEvidenceFlags(traits), argv, out);
  if (f === undefined) return undefined;
  // No bool flags: the detached-bool refusal never applies; positionals fall to the "requires" refusal (inferred).
  const context = modern ? f.str("repository-context") : "";
  const outcome = f.str("outcome");
  const r = { lineage: f.str("lineage"), target: f.str("target"), revision: f.str("expected-revision"), input: f.str("input"), context };
  if (
    f.positionals.length > 0 ||
    (context === "" && f.str("cwd") === "") ||
    r.lineage === "" ||
    r.target === "" ||
    r.revision === "" ||
    outcome === "" ||
    r.input === ""
  )
    throw invalidRequest(modern ? REQUIRES_V240 : REQUIRES_22X);
  if (context !== "" && f.has("cwd")) throw invalidRequest(`${V} accepts either --repository-context or --cwd, not both`);
  // (inferred) text: the closed outcome set is documented, its refusal wording is not.
  if (!isVerificationOutcome(outcome))
    throw invalidRequest(`${V} --outcome must be passed, verification_failed, or procedural_tooling_failed; got ${goQuoteStr(outcome)}`);
  return { ...r, outcome };
}

/** Refusals 3-4: the request must bind the current validating or correction authority. */
function checkBinding(invocation: Invocation, lineage: LineageState, r: Request): void {
  const a = authorityOf(invocation.scenario, lineage);
  const mismatch = (text: string) => new ReviewRefusal("verification_evidence_binding_mismatch", text);
  // (inferred) a lineage or state without a validating/correction authority reads as a target mismatch.
  if (r.lineage !== a.lineageId || (lineage.state !== "correction_required" && lineage.state !== "validating"))
    throw mismatch(TARGET_MISMATCH);
  if (r.revision !== a.revision) throw mismatch(REVISION_MISMATCH);
  // Any failure to derive the target (no forecast or corrected candidate yet) drops its reason and reads the same.
  const target = evidenceTarget(a);
  if (target === undefined || r.target !== target) throw mismatch(TARGET_MISMATCH);
}

function readPayload(invocation: Invocation, path: string): Buffer {
  // (inferred) wrapping prefix.
  return readInputDocument(invocation, path, "final verification evidence");
}

/** Writes the conflict's defect report under the state dir and returns the clause naming it (inferred layout). */
function defectReportClause(stateDir: string, existing: VerificationEvidenceRecord, payload: Buffer, outcome: VerificationOutcome): string {
  const dir = join(stateDir, "defect-reports");
  mkdirSync(dir, { recursive: true });
  const digest = sha256Prefixed(payload);
  const path = join(dir, `captured-final-evidence-conflict-${digest.slice(7, 23)}.json`);
  const report = {
    schema: "gentle-ai.review-defect-report/v1",
    code: "captured_final_evidence_conflict",
    existing_record_digest: existing.record_digest,
    submitted_raw_payload_sha256: digest,
    submitted_outcome: outcome,
  };
  writeFileSync(path, goMarshal(report) + "\n");
  return ` A defect report was saved at ${path}`;
}

async function body(invocation: Invocation, traits: ProfileTraits, argv: readonly string[], out: StdoutBuffer): Promise<void> {
  const r = shapeChecks(traits, argv, out);
  if (r === undefined) return; // -h / --help: usage only
  if (r.context !== "" && r.context !== identitiesFor(invocation.scenario.lineage.seed).repositoryContext)
    throw repositoryContextUnavailable();
  if (readLineage(invocation.stateDir, invocation.scenario).rddDisabled)
    // (inferred) native text, mirroring capture-result; the envelope message is the documented rdd_disabled sentence.
    throw rddDisabled(V);
  let payload: Buffer | undefined;
  const record = updateLineage(invocation.stateDir, invocation.scenario, (draft) => {
    checkBinding(invocation, draft, r);
    payload ??= readPayload(invocation, r.input);
    if (payload.length === 0 || payload.length > MAX_EVIDENCE_BYTES) throw invalidRequest("final verification evidence is required");
    const a = authorityOf(invocation.scenario, draft);
    const existing = capturedEvidence(a);
    if (existing !== undefined) {
      // Identical bytes and outcome return the stored record unchanged (inferred: byte-identical output).
      if (sameEvidenceContent(existing, { rawPayloadSha256: sha256Prefixed(payload), outcome: r.outcome })) return existing;
      throw new ReviewRefusal(
        "captured_final_evidence_conflict",
        "captured verification evidence already exists with different bytes or outcome." +
          defectReportClause(invocation.stateDir, existing, payload, r.outcome),
      );
    }
    const created = buildEvidenceRecord(evidenceBinding(a), payload, r.outcome, a.identityMode);
    draft.correction.evidence = recordText(created);
    draft.correction.evidenceOutcome = r.outcome;
    // Passed evidence moves the correction on to targeted validation; failures stay at the evidence stage (STATUS stops).
    if (draft.state === "correction_required") draft.correction.stage = r.outcome === "passed" ? "validation_required" : "evidence_required";
    return created;
  });
  out.write(encodeReviewJson(recordJson(record)));
}

/** review capture-evidence: collect-capture route from v2.4.0, plain route before. */
export function captureEvidence(invocation: Invocation): Promise<Outcome> {
  const traits = traitsOf(invocation.scenario.profile);
  const argv = invocation.argv.slice(2);
  const route = routeFor(argv, "capture-evidence", traits.collectCapture ? "collect-capture" : "plain", scanFlagsOf(captureEvidenceFlags(traits)));
  return runRouted(route, (out) => body(invocation, traits, argv, out));
}
