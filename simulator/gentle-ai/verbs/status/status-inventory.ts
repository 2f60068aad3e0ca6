// The plain `review status` (no --contract): gentle-ai.review-authority-status/v1, the read-only inventory of the
// clone's review authority (reviewtransaction/status.go InventoryAuthority), built from the repository world's
// lineages.
import { join } from "node:path";
import type { Invocation } from "../../invocation.ts";
import type { GoJson } from "../../../go/go-json.ts";
import { readLineage } from "../../lineage.ts";
import { lineageDir, listLineageRecords, type RepositoryLineageRecord } from "../../../repository/lineage-store.ts";
import { authorityOf } from "../shared/correction-authority.ts";
import { inRepositoryWorld, lineageScenario, type RepositoryScope } from "../../repository-scope.ts";

const INVENTORY_SCHEMA = "gentle-ai.review-authority-status/v1";

/** `<git-common-dir>/gentle-ai/review-transactions/v2`: where gentle-ai keeps compact-v2 authority (store.go). */
function compactRoot(scope: RepositoryScope): string {
  return join(scope.repo.gitCommonDir, "gentle-ai", "review-transactions", "v2");
}

/** One compact-v2 entry (AuthorityInventoryEntry) for a lineage the simulator holds, read in the clone's world. */
function entryOf(invocation: Invocation, scope: RepositoryScope, record: RepositoryLineageRecord): GoJson {
  const scenario = lineageScenario(invocation.scenario, record, false);
  const source = invocation.identitySource;
  const lineage = readLineage(lineageDir(scope.storeRoot, record.lineageId), scenario, source);
  const a = authorityOf(scenario, lineage, source);
  // compactCapturedReviewerResults: the admitted slot files, `<order:02>-<lens>.json`, in name order.
  const captured = lineage.lenses.flatMap((lens, order) =>
    lineage.captured[lens] === undefined ? [] : [`${String(order).padStart(2, "0")}-${lens}.json`],
  );
  const correction = lineage.correction;
  return {
    version: "compact-v2",
    lineage_id: record.lineageId,
    path: join(compactRoot(scope), record.lineageId),
    // authorityStatusForState: approved or active (the simulator reaches no escalated or invalidated lineage).
    status: lineage.state === "approved" ? "approved" : "active",
    state: lineage.state,
    revision: a.revision,
    snapshot_identity: record.snapshot.identity,
    discarded_work: {
      captured_lens_results: captured.sort(),
      // (inferred) FINALIZE records findings when it opens a correction, and evidence when it binds some.
      findings_present: correction.stage !== null,
      evidence_records_present: lineage.state !== "reviewing" && correction.evidence !== null,
    },
    problems: [],
  };
}

/** InventoryAuthority for the repository at scope: clean with no lineage, else one entry a lineage, sorted by id. */
export function authorityInventory(invocation: Invocation, scope: RepositoryScope): GoJson {
  const records = listLineageRecords(scope.storeRoot);
  const world = inRepositoryWorld(invocation, scope);
  const entries = records.map((r) => entryOf(world, scope, r));
  // The compact store's LOCK exists once a lineage was created there; nothing holds it between calls.
  const locks =
    records.length === 0 ? [] : [{ version: "compact-v2", path: join(compactRoot(scope), "LOCK"), status: "released" }];
  const status =
    entries.length === 0 ? "clean" : entries.length === 1 ? (entries[0] as { status: string }).status : "active";
  return {
    schema: INVENTORY_SCHEMA,
    operation: "review/status",
    repository: scope.repo.root,
    complete: true,
    authoritative: true,
    status,
    entries,
    locks,
    diagnostics: [],
  };
}
