// Renders the negotiated STATUS document from StatusFacts (review_facade.go:909-1302): the native target status
// (AssessTargetStatusWithSnapshot, reduced to one lineage), newReviewTargetStatusResultForContract, the action
// eligibility, the next transition with what it publishes (repository context, validation request) and the forecast.
import { MANAGED_ACTIONS } from "../../../contract/managed-actions.ts";
import type { StatusV2, StatusV5 } from "../../../contract/status.ts";
import type { Projection } from "../../../contract/projection.ts";
import type { TargetedValidationRequest } from "../../../contract/targeted-validation-request.ts";
import { forecastOf } from "./status-context.ts";
import type { Binding, NextTransition, ProviderRole, TransitionContext } from "./status-context.ts";
import type { AuthorityFacts, SnapshotFacts, StatusFacts } from "./status-model.ts";
import {
  intendedUntrackedCollection,
  lineageSelectionTransition,
  reviewingTransition,
  unrelatedTransition,
} from "./status-reviewing.ts";
import type { UntrackedScope } from "../../../repository/untracked.ts";
import { approvedGateTransition, correctionTransition } from "./status-correction.ts";
import { legacyCorrectionBudget } from "../shared/correction-authority.ts";
import { CONTRACT_V1, CONTRACT_V2 } from "../../../output/envelope.ts";
import { availableStartLineage } from "../../../repository/digests.ts";
import type { RepairAssessment } from "../../../contract/repair-assessment.ts";

const LINEAGE_ID = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/**
 * A plain Go error outside every typed class: the read-only catch-all on the negotiated route, `Error:` on the plain
 * one.
 */
export class ReadOnlyFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ReadOnlyFailure";
  }
}

/**
 * What the renderer needs of the request (status-flags.ts's NegotiatedStatusRequest extends it with the scope inputs).
 */
export interface StatusRenderRequest {
  readonly contract: string;
  readonly runtime: string;
  readonly hostRelay: boolean;
  readonly actionEligibility: boolean;
  readonly nextTransition: boolean;
  readonly lineage: string;
  readonly projection: "workspace" | "staged";
  /** `--gate`: the lifecycle gate an approved receipt's transition names. */
  readonly gate: string;
  /** `--base-ref` (trimmed; "" for a current-changes target). */
  readonly baseRef: string;
  readonly recoverySuccessor: string;
  /** reviewIntendedUntrackedScope for the target (review_intended_untracked.go:47). */
  readonly intendedUntracked: UntrackedScope;
  /** Render correction inputs as for review-integration/v1 (profile 2.3.0's 2.2.x-era shapes). */
  readonly legacyCorrection: boolean;
  /** The profile's START route (ProfileTraits.atomicStart): how a fresh START transition names its lineage. */
  readonly atomicStart: boolean;
  /**
   * ProfileTraits.correctionContextReference: a correction_required or validating authority prints its
   * repository_context.
   */
  readonly correctionContextReference: boolean;
  /** ProfileTraits.approvalBurns: an approved authority is burned; before it, STATUS routes it to the deciding gate. */
  readonly approvalBurns: boolean;
}

export type StatusDocument = StatusV5 | StatusV2;

/** reviewtransaction.validateLineageID (store.go:163). */
function checkLineage(id: string, context: string): void {
  if (id.length === 0 || id.length > 128 || !LINEAGE_ID.test(id))
    throw new ReadOnlyFailure(
      `${context}: lineage_id must be a canonical lowercase kebab-case identifier of at most 128 bytes`,
    );
}

/** The native decision STATUS renders (TargetStatusResult, the parts the simulator models). */
interface Native {
  /** The target STATUS reports: the live one, or a frozen reviewing lineage's initial snapshot. */
  readonly live: SnapshotFacts;
  readonly authority: AuthorityFacts | undefined;
  readonly action: "start" | "finalize" | "validate" | "stop" | "select_lineage";
  readonly replayability: "not_replayable" | "manual_action_required" | "status_required";
  /** An explicit lineage resumes its frozen reviewing candidate over a drifted workspace (FrozenReviewing). */
  readonly frozenReviewing: boolean;
  /** CandidateLineageIDs of an ambiguous target. */
  readonly candidates: readonly string[];
}

/** reviewFreshAtomicTargetStatus / the zero-candidate case: START, or a stop for an empty base diff. */
function unrelated(live: SnapshotFacts, candidates: readonly string[] = []): Native {
  const emptyBaseDiff = live.kind === "base-diff" && live.paths.length === 0;
  return {
    live,
    authority: undefined,
    action: emptyBaseDiff ? "stop" : "start",
    replayability: emptyBaseDiff ? "manual_action_required" : "not_replayable",
    frozenReviewing: false,
    candidates,
  };
}

/** targetStatusForCandidate (target_status.go:566) for the states the simulator reaches. */
function governed(
  live: SnapshotFacts,
  a: AuthorityFacts,
  frozen: { drifted: boolean; pending: boolean } | undefined,
): Native {
  const base = { authority: a, frozenReviewing: frozen !== undefined, candidates: [] };
  if (frozen !== undefined) {
    const reported = { live: a.initial, ...base };
    if (!frozen.pending && frozen.drifted)
      return { ...reported, action: "stop", replayability: "manual_action_required" };
    return { ...reported, action: "finalize", replayability: "not_replayable" };
  }
  return { live, ...base, action: a.state === "approved" ? "validate" : "finalize", replayability: "not_replayable" };
}

/**
 * The native target status (review_facade.go:960-991, target_status.go:219-470): a free explicit `--lineage` with
 * --next-transition, or (where the facts follow gentle-ai) a selector-free one, is a fresh START target; otherwise
 * each authority claims the live target when its frozen base and current candidate tree still match it, a
 * correction_required lineage resumes it, and an explicitly named reviewing lineage over a drifted workspace resumes
 * its frozen candidate. A requested lineage narrows the search unless it owns no authority.
 */
function assess(facts: StatusFacts, req: StatusRenderRequest): Native {
  const requested = req.lineage.trim();
  const live = facts.live({
    projection: req.projection,
    baseRef: req.baseRef,
    intendedUntracked: req.intendedUntracked.intended,
  });
  if (req.nextTransition && requested !== "") {
    checkLineage(requested, "inspect negotiated START lineage occupancy");
    if (!facts.lineageOccupied(requested)) return unrelated(live);
  } else if (req.nextTransition && facts.selectorlessFreshTarget) {
    return unrelated(live);
  } else if (req.lineage !== "") {
    checkLineage(requested, "assess negotiated review target");
  }
  const narrowed = requested !== "" && facts.lineageOccupied(requested);
  const claims: { a: AuthorityFacts; frozen?: { drifted: boolean; pending: boolean } }[] = [];
  for (const a of facts.authorities) {
    if (narrowed && a.lineageId !== requested) continue;
    if (a.initial.projection !== live.projection || a.initial.kind !== live.kind) continue;
    const matches = a.initial.baseTree === live.baseTree && a.currentCandidateTree === live.candidateTree;
    if (
      narrowed &&
      !matches &&
      live.kind === "current-changes" &&
      live.projection !== "staged" &&
      a.state === "reviewing" &&
      a.selectedLenses.length > 0
    ) {
      const pending = a.artifacts.length < a.selectedLenses.length;
      claims.push({ a, frozen: { pending, drifted: !pending && facts.frozenCandidateDrifted(a.lineageId) } });
      continue;
    }
    // (inferred) classifyCompactCorrectionTargetForStatus: a correction_required lineage resumes its target.
    if (a.state === "correction_required" || matches) claims.push({ a });
  }
  claims.sort((x, y) => (x.a.lineageId < y.a.lineageId ? -1 : x.a.lineageId > y.a.lineageId ? 1 : 0));
  if (claims.length === 0) return unrelated(live);
  if (claims.length === 1) return governed(live, claims[0]!.a, claims[0]!.frozen);
  return {
    live,
    authority: undefined,
    action: "select_lineage",
    replayability: "status_required",
    frozenReviewing: false,
    candidates: claims.map((c) => c.a.lineageId),
  };
}

/** The restart projection (projection/v1) STATUS carries, of the live target against the frozen one. */
function projectionJson(native: Native): Projection {
  const { live, authority } = native;
  return {
    schema: "gentle-ai.review-integration.projection/v1",
    kind: live.kind,
    projection: live.projection,
    base_tree: live.baseTree,
    initial_review_tree: authority?.initial.candidateTree ?? live.candidateTree,
    current_candidate_tree: live.candidateTree,
    paths_digest: live.pathsDigest,
    paths: [...live.paths],
    intended_untracked: [...live.intendedUntracked],
    intended_untracked_proof: live.intendedUntrackedProof,
    initial_snapshot_identity: authority?.initial.identity ?? live.identity,
    current_snapshot_identity: live.identity,
  };
}

/** UnsupportedAuthorityRepairAssessment (authority_repair.go:176): the repair block of every uncorrupted STATUS. */
function repairJson(): RepairAssessment {
  return {
    schema: "gentle-ai.review-authority-repair-assessment/v1",
    status: "unsupported",
    counts: {
      lineages: 0,
      compact_lineages: 0,
      legacy_lineages: 0,
      events: 0,
      bytes: 0,
      eligible_candidates: 0,
      unsupported_lineages: 0,
      conflicts: 0,
    },
    supported_operations: ["review/complete-fix", "review/validate-fix"],
    authorization_schema: "gentle-ai.review-repair-authorization/v1",
  };
}

/** newReviewActionEligibility (review_status_contract.go:276-351) for the actions the simulator reaches. */
function eligibilityJson(native: Native, rddEnabled: boolean): NonNullable<StatusV5["eligibility"]> {
  let allowed: { action: string; reason_code: string; required_inputs: string[] };
  if (native.action === "start")
    allowed = rddEnabled
      ? { action: "review.start", reason_code: "eligible_current_target", required_inputs: [] }
      : { action: "stop", reason_code: "forbidden_rdd_disabled", required_inputs: [] };
  else if (native.action === "validate" || native.action === "finalize")
    allowed = { action: "stop", reason_code: "forbidden_required_inputs_unavailable", required_inputs: [] };
  else allowed = { action: "stop", reason_code: "forbidden_manual_intervention_required", required_inputs: [] };
  let forbiddenReason = "forbidden_not_selected_by_native_status";
  if (native.action === "select_lineage") forbiddenReason = "forbidden_ambiguous_authority";
  else if (native.authority === undefined) forbiddenReason = "forbidden_unrelated_target";
  else if (native.action === "stop" && native.authority.state === "correction_required")
    forbiddenReason = "forbidden_unchanged_escalated_candidate";
  else if (allowed.reason_code === "forbidden_required_inputs_unavailable")
    forbiddenReason = "forbidden_required_inputs_unavailable";
  return {
    allowed_actions: [allowed as NonNullable<StatusV5["eligibility"]>["allowed_actions"][number]],
    forbidden_actions: MANAGED_ACTIONS.filter((a) => a !== allowed.action).map((action) => ({
      action,
      reason_code: forbiddenReason,
    })),
  };
}

/**
 * The lineage a fresh START transition names. Atomic route (fb55ef7b reviewStatusStartLineage): a free explicit
 * selector, else the worktree-and-target derivation. Before it (301fb2ad review_facade.go:1241-1244): an unrelated
 * target keeps a free explicit selector, else names a lineage only when the derived one is taken.
 */
function transitionStartLineage(facts: StatusFacts, req: StatusRenderRequest, native: Native): string {
  const requested = req.lineage.trim();
  if (!req.atomicStart) {
    const unrelated = native.authority === undefined && native.action !== "select_lineage";
    if (!unrelated || (requested !== "" && !facts.lineageOccupied(requested))) return requested;
    return availableStartLineage(native.live.identity, (id) => facts.lineageOccupied(id));
  }
  if (native.action !== "start") return requested;
  const wanted = req.recoverySuccessor.trim() || requested;
  if (wanted !== "") checkLineage(wanted, "select STATUS atomic START lineage");
  return wanted !== "" && !facts.lineageOccupied(wanted) ? wanted : facts.atomicStartLineage(native.live.identity);
}

/**
 * Whether the staged candidate is exactly the approved one (review_facade.go:1102-1112, AssessCompactGateTarget's
 * strict pre-commit binding: base tree, candidate tree and paths digest); undefined at a gate other than pre-commit.
 */
function stagedDeliveryExact(facts: StatusFacts, a: AuthorityFacts, gate: string): boolean | undefined {
  if (gate !== "pre-commit") return undefined;
  const staged = facts.live({ projection: "staged", baseRef: "", intendedUntracked: [] });
  return (
    staged.baseTree === a.initial.baseTree &&
    staged.candidateTree === a.currentCandidateTree &&
    staged.pathsDigest === a.initial.pathsDigest
  );
}

/** What the next transition reads and publishes (review_facade.go:1058-1264). */
function transitionOf(
  facts: StatusFacts,
  req: StatusRenderRequest,
  native: Native,
): {
  transition: NextTransition;
  repositoryContext: StatusV5["repository_context"];
  validationRequest: TargetedValidationRequest | undefined;
} {
  const a = native.authority;
  const correctionContract = req.legacyCorrection ? CONTRACT_V1 : req.contract;
  const forecasted = a?.state === "correction_required" && a.correction!.forecasted;
  const published = a === undefined ? NOTHING_PUBLISHED : publishedBy(req, a, correctionContract, forecasted);
  const ctx = transitionContext(facts, req, native, published, correctionContract, forecasted);
  const transition = routeTransition(facts, req, native, ctx, published.handle);
  return {
    transition,
    repositoryContext: published.repositoryContext,
    validationRequest: keepsValidationRequest(transition) ? published.validationRequest : undefined,
  };
}

/** What an authority publishes through its transition: its handle, context, request, evidence and provider role. */
interface Published {
  readonly handle: string;
  readonly repositoryContext: StatusV5["repository_context"];
  readonly validationRequest: TargetedValidationRequest | undefined;
  readonly evidenceOutcome: string | undefined;
  readonly providerRole: ProviderRole | "";
  readonly capturedValidator: boolean;
}

const NOTHING_PUBLISHED: Published = {
  handle: "",
  repositoryContext: undefined,
  validationRequest: undefined,
  evidenceOutcome: undefined,
  providerRole: "",
  capturedValidator: false,
};

function publishedBy(
  req: StatusRenderRequest,
  a: AuthorityFacts,
  correctionContract: string,
  forecasted: boolean,
): Published {
  const validationRequest = forecasted ? a.correction!.validationRequest : undefined;
  const { handle, repositoryContext } = publishedContext(req, a, correctionContract, validationRequest);
  let evidenceOutcome: string | undefined;
  let providerRole: ProviderRole | "" = "";
  let capturedValidator = false;
  if (a.state === "validating" || validationRequest !== undefined) evidenceOutcome = a.evidenceOutcome;
  const roleHost = req.runtime === "opencode" || req.hostRelay;
  if (roleHost && a.state === "reviewing" && a.artifacts.length === a.selectedLenses.length && a.refuterPending)
    providerRole = "refuter";
  if (validationRequest !== undefined && evidenceOutcome === "passed") {
    if (a.correction!.validatorCaptured) capturedValidator = true;
    else if (roleHost) providerRole = "targeted-validator";
  }
  return { handle, repositoryContext, validationRequest, evidenceOutcome, providerRole, capturedValidator };
}

/** The repository-context handle the transition binds, and the repository_context member STATUS prints. */
function publishedContext(
  req: StatusRenderRequest,
  a: AuthorityFacts,
  correctionContract: string,
  validationRequest: TargetedValidationRequest | undefined,
): { handle: string; repositoryContext: StatusV5["repository_context"] } {
  let handle = "";
  let repositoryContext: StatusV5["repository_context"];
  if (correctionContract === CONTRACT_V2 && (a.state === "correction_required" || a.state === "validating")) {
    handle = a.repositoryContext.handle;
    const target = validationRequest?.correction_target_identity ?? a.currentIdentity;
    if (req.correctionContextReference)
      repositoryContext = {
        capability: "review.opaque_repository_context",
        handle,
        revision: a.revision,
        target_identity: target,
      };
  }
  if (a.state === "reviewing") {
    // A lineage whose START recorded the repository-context effect (301fb2ad's negotiated v2 START) publishes its
    // reconciled handle, event and outcome whatever the contract (review_facade.go:1130-1140): recorded from
    // gentle-ai 2.4.0 built from 301fb2ad, status/v2 included, though its published status/v2 schema has no such
    // member. Otherwise (:1141-1150) the handle is printed on v2 only. (inferred) The seeded world's lineage is
    // read as one whose v1 client's own START recorded no effect.
    handle = a.repositoryContext.handle;
    if (req.contract !== CONTRACT_V1 || a.repositoryContext.recorded === true)
      repositoryContext = {
        capability: "review.opaque_repository_context",
        handle,
        revision: a.revision,
        target_identity: a.initial.identity,
        event_id: a.repositoryContext.eventId || undefined,
        outcome: (a.repositoryContext.outcome || undefined) as "applied" | undefined,
      };
  }
  return { handle, repositoryContext };
}

function transitionContext(
  facts: StatusFacts,
  req: StatusRenderRequest,
  native: Native,
  published: Published,
  correctionContract: string,
  forecasted: boolean,
): TransitionContext {
  const startLineage = transitionStartLineage(facts, req, native);
  return {
    contract: req.contract,
    runtime: req.runtime,
    hostRelay: req.hostRelay,
    repositoryContext: published.handle,
    correctionContract,
    providerRole: published.providerRole,
    capturedProviderTargetedValidator: published.capturedValidator,
    validationRequest: published.validationRequest,
    correctionRequest: native.authority?.correction?.correctionRequest,
    correctionForecasted: forecasted,
    capturedEvidenceOutcome: published.evidenceOutcome,
    startLineage,
    // Explicit reviewing resume keeps the frozen scope its artifacts bind (review_facade.go:994-1001).
    intendedUntracked: native.frozenReviewing
      ? { declared: true, intended: native.live.intendedUntracked, digest: "" }
      : req.intendedUntracked,
    rddEnabled: facts.rddEnabled,
    repositoryRoot: facts.repositoryRoot,
  };
}

/** The transition the native action routes to, or the untracked selection that must come first. */
function routeTransition(
  facts: StatusFacts,
  req: StatusRenderRequest,
  native: Native,
  ctx: TransitionContext,
  handle: string,
): NextTransition {
  const a = native.authority;
  let transition: NextTransition;
  if (native.action === "select_lineage") transition = lineageSelectionTransition(native.live, native.candidates);
  else if (a === undefined) transition = unrelatedTransition(native.live, ctx);
  else {
    const binding: Binding = {
      lineageId: a.lineageId,
      revision: a.revision,
      targetIdentity: a.state === "validating" ? a.currentIdentity : native.live.identity,
      repositoryContext: handle,
    };
    if (a.state === "reviewing") transition = reviewingTransition(a, binding, ctx);
    else if (a.state === "approved" && !req.approvalBurns)
      transition = approvedGateTransition(binding, req.gate, stagedDeliveryExact(facts, a, req.gate));
    else transition = correctionTransition(a, binding, ctx);
  }
  // An undeclared untracked inventory asks for the selection first, unless the kill switch stops
  // (review_facade.go:1282-1286).
  if (
    req.intendedUntracked.needsSelection &&
    !native.frozenReviewing &&
    !(transition.kind === "stop" && transition.reason_code === "rdd_disabled")
  )
    transition = intendedUntrackedCollection(native.live, req.intendedUntracked);
  return transition;
}

/** The top-level request stays only while the transition still routes through it (review_facade.go:1249-1257). */
function keepsValidationRequest(transition: NextTransition): boolean {
  const inputs = transition.collect?.inputs ?? [];
  const carried = inputs.length === 1 && inputs[0]!.validation_request !== undefined;
  return (
    carried ||
    transition.reason_code === "correction_repository_verification_required" ||
    transition.reason_code === "correction_repository_tooling_failed" ||
    (transition.reason_code === "targeted_validation_required" &&
      inputs.length === 1 &&
      "provider_task" in inputs[0]! &&
      inputs[0]!.provider_task !== undefined) ||
    (transition.reason_code === "captured_provider_targeted_validation_ready" &&
      transition.execute?.operation === "review.finalize")
  );
}

/** The negotiated STATUS document (status/v5 for review-integration/v2, status/v2 for /v1), in Go field order. */
export function renderStatus(facts: StatusFacts, req: StatusRenderRequest): StatusDocument {
  const native = assess(facts, req);
  const a = native.authority;
  const v2 = req.contract === CONTRACT_V2;
  const current = a !== undefined;
  let receipt: StatusV5["receipt"] = { status: "not_applicable" };
  if (a !== undefined)
    receipt =
      a.receiptIdentity !== ""
        ? { status: "present", identity: a.receiptIdentity }
        : a.state === "approved"
          ? { status: "publication_pending" }
          : { status: "expected_missing" };
  let next = req.nextTransition ? transitionOf(facts, req, native) : undefined;
  // An undeclared untracked inventory asks for the selection even without --next-transition
  // (review_facade.go:1282-1286).
  if (next === undefined && req.intendedUntracked.needsSelection && !native.frozenReviewing)
    next = {
      transition: intendedUntrackedCollection(native.live, req.intendedUntracked),
      repositoryContext: undefined,
      validationRequest: undefined,
    };
  return {
    schema: v2 ? "gentle-ai.review-integration.status/v5" : "gentle-ai.review-integration.status/v2",
    contract: v2 ? CONTRACT_V2 : CONTRACT_V1,
    operation: "review.status",
    applicability: current ? "current_target" : native.action === "select_lineage" ? "ambiguous" : "unrelated",
    authority:
      a === undefined
        ? undefined
        : {
            version: "compact-v2",
            lineage_id: a.lineageId,
            state: a.state,
            generation: a.generation,
            revision: a.revision,
          },
    receipt,
    action: native.action,
    replayability: native.replayability,
    frozen:
      a === undefined
        ? undefined
        : {
            tier: a.tier,
            original_changed_lines: a.originalChangedLines,
            correction_budget: legacyCorrectionBudget(a.originalChangedLines),
          },
    target_identity: native.live.identity,
    authority_target_identity:
      a !== undefined && a.currentIdentity !== native.live.identity ? a.currentIdentity : undefined,
    projection: projectionJson(native),
    repair: repairJson(),
    candidates: [...native.candidates],
    eligibility: req.actionEligibility ? eligibilityJson(native, facts.rddEnabled) : undefined,
    forecast: v2 && next !== undefined ? forecastOf(next.transition) : undefined,
    next_transition: next?.transition,
    repository_context: next?.repositoryContext,
    validation_request: next?.validationRequest,
  } as StatusDocument;
}
