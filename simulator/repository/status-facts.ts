// What STATUS reads from the repository when the call concerns a repository-derived lineage: the status/v5
// projection object and the frozen tier. simulator/gentle-ai/repository-scope.ts makes a lineage active for one
// verb; status.ts asks here and falls back to its seeded rendering when nothing is active.
import type { GoJson } from "../output/go-json.ts";
import type { RepositoryIdentity } from "./locate.ts";
import type { RepositoryLineageRecord } from "./lineage-store.ts";
import type { Snapshot } from "./snapshot.ts";
import { liveSnapshot } from "./lineage-identities.ts";
import { legacyCorrectionBudget as correctionBudget } from "../gentle-ai/verbs/correction-authority.ts";

/** The repository lineage the current verb runs against. */
export interface ActiveRepositoryLineage {
  readonly repo: RepositoryIdentity;
  readonly record: RepositoryLineageRecord;
}

let active: ActiveRepositoryLineage | undefined;

/** Makes a repository lineage active for the verb about to run (undefined clears it). */
export function setActiveRepositoryLineage(lineage: ActiveRepositoryLineage | undefined): void {
  active = lineage;
}

/** The active repository lineage, if the current verb runs against one. */
export function activeRepositoryLineage(): ActiveRepositoryLineage | undefined {
  return active;
}

/** The projection/v1 object of status/v5 (field order of the captured status-v5 documents). */
export function projectionObject(initial: Snapshot, current: Snapshot): GoJson {
  return {
    schema: "gentle-ai.review-integration.projection/v1",
    kind: initial.kind,
    projection: initial.projection,
    base_tree: initial.baseTree,
    initial_review_tree: initial.candidateTree,
    current_candidate_tree: current.candidateTree,
    paths_digest: initial.pathsDigest,
    paths: [...initial.paths],
    intended_untracked: [...initial.intendedUntracked],
    intended_untracked_proof: initial.intendedUntrackedProof,
    initial_snapshot_identity: initial.identity,
    current_snapshot_identity: current.identity,
  };
}

/** STATUS's repository-derived members for the active lineage, or undefined outside one. */
export function repositoryStatusFacts(): { readonly projection: GoJson; readonly frozen: GoJson } | undefined {
  if (active === undefined) return undefined;
  const { repo, record } = active;
  // (inferred) the current tree is the live candidate under the lineage's own selectors.
  const current = liveSnapshot(repo, record);
  return {
    projection: projectionObject(record.snapshot, current),
    frozen: {
      tier: record.risk.level,
      original_changed_lines: record.risk.changedLines,
      correction_budget: correctionBudget(record.risk.changedLines),
    },
  };
}
