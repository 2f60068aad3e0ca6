// The authority revision a START commits (reviewtransaction/compact_store.go compactStateRevision): sha256 over
// "gentle-ai.review-state/v2\0" and the compact JSON of the fresh CompactState. Reproduced for the native bounded
// policy (no --policy); verified against review-state.json written by gentle-ai 2.4.0 (301fb2ad) and 2.5.0 (fb55ef7b).
import { sha256Hex } from "../platform/sha256.ts";
import { goMarshal, type GoJson } from "../go/go-json.ts";
import type { Snapshot } from "./snapshot.ts";
import type { RiskAssessment } from "./risk.ts";
import { NATIVE_POLICY_CONTENT } from "../contract/native-policy.ts";

/** facadePayloadHash of the native bounded policy at 301fb2ad. */
const POLICY_HASH_301 = "sha256:34fb63d7f29f8613cd4431382b1057398a4816f8a4c20fc34677fffc80a184f6";
/** The same at fb55ef7b, which also freezes the policy text into the state. */
const POLICY_HASH_FB5 = "sha256:36e477a871ace064f20f06aa9c669315dad46b9732a0a3092cf740f78ced3434";
/** sha256 of nothing: a fresh state's fix_delta_hash, and the ledger hash of no findings. */
export const EMPTY_HASH = "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

/** The policy_hash a START freezes for the native bounded policy (fb55ef7b's atomic route, or 301fb2ad). */
export function nativePolicyHash(atomic: boolean): string {
  return atomic ? POLICY_HASH_FB5 : POLICY_HASH_301;
}

/** What START froze, as the state records it. */
export interface StartState {
  readonly lineageId: string;
  readonly repositoryRef: string;
  readonly snapshot: Snapshot;
  readonly risk: RiskAssessment;
  readonly selectedLenses: readonly string[];
  /** The atomic START route (fb55ef7b) and its frozen binding. */
  readonly atomic: boolean;
}

/** CompactCorrectionBudget (risk.go:241): the legacy budget, at least two for a non-empty change. */
function compactBudget(lines: number): number {
  const legacy = Math.min(200, Math.floor(lines / 2) + (lines % 2));
  return lines > 0 && legacy < 2 ? 2 : legacy;
}

/** reviewtransaction.Snapshot's JSON (projection omitted for the workspace, as the recorded states show). */
function snapshotJson(s: Snapshot): GoJson {
  return {
    kind: s.kind,
    // (inferred) a staged snapshot names its projection; only workspace states were recorded.
    projection: s.projection === "workspace" ? undefined : s.projection,
    unborn_head: s.unbornHead || undefined,
    base_tree: s.baseTree,
    candidate_tree: s.candidateTree,
    paths_digest: s.pathsDigest,
    intended_untracked: [...s.intendedUntracked],
    intended_untracked_proof: s.intendedUntrackedProof,
    paths: [...s.paths],
    identity: s.identity,
  };
}

/** The fresh CompactState START writes, in Go field order. */
function stateJson(st: StartState): GoJson {
  const s = st.snapshot;
  const lines = st.risk.changedLines;
  const policyHash = nativePolicyHash(st.atomic);
  return {
    schema: "gentle-ai.review-state/v2",
    lineage_id: st.lineageId,
    generation: 1,
    state: "reviewing",
    initial_snapshot: snapshotJson(s),
    current_snapshot: snapshotJson(s),
    genesis_paths: [...s.paths],
    policy_hash: policyHash,
    frozen_policy_content: st.atomic ? NATIVE_POLICY_CONTENT : undefined,
    risk_level: st.risk.level,
    selected_lenses: [...st.selectedLenses],
    original_changed_lines: lines,
    correction_budget: compactBudget(lines),
    correction_budget_policy: "floor_two",
    lens_results: [],
    findings: [],
    classifications: {},
    outcomes: {},
    fix_finding_ids: [],
    follow_ups: [],
    fix_delta_hash: EMPTY_HASH,
    initial_atomic_start: st.atomic
      ? {
          lineage_id: st.lineageId,
          worktree_identity: st.repositoryRef,
          target_identity: s.identity,
          // (inferred) the selector of a base diff or a declared selection; only bare current changes were recorded.
          selector: {
            kind: s.kind,
            projection: s.projection === "workspace" ? undefined : s.projection,
            base_ref: s.kind === "base-diff" ? s.baseTree : undefined,
            intended_untracked: s.intendedUntracked.length === 0 ? null : [...s.intendedUntracked],
          },
          policy_hash: policyHash,
          tier: st.risk.level,
          // A nil slice in the binding: a low-risk START selects no lens (recorded: `null`).
          selected_lenses: st.selectedLenses.length === 0 ? null : [...st.selectedLenses],
          original_changed_lines: lines,
          correction_budget: compactBudget(lines),
          correction_budget_policy: "floor_two",
        }
      : undefined,
  };
}

/** compactStateRevision of the state a START commits. */
export function startRevision(st: StartState): string {
  return (
    "sha256:" +
    sha256Hex(Buffer.from("gentle-ai.review-state/v2\0", "utf8"), Buffer.from(goMarshal(stateJson(st)), "utf8"))
  );
}
