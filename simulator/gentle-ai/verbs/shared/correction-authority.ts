// The provider-owned values of a correction / validating lineage, derived from the persisted lineage and the seed so
// STATUS, capture-evidence, finalize and the role vectors agree across processes. The documents follow gentle-ai's
// structs field by field (reviewtransaction: TargetedValidationRequest, CorrectionPlanRequest, Finding,
// FindingEvidence).
import { goMarshal } from "../../../go/go-json.ts";
import { FIX_FINDING_ID, identitiesFor, pathsDigest, sha256Prefixed } from "../../../state/identities.ts";
import type { Identities, IdentitySource } from "../../../state/identities.ts";
import type { FixFinding, LineageState } from "../../../state/lineage-state.ts";
import { buildEvidenceRecord, parseEvidenceRecord } from "../../../state/evidence-record.ts";
import type { EvidenceBinding, IdentityMode, VerificationEvidenceRecord } from "../../../state/evidence-record.ts";
import type { Scenario } from "../../../scenario/schema.ts";
import type { CorrectionPlanRequest } from "../../../contract/correction-plan-request.ts";
import type { TargetedValidationRequest } from "../../../contract/targeted-validation-request.ts";
import { NATIVE_POLICY_CONTENT } from "../../../contract/native-policy.ts";

export const VALIDATION_REQUEST_SCHEMA = "gentle-ai.review-targeted-validation-request/v1";
export const CORRECTION_PLAN_REQUEST_SCHEMA = "gentle-ai.review-correction-plan-request/v1";
/** reviewtransaction.MaxCorrectionChangedLines (risk.go:20). */
const MAX_CORRECTION_CHANGED_LINES = 200;

/** The current authority values of one lineage. */
export interface Authority {
  readonly ids: Identities;
  readonly lineage: LineageState;
  readonly lineageId: string;
  readonly targetIdentity: string;
  readonly revision: string;
  readonly repositoryContext: string;
  /** validation_request.request_hash (prefixed; inferred derivation). */
  readonly requestHash: string;
  /** correction_request.request_hash: gentle-ai's correctionPlanRequestHash of the request. */
  readonly correctionRequestHash: string;
  readonly correctionTargetIdentity: string;
  readonly identityMode: IdentityMode;
  /** The findings the correction fixes: FINALIZE's classification when recorded, else the scenario's seeded one. */
  readonly fixFindings: readonly FixFinding[];
  /** The request carries the frozen policy and the fix findings' evidence (fb55ef7b; 301fb2ad's struct has neither). */
  readonly policyInValidationRequest: boolean;
  /**
   * A handle published for an earlier revision still resolves when its target is live (301fb2ad keeps the
   * repository-context effect intent of that revision; fb55ef7b does not, so it is stale there). Real 2.4.0/2.5.0
   * bytes.
   */
  readonly earlierContextResolves: boolean;
}

/** Derives the authority of the persisted lineage, through the call's identity world. */
export function authorityOf(scenario: Scenario, lineage: LineageState, source: IdentitySource | undefined): Authority {
  const ids = identitiesFor(lineage.seed, source);
  const revision = ids.revision(lineage.revisionIndex);
  const fixFindings = lineage.correction.fixFindings ?? [seededFixFinding(ids)];
  const fixIds = fixFindings.map((x) => x.id);
  const a: Authority = {
    ids,
    lineage,
    lineageId: ids.lineageId,
    targetIdentity: ids.targetIdentity,
    revision,
    repositoryContext: ids.repositoryContext,
    requestHash: ids.requestHash(lineage.revisionIndex),
    correctionRequestHash: correctionPlanRequestHash(correctionPlanBody(ids, revision, fixFindings)),
    // The fix-diff snapshot's ledger is the authority's fix finding ids (snapshot.go:1524 ledgerIDs).
    correctionTargetIdentity:
      lineage.correction.fixFindings === undefined ? ids.correctionTargetIdentity : ids.correctionIdentity(fixIds),
    identityMode: scenario.identities,
    fixFindings,
    policyInValidationRequest: scenario.profile === "2.5.0",
    earlierContextResolves: scenario.profile !== "2.5.0",
  };
  // The handle STATUS publishes binds the current revision and live target (PublishReviewRepositoryContext).
  const target = contextTarget(a);
  return target === undefined ? a : { ...a, repositoryContext: ids.contextHandle(target, revision) };
}

/**
 * The target the handle's record validates against (`validateReviewRepositoryContextRecord`, repository_locator.go:
 * 383-420): the initial target while reviewing, the current one while validating or before a forecast, the corrected
 * candidate once it exists; undefined when none is live (a forecast without a corrected candidate, or approved).
 */
export function contextTarget(a: Authority): string | undefined {
  const l = a.lineage;
  if (l.state === "approved") return undefined;
  if (l.state !== "correction_required" || l.correction.forecastLines === null) return a.targetIdentity;
  return correctionCandidatePresent(a) ? a.correctionTargetIdentity : undefined;
}

/** The (target, revision) an earlier handle of this lineage was published for, or undefined for any other handle. */
export function earlierContextBinding(a: Authority, handle: string): { target: string; revision: string } | undefined {
  for (let index = a.lineage.revisionIndex - 1; index >= 0; index--) {
    const revision = a.ids.revision(index);
    for (const target of [a.targetIdentity, a.correctionTargetIdentity])
      if (a.ids.contextHandle(target, revision) === handle) return { target, revision };
  }
  return undefined;
}

/**
 * Whether the corrected candidate exists (fix diff present): the correction stages after the forecast and candidate,
 * or, for a workspace-read correction, a forecast lineage whose workspace now changes a genesis path.
 */
export function correctionCandidatePresent(a: Authority): boolean {
  const stage = a.lineage.correction.stage;
  if (a.lineage.state !== "correction_required") return false;
  if (stage === "evidence_required" || stage === "validation_required") return true;
  return stage === "candidate_unavailable" && a.ids.correctionFromWorkspace && a.ids.correctionPaths.length > 0;
}

/**
 * The target a verification evidence record binds to now: the fix-diff identity in correction_required, the frozen
 * target in validating; undefined when none can be derived (no forecast or corrected candidate yet, other states).
 */
export function evidenceTarget(a: Authority): string | undefined {
  if (a.lineage.state === "validating") return a.targetIdentity;
  return correctionCandidatePresent(a) ? a.correctionTargetIdentity : undefined;
}

/** The binding of the evidence record for the current authority (only meaningful when evidenceTarget is defined). */
export function evidenceBinding(a: Authority): EvidenceBinding {
  const correction = a.lineage.state === "correction_required";
  return {
    lineageId: a.lineageId,
    authorityRevision: a.revision,
    targetIdentity: correction ? a.correctionTargetIdentity : a.targetIdentity,
    candidateTree: correction ? a.ids.correctionCandidateTree : a.ids.candidateTree,
    pathsDigest: correction ? a.ids.correctionPathsDigest : pathsDigest(a.ids.paths),
    paths: correction ? a.ids.correctionPaths : a.ids.paths,
    ledgerIds: correction ? a.fixFindings.map((x) => x.id) : [],
  };
}

/** The payload of a record the scenario declares as already captured (inferred bytes). */
export function seededEvidencePayload(outcome: string): Buffer {
  return Buffer.from(`simulated repository verification: ${outcome}\n`, "utf8");
}

/** The captured evidence record, if any: persisted by capture-evidence, or seeded by the scenario. */
export function capturedEvidence(a: Authority): VerificationEvidenceRecord | undefined {
  const c = a.lineage.correction;
  if (c.evidence !== null) return parseEvidenceRecord(c.evidence);
  if (c.evidenceOutcome === null || evidenceTarget(a) === undefined) return undefined;
  return buildEvidenceRecord(
    evidenceBinding(a),
    seededEvidencePayload(c.evidenceOutcome),
    c.evidenceOutcome,
    a.identityMode,
  );
}

/** The original changed line count (`frozen.original_changed_lines`): additions plus deletions of the manifest. */
export function originalChangedLines(ids: Identities): number {
  return ids.manifest.reduce((n, m) => n + m.additions + m.deletions, 0);
}

/**
 * reviewtransaction.CorrectionBudget (risk.go:227): half the changed lines rounded up, capped at 200. STATUS freezes
 * `frozen.correction_budget` with it (review_status_contract.go:245).
 */
export function legacyCorrectionBudget(lines: number): number {
  return Math.min(MAX_CORRECTION_CHANGED_LINES, Math.floor(lines / 2) + (lines % 2));
}

/**
 * The compact authority's frozen correction budget (CompactCorrectionBudget, risk.go:241, the floor-two policy new
 * compact states persist): what correction_request.correction_budget and the correction-lines maximum carry.
 */
export function correctionBudget(ids: Identities): number {
  const lines = originalChangedLines(ids);
  const legacy = legacyCorrectionBudget(lines);
  return lines > 0 && legacy < 2 ? 2 : legacy;
}

type FixClassification = NonNullable<TargetedValidationRequest["fix_classifications"]>[number];

/**
 * (inferred) the seeded candidate-caused CRITICAL finding on the first genesis path, as compact authority stores it.
 */
function seededFixFinding(ids: Identities): FixFinding {
  const path = ids.paths[0] ?? ".";
  return {
    id: FIX_FINDING_ID,
    lens: "risk",
    location: `${path}:1`,
    severity: "CRITICAL",
    claim: "Simulated candidate-caused defect that the correction must fix.",
    proof_refs: [`${path}:1 changed hunk`, "reproduced candidate failure"],
    evidence_class: "deterministic",
    causal_disposition: "introduced",
  };
}

/** A finding's causal classification (FindingEvidence; proof = proof_refs joined, review_facade.go:3481-3484). */
function classificationOf(f: FixFinding): FixClassification {
  return {
    finding_id: f.id,
    class: f.evidence_class as "deterministic",
    causal_disposition: f.causal_disposition as "introduced",
    proof: f.proof_refs.join("; "),
  };
}

/**
 * The top-level STATUS `validation_request` (TargetedValidationRequest field order). At 301fb2ad (2.4.0) the struct
 * has no policy_content, fix_findings or fix_classifications (targeted_validation_request.go:19-31; real 2.4.0 bytes).
 */
export function validationRequestJson(a: Authority): TargetedValidationRequest {
  const evidence = a.policyInValidationRequest
    ? {
        policy_content: NATIVE_POLICY_CONTENT,
        fix_findings: a.fixFindings.map((x) => ({
          ...x,
          proof_refs: [...x.proof_refs],
        })) as TargetedValidationRequest["fix_findings"],
        fix_classifications: a.fixFindings.map(classificationOf),
      }
    : {};
  return {
    schema: VALIDATION_REQUEST_SCHEMA,
    request_hash: a.requestHash,
    lineage_id: a.lineageId,
    expected_revision: a.revision,
    target_identity: a.targetIdentity,
    fix_finding_ids: a.fixFindings.map((x) => x.id),
    ...evidence,
    projection: "workspace",
    correction_candidate_tree: a.ids.correctionCandidateTree,
    correction_target_identity: a.correctionTargetIdentity,
    correction_paths: [...a.ids.correctionPaths],
    correction_paths_digest: a.ids.correctionPathsDigest,
  };
}

type PlanBody = Omit<CorrectionPlanRequest, "request_hash">;

/** The request without its hash: exactly the hash preimage's fields (correction_plan_request.go:121). */
function correctionPlanBody(ids: Identities, revision: string, fixFindings: readonly FixFinding[]): PlanBody {
  return {
    schema: CORRECTION_PLAN_REQUEST_SCHEMA,
    lineage_id: ids.lineageId,
    expected_revision: revision,
    target_identity: ids.targetIdentity,
    correction_budget: correctionBudget(ids),
    fix_finding_ids: fixFindings.map((x) => x.id),
    findings: fixFindings.map((x) => ({
      id: x.id,
      lens: x.lens,
      location: x.location,
      severity: x.severity,
      claim: x.claim,
      proof_refs: [...x.proof_refs],
      evidence: classificationOf(x).proof,
      evidence_class: x.evidence_class,
      causal_disposition: x.causal_disposition,
    })) as PlanBody["findings"],
  };
}

/** correctionPlanRequestHash: sha256 over the schema id, NUL and the compact JSON preimage (the body, in its order). */
function correctionPlanRequestHash(body: PlanBody): string {
  return sha256Prefixed(Buffer.from(`${CORRECTION_PLAN_REQUEST_SCHEMA}\u0000${goMarshal(body)}`, "utf8"));
}

/**
 * The `correction_request` of correction_plan_required / corrected_candidate_unavailable (CorrectionPlanRequest order).
 */
export function correctionRequestJson(a: Authority): CorrectionPlanRequest {
  const { schema, ...rest } = correctionPlanBody(a.ids, a.revision, a.fixFindings);
  return { schema, request_hash: a.correctionRequestHash, ...rest };
}
