// The provider-owned values of a correction / validating lineage, derived from the persisted lineage and the seed
// so STATUS, capture-evidence, finalize and the role vectors agree across processes.
import type { GoJson } from "../../output/go-json.ts";
import { identitiesFor, pathsDigest, sha256Hex } from "../../state/identities.ts";
import type { Identities } from "../../state/identities.ts";
import type { LineageState } from "../../state/lineage-state.ts";
import { buildEvidenceRecord, parseEvidenceRecord } from "../../state/evidence-record.ts";
import type { EvidenceBinding, IdentityMode, VerificationEvidenceRecord } from "../../state/evidence-record.ts";
import type { Scenario } from "../../scenario/schema.ts";

export const VALIDATION_REQUEST_SCHEMA = "gentle-ai.review-targeted-validation-request/v1";
/** (inferred) the ledger id of the single seeded CRITICAL finding the correction fixes. */
export const FIX_FINDING_ID = "R1-001";

/** The current authority values of one lineage. */
export interface Authority {
  readonly ids: Identities;
  readonly lineage: LineageState;
  readonly lineageId: string;
  readonly targetIdentity: string;
  readonly revision: string;
  readonly repositoryContext: string;
  /** validation_request.request_hash (prefixed). */
  readonly requestHash: string;
  /** correction_request.request_hash (prefixed, inferred derivation). */
  readonly correctionRequestHash: string;
  readonly correctionTargetIdentity: string;
  readonly identityMode: IdentityMode;
}

/** Derives the authority of the persisted lineage. */
export function authorityOf(scenario: Scenario, lineage: LineageState): Authority {
  const ids = identitiesFor(lineage.seed);
  return {
    ids,
    lineage,
    lineageId: ids.lineageId,
    targetIdentity: ids.targetIdentity,
    revision: ids.revision(lineage.revisionIndex),
    repositoryContext: ids.repositoryContext,
    requestHash: ids.requestHash(lineage.revisionIndex),
    correctionRequestHash: "sha256:" + sha256Hex(`gentle-ai-sim\u0000correction-request/${lineage.revisionIndex}\u0000${lineage.seed}`),
    correctionTargetIdentity: ids.correctionTargetIdentity,
    identityMode: scenario.identities,
  };
}

/** Whether the corrected candidate exists (fix diff present): the correction stages after the forecast and candidate. */
export function correctionCandidatePresent(a: Authority): boolean {
  const stage = a.lineage.correction.stage;
  return a.lineage.state === "correction_required" && (stage === "evidence_required" || stage === "validation_required");
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
    pathsDigest: correction ? a.ids.correctionPathsDigest : pathsDigest(a.ids.manifest.map((m) => m.path)),
    paths: correction ? a.ids.correctionPaths : a.ids.manifest.map((m) => m.path),
    ledgerIds: correction ? [FIX_FINDING_ID] : [],
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
  return buildEvidenceRecord(evidenceBinding(a), seededEvidencePayload(c.evidenceOutcome), c.evidenceOutcome, a.identityMode);
}

/** The original changed line count (`frozen.original_changed_lines`): additions plus deletions of the manifest. */
export function originalChangedLines(ids: Identities): number {
  return ids.manifest.reduce((n, m) => n + m.additions + m.deletions, 0);
}

/** The frozen correction budget, as status.ts renders `frozen.correction_budget` (inferred formula). */
export function correctionBudget(ids: Identities): number {
  return Math.max(1, Math.floor(originalChangedLines(ids) / 2));
}

/** The top-level STATUS `validation_request` (§8.4 key order). */
export function validationRequestJson(a: Authority): GoJson {
  const path = a.ids.correctionPaths[0] ?? ".";
  return {
    schema: VALIDATION_REQUEST_SCHEMA,
    request_hash: a.requestHash,
    lineage_id: a.lineageId,
    expected_revision: a.revision,
    target_identity: a.targetIdentity,
    fix_finding_ids: [FIX_FINDING_ID],
    // (inferred) shapes of the policy and finding members; only the key set is documented.
    policy_content:
      "Validate only the listed fix findings against the frozen correction candidate: original_criteria proves each finding is resolved; correction_regression proves the fix diff introduces no regression.",
    fix_findings: [
      {
        id: FIX_FINDING_ID,
        lens: "review-reliability",
        location: `${path}:1`,
        severity: "CRITICAL",
        claim: "Simulated candidate-caused defect that the correction must fix.",
        proof_refs: [`${path}:1`],
        evidence_class: "deterministic",
        causal_disposition: "candidate_caused",
      },
    ],
    fix_classifications: [{ finding_id: FIX_FINDING_ID, classification: "fix" }],
    projection: "workspace",
    correction_candidate_tree: a.ids.correctionCandidateTree,
    correction_target_identity: a.correctionTargetIdentity,
    correction_paths: [...a.ids.correctionPaths],
    correction_paths_digest: a.ids.correctionPathsDigest,
  };
}

/** The `correction_request` carried by the correction_plan_required transition (inferred shape). */
export function correctionRequestJson(a: Authority): GoJson {
  return {
    schema: "gentle-ai.review-correction-request/v1",
    request_hash: a.correctionRequestHash,
    lineage_id: a.lineageId,
    expected_revision: a.revision,
    target_identity: a.targetIdentity,
    fix_finding_ids: [FIX_FINDING_ID],
    correction_budget: correctionBudget(a.ids),
  };
}
