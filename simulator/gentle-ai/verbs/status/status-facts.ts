// STATUS facts from the scenario's synthetic lineage: one repository whose worktree holds the lineage's frozen
// candidate (or, once a correction candidate exists, the corrected one), one compact-v2 authority in the state dir.
// status-repository-facts.ts implements the same StatusFacts from a real Git repository, reusing authorityFacts.
import { resolve } from "node:path";
import type { Invocation } from "../../invocation.ts";
import { readLineage } from "../../lineage.ts";
import {
  changedPathManifest,
  emptyIntendedUntrackedProof,
  sha256Hex,
  snapshotIdentity,
} from "../../../state/identities.ts";
import type { Identities, IdentitySource } from "../../../state/identities.ts";
import type { Lens } from "../../../scenario/lineage-spec.ts";
import {
  authorityOf,
  capturedEvidence,
  correctionCandidatePresent,
  correctionRequestJson,
  originalChangedLines,
  validationRequestJson,
} from "../shared/correction-authority.ts";
import type { LineageState } from "../../../state/lineage-state.ts";
import type { Scenario } from "../../../scenario/schema.ts";
import { ReadOnlyFailure } from "./status-document.ts";
import type { AuthorityFacts, SnapshotFacts, StatusFacts } from "./status-model.ts";
import type { TransitionArtifact } from "./status-context.ts";

function snapshot(
  ids: Identities,
  projection: "workspace" | "staged",
  candidateTree: string,
  workspaceIdentity: string,
): SnapshotFacts {
  return {
    kind: "current-changes",
    projection,
    baseTree: ids.baseTree,
    candidateTree,
    paths: ids.paths,
    pathsDigest: ids.pathsDigest,
    intendedUntracked: [],
    intendedUntrackedProof: emptyIntendedUntrackedProof(),
    identity:
      projection === "staged"
        ? snapshotIdentity("current-changes", "staged", ids.baseTree, candidateTree, ids.pathsDigest)
        : workspaceIdentity,
  };
}

/**
 * (inferred) the review tier follows from the selected lenses, the inverse of SelectReviewLenses (risk.go): low
 * selects none, medium one, high all four; a scenario selecting two or three lenses is read as high.
 */
function tierOf(lensCount: number): "low" | "medium" | "high" {
  return lensCount === 0 ? "low" : lensCount === 1 ? "medium" : "high";
}

/** What a lineage froze at START beyond its identities (a repository lineage's real snapshot and tier). */
export interface FrozenFacts {
  readonly initial: SnapshotFacts;
  readonly tier: "low" | "medium" | "high";
  readonly originalChangedLines: number;
}

/** The compact authority of one persisted lineage, read through its identities in the call's identity world. */
export function authorityFacts(
  scenario: Scenario,
  lineage: LineageState,
  source: IdentitySource | undefined,
  frozen?: FrozenFacts,
): AuthorityFacts {
  const a = authorityOf(scenario, lineage, source);
  const ids = a.ids;
  const corrected = correctionCandidatePresent(a);
  const artifacts: TransitionArtifact[] = [];
  lineage.lenses.forEach((lens, order) => {
    const slot = lineage.captured[lens];
    if (slot === undefined) return;
    artifacts.push({
      schema: "gentle-ai.review-result-artifact/v2",
      capability: "review.native_result_artifact",
      sha256: slot.canonicalSha256,
      lineage_id: ids.lineageId,
      target_identity: ids.targetIdentity,
      lens,
      selected_order: order,
      subject_hash: ids.subjectHash(lens),
      admission_decision: "completed",
    });
  });
  const c = lineage.correction;
  return {
    lineageId: ids.lineageId,
    state: lineage.state,
    generation: lineage.generation,
    revision: a.revision,
    initial: frozen?.initial ?? snapshot(ids, "workspace", ids.candidateTree, ids.targetIdentity),
    currentIdentity: ids.targetIdentity,
    // (inferred) the authority's current candidate stays the frozen one until a corrected candidate is validated.
    currentCandidateTree: ids.candidateTree,
    tier: frozen?.tier ?? tierOf(lineage.lenses.length),
    originalChangedLines: frozen?.originalChangedLines ?? originalChangedLines(ids),
    selectedLenses: lineage.lenses,
    artifacts,
    // (inferred) approval publishes the receipt in the same step, so an approved lineage always has one.
    receiptIdentity: lineage.state === "approved" ? ids.receiptIdentity : "",
    // The lineage was opened by negotiated START, which commits the repository-context effect (applied).
    // The handle of the current (target, revision): a repository lineage publishes a new one per revision.
    repositoryContext: { handle: a.repositoryContext, eventId: ids.eventId(lineage.revisionIndex), outcome: "applied" },
    capture: {
      manifest: changedPathManifest(ids.manifest),
      manifestSha256: ids.manifestSha256,
      subjectHash: (lens) => ids.subjectHash(lens as Lens),
      candidateDiff: ids.candidateDiff,
    },
    refuterPending: scenario.lineage.refuter && !c.refuterCaptured,
    evidenceOutcome: capturedEvidence(a)?.outcome,
    correction:
      lineage.state === "correction_required"
        ? {
            correctionRequest: correctionRequestJson(a),
            forecasted: c.stage !== null && c.stage !== "plan_required",
            validationRequest: corrected ? validationRequestJson(a) : undefined,
            correctionTargetIdentity: a.correctionTargetIdentity,
            validatorCaptured: c.validatorCaptured,
          }
        : undefined,
  };
}

/** The facts of the scenario's repository and its single lineage, as persisted in the state dir. */
export function scenarioStatusFacts(invocation: Invocation, cwdFlag: string): StatusFacts {
  const lineage = readLineage(invocation.stateDir, invocation.scenario, invocation.identitySource);
  const authority = authorityFacts(invocation.scenario, lineage, invocation.identitySource);
  const a = authorityOf(invocation.scenario, lineage, invocation.identitySource);
  const ids = a.ids;
  const corrected = correctionCandidatePresent(a);
  const liveTree = corrected ? ids.correctionCandidateTree : ids.candidateTree;
  const liveIdentity = corrected ? ids.correctionLiveIdentity : ids.targetIdentity;
  return {
    // (inferred) the repository root is the `--cwd` directory itself: the synthetic repository has no nesting.
    repositoryRoot: resolve(invocation.cwd, cwdFlag),
    rddEnabled: !lineage.rddDisabled,
    untrackedInventory: [],
    live: (selector) => {
      // (inferred) the synthetic repository resolves no base reference or tree, so freezing such a target fails.
      if (selector.baseRef !== "")
        throw new ReadOnlyFailure(
          "freeze negotiated review target: the simulated repository resolves no base selector",
        );
      return snapshot(ids, selector.projection, liveTree, liveIdentity);
    },
    authorities: [authority],
    selectorlessFreshTarget: false,
    frozenCandidateDrifted: () => false,
    lineageOccupied: (id) => id === ids.lineageId,
    // (inferred) the worktree identity is not modelled; the derivation keeps START's `review-<16 hex>` form.
    atomicStartLineage: (target) =>
      "review-" + sha256Hex(`gentle-ai-sim\u0000atomic-start\u0000${target}`).slice(0, 16),
  };
}
