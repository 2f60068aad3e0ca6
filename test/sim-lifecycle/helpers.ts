// A real Git repository, a HOME and a lineage-less scenario for the repository-world verbs (review mode, start,
// validate, STATUS), plus oracles of gentle-ai's published digests written from the Go source, not from the simulator.
import { createHash } from "node:crypto";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { spawnGentleAi, type Run } from "../support/gentle-ai-sim.ts";
import { tracked } from "../support/tracked.ts";

export const V2 = "gentle-ai.review-integration/v2";
export const HANDSHAKE = { GENTLE_PI_REVIEW_RELAY_CONTRACT: "gentle-pi.review-relay/v1" };

/** A temp folder with a HOME, a scenario that pins no lineage, and any number of repositories. */
export class LifecycleSandbox {
  readonly dir: string;
  readonly home: string;
  readonly scenarioPath: string;
  /** GENTLE_AI_SIM_STATE for runs that set it (runs omit it unless `simState` is asked for). */
  readonly stateDir: string;

  constructor(scenario: Record<string, unknown> = { profile: "2.4.0" }) {
    this.dir = realpathSync(mkdtempSync(join(tmpdir(), "sim-lifecycle-")));
    this.home = join(this.dir, "home");
    mkdirSync(this.home);
    this.scenarioPath = join(this.dir, "scenario.json");
    this.stateDir = join(this.dir, "state");
    writeFileSync(this.scenarioPath, JSON.stringify(scenario));
  }

  /** A fresh repository `name` on branch main with one commit of `files` (none: an empty commit). */
  repo(name: string, files: Record<string, string> = {}): string {
    const repo = join(this.dir, name);
    mkdirSync(repo);
    git(repo, "init", "-q", "-b", "main");
    git(repo, "config", "user.email", "sim@example.invalid");
    git(repo, "config", "user.name", "Sim Lifecycle");
    for (const [path, text] of Object.entries(files)) this.write(repo, path, text);
    git(repo, "add", "-A");
    git(repo, "commit", "-q", "--allow-empty", "-m", "initial");
    return repo;
  }

  /** Writes a file (creating its folders). */
  write(repo: string, path: string, text: string): void {
    mkdirSync(dirname(join(repo, path)), { recursive: true });
    writeFileSync(join(repo, path), text);
  }

  /**
   * Spawns the built simulator with HOME, the lineage-less scenario and the Pi handshake; GENTLE_AI_SIM_STATE only
   * when `simState` is true (otherwise lineages live where gentle-ai keeps them); `homeOnly`: no scenario either.
   */
  run(argv: readonly string[], opts: { cwd?: string; env?: Record<string, string>; simState?: boolean; homeOnly?: boolean } = {}): Promise<Run> {
    const env: Record<string, string> = { HOME: this.home, TMPDIR: this.dir, ...HANDSHAKE, ...opts.env };
    // homeOnly: as gentle-pi's devtests call it, with no GENTLE_AI_SIM_* variable at all (empty counts as unset).
    const paths = { dir: opts.cwd ?? this.dir, scenarioPath: opts.homeOnly ? "" : this.scenarioPath, stateDir: opts.simState ? this.stateDir : "" };
    return spawnGentleAi(paths, argv, { env, cwd: opts.cwd ?? this.dir });
  }

  /** Removes the temp folder. */
  cleanup(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** A sandbox factory whose sandboxes are removed after the file's tests; call it at a test file's top level. */
export function lifecycleSandboxes(): (scenario?: Record<string, unknown>) => LifecycleSandbox {
  return tracked((scenario?: Record<string, unknown>) => new LifecycleSandbox(scenario));
}

/** Runs git in a repository; trimmed stdout. */
export function git(repo: string, ...args: string[]): string {
  return execFileSync("git", args, { cwd: repo, encoding: "utf8", env: { ...process.env, LC_ALL: "C" } }).trim();
}

/** Parses a run's stdout as JSON. */
export function json(run: Run): Record<string, any> {
  return JSON.parse(run.stdout) as Record<string, any>;
}

// --- Oracles: gentle-ai's digests, from reviewtransaction/snapshot.go, artifact_subject.go, repository_locator.go,
// cli/review_start_lineage.go. Each is pinned to captured gentle-pi fixture values in oracles.test.ts.

function lengthPrefixed(value: string | Buffer): Buffer {
  const bytes = typeof value === "string" ? Buffer.from(value) : value;
  return Buffer.concat([Buffer.from(`${bytes.length}\0`), bytes, Buffer.from([0])]);
}

function sha(...parts: Array<string | Buffer>): string {
  const h = createHash("sha256");
  for (const p of parts) h.update(p);
  return h.digest("hex");
}

/** digestPaths. */
export function oraclePathsDigest(paths: readonly string[]): string {
  return "sha256:" + sha("gentle-ai.paths/v1\0", ...paths.map(lengthPrefixed));
}

/** snapshotIdentityForProjection for a workspace current-changes target. */
export function oracleIdentity(baseTree: string, candidateTree: string, paths: readonly string[]): string {
  return "sha256:" + sha("gentle-ai.review-snapshot/v3\0", ...["current-changes", baseTree, candidateTree, oraclePathsDigest(paths)].map(lengthPrefixed));
}

/** snapshotIdentityForProjection for a workspace fix-diff snapshot with its ledger ids. */
export function oracleFixDiffIdentity(frozenTree: string, correctedTree: string, paths: readonly string[], ledger: readonly string[]): string {
  return "sha256:" + sha("gentle-ai.review-snapshot/v3\0", ...["fix-diff", frozenTree, correctedTree, oraclePathsDigest(paths), ...ledger].map(lengthPrefixed));
}

/** intendedUntrackedInventoryDigest. */
export function oracleInventoryDigest(paths: readonly string[]): string {
  return "sha256:" + sha(lengthPrefixed("gentle-ai.intended-untracked-inventory/v1"), ...paths.map(lengthPrefixed));
}

/** reviewRepositoryIdentityHash over a repository's canonical root, common dir and git dir. */
export function oracleRepositoryRef(root: string): string {
  const common = realpathSync(git(root, "rev-parse", "--path-format=absolute", "--git-common-dir"));
  const gitDir = realpathSync(git(root, "rev-parse", "--path-format=absolute", "--git-dir"));
  return "sha256:" + sha(JSON.stringify({ repository_root: realpathSync(root), git_common_dir: common, git_dir: gitDir }));
}

/** reviewAtomicStartLineage. */
export function oracleStartLineage(repositoryRef: string, targetIdentity: string): string {
  return "review-" + sha("gentle-ai.review-start-lineage/v3\0", JSON.stringify({ worktree_identity: repositoryRef, target_identity: targetIdentity })).slice(0, 16);
}

/** ChangedPathManifestDigest over manifest entries (Go json.Marshal of plain ASCII values equals JSON.stringify). */
export function oracleManifestDigest(entries: readonly object[]): string {
  return "sha256:" + sha("gentle-ai.review-changed-path-manifest/v1\0", JSON.stringify(entries));
}

/** artifactSubjectHash (v2). */
export function oracleSubjectHash(s: {
  lineage_id: string;
  authority_revision: string;
  target_identity: string;
  base_tree: string;
  candidate_tree: string;
  changed_path_manifest_sha256: string;
  lens: string;
  selected_order: number;
}): string {
  const preimage = {
    schema: "gentle-ai.review-artifact-subject/v2",
    lineage_id: s.lineage_id,
    authority_revision: s.authority_revision,
    target_identity: s.target_identity,
    base_tree: s.base_tree,
    candidate_tree: s.candidate_tree,
    changed_path_manifest_sha256: s.changed_path_manifest_sha256,
    lens: s.lens,
    selected_order: s.selected_order,
  };
  return "sha256:" + sha("gentle-ai.review-artifact-subject/v2\0", JSON.stringify(preimage));
}

/** reviewRepositoryContextHandle. */
export function oracleContextHandle(lineageId: string, targetIdentity: string, revision: string, repositoryRef: string): string {
  return "rctx1_" + sha(JSON.stringify({ schema: "gentle-ai.review-repository-context/v1", lineage_id: lineageId, target_identity: targetIdentity, revision, repository_identity: repositoryRef }));
}

/** rddModeOverrideDigest over a published generation record (its revision blanked). */
export function oracleOverrideRevision(record: Record<string, unknown>): string {
  const blank: Record<string, unknown> = {
    schema: record["schema"],
    generation: record["generation"],
    ...(record["previous_revision"] ? { previous_revision: record["previous_revision"] } : {}),
    mode: record["mode"],
    recorded_at: record["recorded_at"],
    revision: "",
  };
  return "sha256:" + sha("gentle-ai.rdd-mode-override-digest/v1\0", JSON.stringify(blank));
}

/** The tree of a revision. */
export function treeOf(repo: string, revision = "HEAD"): string {
  return git(repo, "rev-parse", `${revision}^{tree}`);
}
