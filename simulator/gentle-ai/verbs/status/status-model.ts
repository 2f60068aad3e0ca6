// The facts STATUS renders, independent of where they come from: the scenario's synthetic lineage (status-facts.ts) or
// a real Git repository (status-repository-facts.ts). Everything here is what gentle-ai reads from the repository and
// its authority store before it builds the document (reviewtransaction's Snapshot, CompactState and the store's
// captured artifacts, evidence and role slots).
import type { ChangedPathJson } from "../../../state/identities.ts";
import type { CorrectionPlanRequest } from "../../../contract/correction-plan-request.ts";
import type { TargetedValidationRequest } from "../../../contract/targeted-validation-request.ts";
import type { TransitionArtifact } from "./status-context.ts";
import type { SnapshotFacts } from "../../../repository/snapshot.ts";

export type { SnapshotFacts };

/** The reviewer-capture context of the frozen initial snapshot (FrozenCandidateContext plus the slot subjects). */
export interface CaptureFacts {
  readonly manifest: readonly ChangedPathJson[];
  readonly manifestSha256: string;
  /** The v2 subject hash of one selected slot. */
  subjectHash(lens: string, order: number): string;
  /** The frozen candidate's `git diff` bytes (review-integration/v1's candidate_diff). */
  readonly candidateDiff: Buffer;
}

/** The correction side of a compact authority in correction_required. */
export interface CorrectionFacts {
  /** The bounded correction plan request (absent once the correction attempt is consumed). */
  readonly correctionRequest: CorrectionPlanRequest | undefined;
  /** A correction line forecast is recorded. */
  readonly forecasted: boolean;
  /** The provider-owned targeted validation request; present once the corrected candidate exists. */
  readonly validationRequest: TargetedValidationRequest | undefined;
  /** Identity the correction's evidence and repository context bind to (the fix-diff identity). */
  readonly correctionTargetIdentity: string;
  /** The Go-captured provider targeted-validator slot is occupied. */
  readonly validatorCaptured: boolean;
}

/** One compact-v2 authority (CompactState and what its store holds). */
export interface AuthorityFacts {
  readonly lineageId: string;
  readonly state: "reviewing" | "correction_required" | "validating" | "approved";
  readonly generation: number;
  readonly revision: string;
  readonly initial: SnapshotFacts;
  /** CurrentSnapshot.Identity: the target the authority currently governs. */
  readonly currentIdentity: string;
  /** CurrentSnapshot.CandidateTree: the live candidate tree that still matches the authority. */
  readonly currentCandidateTree: string;
  readonly tier: "low" | "medium" | "high";
  readonly originalChangedLines: number;
  readonly selectedLenses: readonly string[];
  /** Captured reviewer artifacts, in slot order. */
  readonly artifacts: readonly TransitionArtifact[];
  /** The published receipt's identity ("" while none is published). */
  readonly receiptIdentity: string;
  /**
   * The repository-context effect negotiated START committed (handle, event id, marker outcome; event and outcome ""
   * without one).
   */
  readonly repositoryContext: {
    readonly handle: string;
    readonly eventId: string;
    readonly outcome: string;
    /** START recorded the effect intent (repository world): STATUS then reports it whatever the contract (301fb2ad). */
    readonly recorded?: boolean;
  };
  readonly capture: CaptureFacts;
  /** The refuter role is required and its slot is still empty. */
  readonly refuterPending: boolean;
  /** Outcome of the captured verification evidence for the current authority and target, if any. */
  readonly evidenceOutcome: string | undefined;
  readonly correction: CorrectionFacts | undefined;
}

/**
 * The live target STATUS freezes (reviewtransaction.Target: kind from the base selector, projection, intended paths).
 */
export interface LiveSelector {
  readonly projection: "workspace" | "staged";
  /** The committed base of a base-diff target ("" for current changes). */
  readonly baseRef: string;
  /** The validated intended-untracked selection (canonical, sorted). */
  readonly intendedUntracked: readonly string[];
}

/** Everything STATUS reads before it renders (one repository, one authority store). */
export interface StatusFacts {
  /** The repository root START's `--cwd` names. */
  readonly repositoryRoot: string;
  /** The clone's receipt-driven-development mode is enabled. */
  readonly rddEnabled: boolean;
  /** Unignored untracked paths eligible for an intended-untracked declaration. */
  readonly untrackedInventory: readonly string[];
  /** The live target under a selector (a freeze failure throws ReadOnlyFailure). */
  live(selector: LiveSelector): SnapshotFacts;
  /** The authority store's live lineages (the scenario holds one; a burned approved lineage is gone). */
  readonly authorities: readonly AuthorityFacts[];
  /**
   * A selector-free `--next-transition` freezes a fresh START target, as gentle-ai does (review_facade.go:977).
   * (deviation) The scenario world answers it for its pinned lineage instead: the harness and the relays read
   * STATUS without --lineage.
   */
  readonly selectorlessFreshTarget: boolean;
  /** The live worktree under a frozen reviewing lineage's own selector no longer reproduces its candidate tree. */
  frozenCandidateDrifted(lineageId: string): boolean;
  /** An exact lineage directory exists (ExactReviewLineageOccupied). */
  lineageOccupied(lineageId: string): boolean;
  /** reviewAtomicStartLineage: the START lineage derived from the worktree and target identities. */
  atomicStartLineage(targetIdentity: string): string;
}
