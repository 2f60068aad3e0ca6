// STATUS facts from a real Git repository (the repository world: a scenario that pins no lineage, a --cwd inside a
// work tree). The live target is frozen from the repository as gentle-ai's SnapshotBuilder does; the authorities are
// the live lineages `review start` created for this clone, each read through its repository-derived identities.
import type { Invocation } from "../../invocation.ts";
import { readLineage } from "../../lineage.ts";
import { lineageDir, listLineageRecords, readLineageRecord } from "../../../repository/lineage-store.ts";
import type { RepositoryLineageRecord } from "../../../repository/lineage-store.ts";
import { buildSnapshot, SnapshotError } from "../../../repository/snapshot.ts";
import { untrackedInventory } from "../../../repository/untracked.ts";
import { ModeError, modeStatus } from "../../../repository/review-mode.ts";
import { liveSnapshot } from "../../../repository/lineage-identities.ts";
import { startLineageId } from "../../../repository/digests.ts";
import { traitsOf } from "../../profiles.ts";
import { inRepositoryWorld, lineageApproved, lineageScenario } from "../../repository-scope.ts";
import type { RepositoryScope } from "../../repository-scope.ts";
import { authorityFacts } from "./status-facts.ts";
import { authorityOf, contextTarget } from "../shared/correction-authority.ts";
import type { Authority } from "../shared/correction-authority.ts";
import { publishRepositoryContext } from "../../../repository/context-registry.ts";
import { ReadOnlyFailure } from "./status-document.ts";
import type { AuthorityFacts, StatusFacts } from "./status-model.ts";

/** Publishes the handle STATUS prints for the authority's current binding, so a capture finds it from any cwd. */
function publishCurrentContext(invocation: Invocation, scope: RepositoryScope, auth: Authority): void {
  const target = contextTarget(auth);
  if (target === undefined) return;
  publishRepositoryContext(
    invocation.env,
    auth.repositoryContext,
    { lineageId: auth.lineageId, targetIdentity: target, revision: auth.revision },
    scope.repo,
  );
}

/** One live repository lineage's compact authority (the invocation reads lineages through the clone's identities). */
function lineageAuthority(
  invocation: Invocation,
  scope: RepositoryScope,
  record: RepositoryLineageRecord,
  rddDisabled: boolean,
): AuthorityFacts {
  const scenario = lineageScenario(invocation.scenario, record, rddDisabled);
  const source = invocation.identitySource;
  const lineage = readLineage(lineageDir(scope.storeRoot, record.lineageId), scenario, source);
  const a = authorityFacts(scenario, lineage, source, {
    initial: record.snapshot,
    tier: record.risk.level,
    originalChangedLines: record.risk.changedLines,
  });
  publishCurrentContext(invocation, scope, authorityOf(scenario, lineage, source));
  // A START that recorded no repository-context intent leaves STATUS only the published handle
  // (review_facade.go:1141-1150).
  const context =
    record.contextIntent === false
      ? { ...a.repositoryContext, eventId: "", outcome: "" }
      : { ...a.repositoryContext, recorded: true };
  // (inferred) once the correction is validated the authority governs the corrected candidate the workspace holds.
  if (lineage.state !== "validating") return { ...a, repositoryContext: context };
  return { ...a, repositoryContext: context, currentCandidateTree: liveSnapshot(scope.repo, record).candidateTree };
}

/** The kill switch as STATUS reads it: an unreadable switch leaves the mode unresolved, which offers START. */
function rddEnabled(invocation: Invocation, scope: RepositoryScope): boolean {
  try {
    return modeStatus(scope.repo, invocation.env).effective === "on";
  } catch (error) {
    if (error instanceof ModeError) return true;
    throw error;
  }
}

/** The facts of the repository at the call's --cwd and of the lineages its clone holds. */
export function repositoryStatusFacts(invocation: Invocation, scope: RepositoryScope): StatusFacts {
  const world = inRepositoryWorld(invocation, scope);
  const enabled = rddEnabled(invocation, scope);
  // An approved authority is burned (fb55ef7b); before the burn (301fb2ad) it stays live and governs its candidate.
  const burned = (id: string): boolean =>
    traitsOf(invocation.scenario.profile).approvalBurns && lineageApproved(scope, id);
  const records = listLineageRecords(scope.storeRoot).filter((r) => !burned(r.lineageId));
  const live = (id: string): RepositoryLineageRecord | undefined =>
    burned(id) ? undefined : readLineageRecord(scope.storeRoot, id);
  return {
    repositoryRoot: scope.repo.root,
    rddEnabled: enabled,
    untrackedInventory: untrackedInventory(scope.repo).paths,
    live: (selector) => {
      try {
        const kind = selector.baseRef === "" ? "current-changes" : "base-diff";
        return buildSnapshot(scope.repo, {
          kind,
          projection: selector.projection,
          baseRef: selector.baseRef,
          intendedUntracked: selector.intendedUntracked,
        });
      } catch (error) {
        if (error instanceof SnapshotError)
          throw new ReadOnlyFailure(`freeze negotiated fresh review target: ${error.message}`);
        throw error;
      }
    },
    authorities: records.map((r) => lineageAuthority(world, scope, r, !enabled)),
    // Only the atomic START route makes every selector-free --next-transition the fresh target (fb55ef7b).
    selectorlessFreshTarget: traitsOf(invocation.scenario.profile).atomicStart,
    frozenCandidateDrifted: (id) => {
      const record = live(id);
      if (record === undefined) return true;
      try {
        return liveSnapshot(scope.repo, record).candidateTree !== record.snapshot.candidateTree;
      } catch {
        // frozenReviewingCandidateDrifted: any projection failure fails closed as drift.
        return true;
      }
    },
    lineageOccupied: (id) => live(id) !== undefined,
    atomicStartLineage: (target) => startLineageId(scope.repo.repositoryRef, target),
  };
}
