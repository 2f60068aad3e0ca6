// Where repository-derived review lineages live. gentle-ai keeps review authority under
// `<git-common-dir>/gentle-ai/review-transactions` (reviewtransaction/store.go authoritativeStoreRoot); the simulator
// keeps its own lineage files in a `gentle-ai-sim` folder there, or, when GENTLE_AI_SIM_STATE is set, under
// `<state>/repositories/<repository storage key>` so hermetic runs never write into a repository.
import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { writeFileAtomic } from "../state/atomic-file.ts";
import { withLock } from "../state/lock.ts";
import type { RepositoryIdentity } from "./locate.ts";
import type { Snapshot } from "./snapshot.ts";
import type { ManifestEntry } from "../state/identities.ts";
import type { RiskAssessment } from "./risk.ts";
import type { StartLens } from "../contract/start.ts";

export const REPOSITORY_LINEAGE_SCHEMA = "gentle-ai-sim.repository-lineage/v1";
const RECORD_FILE = "repository-lineage.json";

/** Everything START froze for one lineage: the candidate, its manifest, stats and tier, and the selected lenses. */
export interface RepositoryLineageRecord {
  readonly schema: typeof REPOSITORY_LINEAGE_SCHEMA;
  readonly lineageId: string;
  readonly repositoryRef: string;
  readonly snapshot: Snapshot;
  /** The frozen changed-path manifest with each path's numstat counts. */
  readonly manifest: readonly ManifestEntry[];
  readonly risk: RiskAssessment;
  readonly selectedLenses: readonly StartLens[];
  /** The opaque `rctx1_` handle START published. */
  readonly repositoryContext: string;
  /**
   * Whether START recorded a repository-context effect intent, whose event STATUS then reports (absent: yes): only a
   * negotiated v2 START before the atomic route records one (301fb2ad CompactStartRequest.RepositoryContext).
   */
  readonly contextIntent?: boolean;
  /** The authority revision START committed (start-revision.ts; absent in older records: the inferred derivation). */
  readonly startRevision?: string;
}

/** The folder holding every repository lineage of one clone. */
export function lineageStoreRoot(
  repo: RepositoryIdentity,
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
): string {
  const simState = env.GENTLE_AI_SIM_STATE;
  if (simState !== undefined && simState !== "")
    return join(resolve(cwd, simState), "repositories", repo.repositoryRef.replace(/^sha256:/, ""));
  // (inferred) layout below review-transactions: gentle-ai's own compact store layout is not reproduced.
  return join(repo.gitCommonDir, "gentle-ai", "review-transactions", "gentle-ai-sim");
}

/** The state folder of one lineage: its record plus the simulator's lineage.json. */
export function lineageDir(root: string, lineageId: string): string {
  return join(root, lineageId);
}

function isRecord(value: unknown): value is RepositoryLineageRecord {
  if (value === null || typeof value !== "object") return false;
  const o = value as Record<string, unknown>;
  return (
    o["schema"] === REPOSITORY_LINEAGE_SCHEMA && typeof o["lineageId"] === "string" && typeof o["snapshot"] === "object"
  );
}

/** The record of one lineage, or undefined when this clone holds no such lineage. */
export function readLineageRecord(root: string, lineageId: string): RepositoryLineageRecord | undefined {
  if (!/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(lineageId)) return undefined;
  const path = join(lineageDir(root, lineageId), RECORD_FILE);
  if (!existsSync(path)) return undefined;
  const parsed: unknown = JSON.parse(readFileSync(path, "utf8"));
  if (!isRecord(parsed)) throw new Error(`gentle-ai-sim: ${path}: invalid repository lineage record`);
  return parsed;
}

/** Every lineage record of the clone, in lineage id order. */
export function listLineageRecords(root: string): RepositoryLineageRecord[] {
  if (!existsSync(root)) return [];
  return readdirSync(root)
    .sort()
    .map((id) => readLineageRecord(root, id))
    .filter((r): r is RepositoryLineageRecord => r !== undefined);
}

/**
 * Creates a lineage's record once (under the store lock): returns the stored record and whether it already existed,
 * so two concurrent STARTs of one candidate create one lineage and the second replays it.
 */
export function createLineageRecord(
  root: string,
  record: RepositoryLineageRecord,
  initialize: (dir: string) => void,
): { record: RepositoryLineageRecord; replayed: boolean } {
  mkdirSync(root, { recursive: true, mode: 0o700 });
  return withLock(root, "store", () => {
    const existing = readLineageRecord(root, record.lineageId);
    if (existing !== undefined) return { record: existing, replayed: true };
    const dir = lineageDir(root, record.lineageId);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    initialize(dir);
    writeFileAtomic(join(dir, RECORD_FILE), JSON.stringify(record) + "\n");
    return { record, replayed: false };
  });
}
