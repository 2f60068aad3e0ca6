// The changed-path manifest and diff stats of a frozen candidate (reviewtransaction/frozen_candidate_context.go,
// snapshot.go DiffStats): one entry per changed path with git's raw status and modes, plus numstat counts. The
// printed form and its digest are state/identities.ts's changedPathManifest and changedPathManifestDigest.
import type { ManifestEntry } from "../state/identities.ts";
import { git } from "./git.ts";
import type { RepositoryIdentity } from "./locate.ts";
import type { Snapshot } from "./snapshot.ts";

/** One DiffStat (numstat plus modes), the classifier's input. */
export interface DiffStat {
  readonly path: string;
  readonly additions: number;
  readonly deletions: number;
  readonly binary: boolean;
  readonly generated: boolean;
  readonly modeOnly: boolean;
  readonly oldMode: string;
  readonly newMode: string;
}

interface RawEntry {
  readonly status: ManifestEntry["status"];
  readonly oldMode: string;
  readonly newMode: string;
  readonly oldObject: string;
  readonly newObject: string;
}

/** parseRawDiffModes over `git diff --raw -z` output. */
function rawEntries(output: Buffer): Map<string, RawEntry> {
  const records = output.toString("utf8").split("\0");
  const map = new Map<string, RawEntry>();
  for (let i = 0; i + 1 < records.length; i++) {
    const header = records[i]!;
    if (header === "") continue;
    const fields = header.split(/\s+/);
    const path = records[++i]!;
    map.set(path, {
      oldMode: fields[0]!.slice(1),
      newMode: fields[1]!,
      oldObject: fields[2]!,
      newObject: fields[3]!,
      status: fields[4]! as RawEntry["status"],
    });
  }
  return map;
}

function raw(repo: RepositoryIdentity, snapshot: Snapshot): Map<string, RawEntry> {
  return rawEntries(
    git(repo.root, [
      "diff",
      "--raw",
      "-z",
      "--full-index",
      ...NEUTRAL_DIFF,
      snapshot.baseTree,
      snapshot.candidateTree,
      "--",
    ]),
  );
}

/** The diff options both of gentle-ai's tree diffs pass: exact paths, no user diff drivers or submodule shortcuts. */
const NEUTRAL_DIFF = ["--no-renames", "--no-ext-diff", "--no-textconv", "--ignore-submodules=none"] as const;

/** isGeneratedGoldenPath: testdata goldens count zero lines. */
export function isGeneratedGoldenPath(path: string): boolean {
  const normalized = "/" + path.replace(/^\.\//, "");
  return normalized.includes("/testdata/golden/") && normalized.endsWith(".golden");
}

/** The frozen changed-path manifest of a snapshot, in snapshot path order, with each path's numstat counts. */
export function changedPathEntries(repo: RepositoryIdentity, snapshot: Snapshot): ManifestEntry[] {
  if (snapshot.paths.length === 0) return [];
  const modes = raw(repo, snapshot);
  const stats = new Map(diffStats(repo, snapshot).map((st) => [st.path, st] as const));
  const intended = new Set(snapshot.intendedUntracked);
  return snapshot.paths.map((path) => {
    const m = modes.get(path);
    if (m === undefined)
      throw new Error(`immutable snapshot path ${JSON.stringify(path)} is missing from raw tree diff`);
    return {
      path,
      status: m.status,
      additions: stats.get(path)?.additions ?? 0,
      deletions: stats.get(path)?.deletions ?? 0,
      oldMode: m.oldMode,
      newMode: m.newMode,
      modeOnly: m.status === "M" && m.oldObject === m.newObject && m.oldMode !== m.newMode,
      intendedUntracked: intended.has(path),
    };
  });
}

/**
 * The candidate-inspection `patch` of one path (frozen_candidate_context.go:258-260): what the reviewer prompt shows.
 */
export function pathPatch(repo: RepositoryIdentity, snapshot: Snapshot, path: string): string {
  return git(repo.root, [
    "-c",
    "color.ui=false",
    "-c",
    "diff.external=",
    "diff",
    "--patch",
    "--text",
    "--full-index",
    "--no-color",
    "--no-ext-diff",
    "--no-textconv",
    "--no-renames",
    "--diff-algorithm=myers",
    "--no-indent-heuristic",
    "--unified=3",
    "--ignore-submodules=none",
    snapshot.baseTree,
    snapshot.candidateTree,
    "--",
    `:(literal)${path}`,
  ]).toString("utf8");
}

/**
 * WithLegacyCandidateDiff's payload (frozen_candidate_context.go:120-123): the whole candidate diff,
 * review-integration/v1.
 */
export function candidateDiff(repo: RepositoryIdentity, snapshot: Snapshot): Buffer {
  return git(repo.root, [
    "diff",
    "--binary",
    "--full-index",
    "--no-color",
    "--no-renames",
    "--no-ext-diff",
    "--no-textconv",
    "--diff-algorithm=myers",
    "--no-indent-heuristic",
    "--unified=3",
    "--ignore-submodules=none",
    "--src-prefix=a/",
    "--dst-prefix=b/",
    snapshot.baseTree,
    snapshot.candidateTree,
    "--",
  ]);
}

/** DiffStats: numstat counts plus raw modes for every snapshot path. */
export function diffStats(repo: RepositoryIdentity, snapshot: Snapshot): DiffStat[] {
  if (snapshot.paths.length === 0) return [];
  const numstat = git(repo.root, [
    "diff",
    "--numstat",
    "-z",
    ...NEUTRAL_DIFF,
    snapshot.baseTree,
    snapshot.candidateTree,
    "--",
  ]);
  const counts = new Map<string, { additions: number; deletions: number; binary: boolean }>();
  for (const record of numstat.toString("utf8").split("\0")) {
    if (record === "") continue;
    const [add, del, path] = record.split("\t", 3) as [string, string, string];
    const binary = add === "-" && del === "-";
    counts.set(path, { additions: binary ? 0 : Number(add), deletions: binary ? 0 : Number(del), binary });
  }
  const modes = raw(repo, snapshot);
  return snapshot.paths.map((path) => {
    const c = counts.get(path) ?? { additions: 0, deletions: 0, binary: false };
    const m = modes.get(path);
    return {
      path,
      additions: c.additions,
      deletions: c.deletions,
      binary: c.binary,
      generated: isGeneratedGoldenPath(path),
      modeOnly: m !== undefined && m.oldObject === m.newObject && m.oldMode !== m.newMode,
      oldMode: m?.oldMode ?? "",
      newMode: m?.newMode ?? "",
    };
  });
}

/** CountChangedLines: authored additions plus deletions; goldens, binaries and mode-only entries count zero. */
export function countChangedLines(stats: readonly DiffStat[]): number {
  let total = 0;
  for (const s of stats) if (!s.generated && !s.binary && !s.modeOnly) total += s.additions + s.deletions;
  return total;
}
