// The delivery gate that decides (gentle-ai 2.4.0, 301fb2ad cli/review_facade.go runReviewFacadeValidate :3535-3737,
// discoverCompactFacadeGateReview :3739-4063, reviewtransaction/compact_gate.go): the kill switch first, then receipt
// discovery over the clone's approved compact authorities, each assessed against the live gate target; one exact
// receipt allows delivery, none denies it. Reduced to what the simulator reaches: post-apply and pre-commit targets,
// approved (never escalated) authorities, no legacy-v1 or v3 stores.
import { resolve } from "node:path";
import type { Invocation } from "../../invocation.ts";
import type { DecidedGateResult, GateContext } from "../../../contract/gate-result.ts";
import { nativeError, ReviewRefusal } from "../../refusal.ts";
import { inRepositoryWorld, lineageScenario, repositoryScopeAt } from "../../repository-scope.ts";
import type { RepositoryScope } from "../../repository-scope.ts";
import { lineageDir, listLineageRecords, readLineageRecord } from "../../../repository/lineage-store.ts";
import type { RepositoryLineageRecord } from "../../../repository/lineage-store.ts";
import { readLineage } from "../../lineage.ts";
import { buildSnapshot } from "../../../repository/snapshot.ts";
import type { Snapshot } from "../../../repository/snapshot.ts";
import { ModeError, modeStatus } from "../../../repository/review-mode.ts";
import { EMPTY_HASH, nativePolicyHash } from "../../../repository/start-revision.ts";
import { authorityFacts } from "../status/status-facts.ts";
import { authorityOf, capturedEvidence } from "../shared/correction-authority.ts";
import type { AuthorityFacts } from "../status/status-model.ts";
import { DISABLED_REASON } from "./gate-reasons.ts";

const ALLOW_REASON = "authoritative transaction, current repository target, and content-bound artifacts match";

/** ReviewReceiptDiscoveryError kinds the simulator reaches, with their Error() text (review_facade.go:320-330). */
const DISCOVERY_REASONS = {
  receipt_missing: "no terminal review receipt exists for gate validation",
  receipt_unrelated: "no approved review receipt covers this candidate; review it with gentle-ai review start",
} as const;
type DiscoveryCode = keyof typeof DISCOVERY_REASONS;

/** What the gate answers: a result it prints and succeeds with, or a discovery denial. */
export type GateDecision =
  | { readonly kind: "result"; readonly result: DecidedGateResult }
  | { readonly kind: "denied"; readonly code: DiscoveryCode };

/** The request the deciding gate reads. */
export interface GateRequest {
  readonly cwd: string;
  readonly gate: GateContext["gate"];
  /** `--lineage` ("" when absent). */
  readonly lineage: string;
}

/** GateContext{Gate: gate}: every binding member empty. */
function emptyContext(gate: GateContext["gate"]): GateContext {
  return {
    gate,
    lineage_id: "",
    generation: 0,
    base_tree: "",
    candidate_tree: "",
    paths_digest: "",
    fix_delta_hash: "",
    policy_hash: "",
    ledger_hash: "",
    evidence_hash: "",
    base_relationship_valid: false,
  };
}

/** The gate result of a discovery denial on the plain route (the negotiated route returns the error instead). */
export function discoveryDenial(gate: GateContext["gate"], code: DiscoveryCode): DecidedGateResult {
  return {
    schema: "gentle-ai.review-gate-result/v1",
    result: "invalidated",
    allowed: false,
    action: "explicit-maintainer-action",
    reason: DISCOVERY_REASONS[code],
    context: { ...emptyContext(gate), denial: { stage: "receipt-discovery", code } },
  };
}

/**
 * The refusal a discovery denial becomes: on the plain route ReviewGateDeniedError names the runnable continuation
 * (review.go:222-300, reviewDiscoveryDenialContinuation); negotiated, the discovery error itself is the failure.
 */
export function discoveryRefusal(code: DiscoveryCode, negotiated: boolean): ReviewRefusal {
  if (negotiated) return new ReviewRefusal(code, DISCOVERY_REASONS[code], "preflight");
  return new ReviewRefusal(
    code,
    "review lifecycle gate denied: invalidated: no terminal review receipt governs this candidate; review it with gentle-ai review start",
  );
}

/** One approved compact authority of the clone and the evidence its receipt binds. */
interface Approved {
  readonly record: RepositoryLineageRecord;
  readonly authority: AuthorityFacts;
  readonly evidenceHash: string;
}

function approvedAuthority(
  invocation: Invocation,
  scope: RepositoryScope,
  record: RepositoryLineageRecord,
): Approved | undefined {
  const scenario = lineageScenario(invocation.scenario, record, false);
  const source = invocation.identitySource;
  const lineage = readLineage(lineageDir(scope.storeRoot, record.lineageId), scenario, source);
  if (lineage.state !== "approved") return undefined;
  const authority = authorityFacts(scenario, lineage, source, {
    initial: record.snapshot,
    tier: record.risk.level,
    originalChangedLines: record.risk.changedLines,
  });
  // (inferred) a low-risk approval binds no captured evidence: its hash is empty.
  const evidenceHash = capturedEvidence(authorityOf(scenario, lineage, source))?.raw_payload_sha256 ?? "";
  return { record, authority, evidenceHash };
}

/** The live target a gate compares (lifecycleTargetForGate): the workspace for post-apply, the index for pre-commit. */
function liveTarget(scope: RepositoryScope, gate: GateContext["gate"], record: RepositoryLineageRecord): Snapshot {
  if (gate === "post-apply")
    return buildSnapshot(scope.repo, {
      kind: "current-changes",
      projection: "workspace",
      intendedUntracked: record.snapshot.intendedUntracked,
    });
  if (gate === "pre-commit")
    return buildSnapshot(scope.repo, { kind: "current-changes", projection: "staged", intendedUntracked: [] });
  throw nativeError(
    `gentle-ai-sim: review validate --gate ${gate} against an approved receipt is not simulated (profile 2.4.0)`,
  );
}

/**
 * AssessCompactGateTarget's strict post-apply/pre-commit binding (compact_gate.go:112-158): exact when base, candidate
 * tree and paths digest all match; else related (scope-changed) when the candidate tree matches or the paths meet the
 * genesis paths, unrelated otherwise (classifyCompactTargetRelation).
 */
function assess(
  a: AuthorityFacts,
  genesisPaths: readonly string[],
  live: Snapshot,
): "exact" | "scope-changed" | "unrelated" {
  if (
    live.candidateTree === a.currentCandidateTree &&
    live.pathsDigest === a.initial.pathsDigest &&
    live.baseTree === a.initial.baseTree
  )
    return "exact";
  const genesis = new Set(genesisPaths);
  return live.candidateTree === a.currentCandidateTree || live.paths.some((p) => genesis.has(p))
    ? "scope-changed"
    : "unrelated";
}

/** evaluateCompactGate's allow (compact_gate.go:231-240): the receipt binding as the context. */
function allow(gate: GateContext["gate"], { authority: a, evidenceHash }: Approved): DecidedGateResult {
  return {
    schema: "gentle-ai.review-gate-result/v1",
    result: "allow",
    allowed: true,
    action: "continue",
    reason: ALLOW_REASON,
    context: {
      gate,
      lineage_id: a.lineageId,
      generation: a.generation,
      store_revision: a.revision,
      genesis_revision: a.revision,
      chain_identity: a.revision,
      bundle_digest: a.revision,
      base_tree: a.initial.baseTree,
      candidate_tree: a.currentCandidateTree,
      paths_digest: a.initial.pathsDigest,
      // (inferred) a receipt without a correction: no fix delta and no findings in the ledger.
      fix_delta_hash: EMPTY_HASH,
      policy_hash: nativePolicyHash(false),
      ledger_hash: EMPTY_HASH,
      evidence_hash: evidenceHash,
      base_relationship_valid: true,
    },
  };
}

function notSimulated(what: string): ReviewRefusal {
  return nativeError(`gentle-ai-sim: review validate ${what} is not simulated (profile 2.4.0)`);
}

/** discoverCompactFacadeReview with an explicit --lineage (review_facade.go:4570-4592), then the one receipt's gate. */
function explicitLineage(invocation: Invocation, scope: RepositoryScope, req: GateRequest): GateDecision {
  const record = readLineageRecord(scope.storeRoot, req.lineage);
  if (record === undefined) {
    const state = resolve(
      scope.repo.gitCommonDir,
      "gentle-ai",
      "review-transactions",
      "v2",
      req.lineage,
      "review-state.json",
    );
    throw nativeError(`load compact facade review lineage: open ${state}: no such file or directory`);
  }
  const approved = approvedAuthority(invocation, scope, record);
  if (approved === undefined)
    throw nativeError(
      `facade review receipt is not available; run gentle-ai review finalize --lineage ${req.lineage} to produce one`,
    );
  if (assess(approved.authority, record.snapshot.paths, liveTarget(scope, req.gate, record)) !== "exact")
    throw notSimulated("of a receipt that no longer matches");
  return { kind: "result", result: allow(req.gate, approved) };
}

/** Receipt discovery without --lineage: the one approved authority whose candidate the live gate target is. */
function discover(invocation: Invocation, scope: RepositoryScope, req: GateRequest): GateDecision {
  const approved = listLineageRecords(scope.storeRoot)
    .map((r) => approvedAuthority(invocation, scope, r))
    .filter((a) => a !== undefined);
  if (approved.length === 0) return { kind: "denied", code: "receipt_missing" };
  const exact: Approved[] = [];
  for (const a of approved) {
    const applicability = assess(a.authority, a.record.snapshot.paths, liveTarget(scope, req.gate, a.record));
    if (applicability === "scope-changed") throw notSimulated("of a scope-changed receipt");
    if (applicability === "exact") exact.push(a);
  }
  if (exact.length > 1) throw notSimulated("with several exact receipts");
  return exact.length === 1
    ? { kind: "result", result: allow(req.gate, exact[0]!) }
    : { kind: "denied", code: "receipt_unrelated" };
}

/** The gate's decision for the repository at --cwd (a --cwd outside any repository is refused as gentle-ai does). */
export async function decideGate(invocation: Invocation, req: GateRequest): Promise<GateDecision> {
  const scope = repositoryScopeAt(invocation, resolve(invocation.cwd, req.cwd));
  let disabled: boolean;
  try {
    disabled = modeStatus(scope.repo, invocation.env).effective !== "on";
  } catch (error) {
    // An unreadable switch is not a disabled switch: it fails closed to enabled (reviewDeliveryDisposition).
    if (!(error instanceof ModeError)) throw error;
    disabled = false;
  }
  if (disabled) {
    const result: DecidedGateResult = {
      schema: "gentle-ai.review-gate-result/v1",
      result: "invalidated",
      allowed: false,
      action: "repository-policy",
      reason: DISABLED_REASON,
      context: emptyContext(req.gate),
      delivery: "disabled/unmanaged",
    };
    return { kind: "result", result };
  }
  const world = inRepositoryWorld(invocation, scope);
  return req.lineage.trim() !== "" ? explicitLineage(world, scope, req) : discover(world, scope, req);
}
