// The repository world: a scenario that pins no lineage lets the Git repository a call is pointed at decide what
// exists, as the real binary does. Lineages come from `review start` on that repository; the lifecycle verbs run
// against such a lineage with its repository-derived identities and its own state folder.
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Invocation, Outcome, VerbHandler } from "./invocation.ts";
import { LINEAGE_FILE, updateLineage } from "./lineage.ts";
import type { Scenario } from "../scenario/schema.ts";
import {
  insideWorkTree,
  resolveRepository,
  RepositoryNotFoundError,
  type RepositoryIdentity,
} from "../repository/locate.ts";
import { gitCommandFailed, nativeError, type ReviewRefusal } from "./refusal.ts";
import {
  lineageDir,
  lineageStoreRoot,
  listLineageRecords,
  readLineageRecord,
  type RepositoryLineageRecord,
} from "../repository/lineage-store.ts";
import type { Identities, IdentitySource } from "../state/identities.ts";
import { repositoryIdentities } from "../repository/lineage-identities.ts";
import { modeStatus } from "../repository/review-mode.ts";
import { repositoryRootOfContext } from "../repository/context-registry.ts";
import { traitsOf } from "./profiles.ts";

/** The repository a call acts on and where its lineages are kept. */
export interface RepositoryScope {
  readonly repo: RepositoryIdentity;
  readonly storeRoot: string;
}

/** The last value of a string flag before the flag terminator (a light scan; verbs parse their flags properly). */
export function flagValue(argv: readonly string[], name: string): string | undefined {
  let found: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i]!;
    if (token === "--") break;
    const m = new RegExp(`^--?${name}(?:=(.*))?$`, "s").exec(token);
    if (!m) continue;
    if (m[1] !== undefined) found = m[1];
    else if (i + 1 < argv.length) found = argv[++i]!;
  }
  return found;
}

/** The directory a verb names with --cwd (default: the process cwd). */
export function targetDirectory(invocation: Invocation): string {
  return resolve(invocation.cwd, flagValue(invocation.argv.slice(2), "cwd") ?? ".");
}

/** SnapshotBuilder.ResolveRepositoryRoot's first check: an empty (or blank) --cwd names no repository. */
export function requireCwd(cwd: string): void {
  if (cwd.trim() === "") throw nativeError("resolve review repository root: snapshot repository path is required");
}

/** The repository scope of a call at `dir`, or undefined when no repository contains it. */
export function scopeAt(invocation: Invocation, dir: string): RepositoryScope | undefined {
  if (!insideWorkTree(dir)) return undefined;
  let repo: RepositoryIdentity;
  try {
    repo = resolveRepository(dir);
  } catch {
    return undefined;
  }
  return { repo, storeRoot: lineageStoreRoot(repo, invocation.env, invocation.cwd) };
}

/** The repository scope at `dir`, or the refusal gentle-ai gives a --cwd that holds no repository. */
export function repositoryScopeAt(invocation: Invocation, dir: string): RepositoryScope {
  let repo: RepositoryIdentity;
  try {
    repo = resolveRepository(dir);
  } catch (error) {
    if (error instanceof RepositoryNotFoundError) throw repositoryRefusal(error);
    throw error;
  }
  return { repo, storeRoot: lineageStoreRoot(repo, invocation.env, invocation.cwd) };
}

/**
 * The repository scope of a lifecycle call: only when the scenario pins no lineage and the call's directory lies in
 * a Git work tree; otherwise the scenario's seeded lineage answers, as before.
 */
export function repositoryScope(invocation: Invocation): RepositoryScope | undefined {
  if (invocation.lineagePinned !== false) return undefined;
  const here = scopeAt(invocation, targetDirectory(invocation));
  if (here !== undefined) return here;
  // A capture that carries only its --repository-context finds the repository the handle was published for.
  const handle = flagValue(invocation.argv.slice(2), "repository-context");
  const root = handle === undefined ? undefined : repositoryRootOfContext(invocation.env, handle);
  return root === undefined ? undefined : scopeAt(invocation, root);
}

/**
 * The refusal of a call whose --cwd holds no repository: Go wraps ResolveRepositoryRoot's error as
 * `<context>: <error>`; a git failure is classified git_command_failed, anything else is an untyped native error.
 */
export function repositoryRefusal(
  error: RepositoryNotFoundError,
  context = "resolve review repository root",
): ReviewRefusal {
  const text = `${context}: ${error.detail}`;
  return error.kind === "git" ? gitCommandFailed(text, error.detail) : nativeError(text);
}

/** The lifecycle state a lineage's file records (`reviewing`, `approved`, …), or undefined when it is unreadable. */
export function lineageState(scope: RepositoryScope, lineageId: string): unknown {
  try {
    return (
      JSON.parse(readFileSync(join(lineageDir(scope.storeRoot, lineageId), LINEAGE_FILE), "utf8")) as {
        state?: unknown;
      }
    ).state;
  } catch {
    return undefined;
  }
}

/** Whether a lineage's review ended in approval (gentle-ai burns approved authority; the simulator keeps the file). */
export function lineageApproved(scope: RepositoryScope, lineageId: string): boolean {
  return lineageState(scope, lineageId) === "approved";
}

/** A live (not approved) lineage of this repository, or undefined. */
export function liveLineage(scope: RepositoryScope, lineageId: string): RepositoryLineageRecord | undefined {
  const record = readLineageRecord(scope.storeRoot, lineageId);
  return record === undefined || lineageApproved(scope, lineageId) ? undefined : record;
}

/** The scenario a lineage's verbs see: the lineage spec the simulator's state machine reads, bound to this lineage. */
export function lineageScenario(scenario: Scenario, record: RepositoryLineageRecord, rddDisabled: boolean): Scenario {
  return {
    ...scenario,
    lineage: {
      seed: record.lineageId,
      state: "reviewing",
      lenses: [...record.selectedLenses],
      captured: [],
      // (inferred) the refuter role is not offered to repository lineages; gentle-ai decides it from the findings.
      refuter: false,
      rddDisabled,
    },
  };
}

/** Runs a lifecycle verb against one repository lineage: its state folder, its identities, its STATUS facts. */
export async function runOnRepositoryLineage(
  invocation: Invocation,
  scope: RepositoryScope,
  record: RepositoryLineageRecord,
  handler: VerbHandler,
): Promise<Outcome> {
  const stateDir = lineageDir(scope.storeRoot, record.lineageId);
  const mode = modeStatus(scope.repo, invocation.env);
  const disabled = mode.effective !== "on";
  const scenario = lineageScenario(invocation.scenario, record, disabled);
  const identitySource = repositoryIdentitySource(scope);
  // The kill switch is read where gentle-ai keeps it; the state machine reads it from the lineage state.
  updateLineage(stateDir, scenario, identitySource, (draft) => {
    draft.rddDisabled = disabled;
    if (disabled && mode.source !== "") draft.rddDisabledSource = mode.source;
    else delete draft.rddDisabledSource;
  });
  return handler({ ...invocation, scenario, stateDir, repositoryRoot: scope.repo.root, identitySource });
}

/** This clone's identity world: its lineages answer from the repository (each read once), any other seed derives. */
export function repositoryIdentitySource(scope: RepositoryScope): IdentitySource {
  const cache = new Map<string, Identities | undefined>();
  return (seed) => {
    if (!cache.has(seed)) {
      const record = readLineageRecord(scope.storeRoot, seed);
      cache.set(seed, record === undefined ? undefined : repositoryIdentities(scope.repo, record));
    }
    return cache.get(seed);
  };
}

/** The invocation reading lineages through this clone's identity world; the world lives only in the value returned. */
export function inRepositoryWorld(
  invocation: Invocation,
  scope: RepositoryScope,
): Invocation & { readonly identitySource: IdentitySource } {
  return { ...invocation, identitySource: repositoryIdentitySource(scope) };
}

/**
 * Whether FINALIZE still finds an approved lineage: before the burn (b43e0928; 301fb2ad) approval keeps the authority,
 * and FINALIZE replays its receipt exactly.
 */
function finalizeKeepsApproved(invocation: Invocation): boolean {
  return invocation.argv[1] === "finalize" && !traitsOf(invocation.scenario.profile).approvalBurns;
}

/**
 * FINALIZE without --lineage discovers the repository's lineage (discoverCompactFacadeReview, review_facade.go:3573):
 * the one live lineage of the clone, else before the burn its one approved lineage. (inferred) Several live ones
 * are not narrowed by candidate tree here.
 */
function discoveredLineage(invocation: Invocation, scope: RepositoryScope): RepositoryLineageRecord | undefined {
  if (invocation.argv[1] !== "finalize") return undefined;
  const records = listLineageRecords(scope.storeRoot);
  const live = records.filter((r) => !lineageApproved(scope, r.lineageId));
  if (live.length === 0 && records.length === 1 && finalizeKeepsApproved(invocation)) return records[0];
  return live.length === 1 ? live[0] : undefined;
}

/**
 * Routes a lineage verb other than STATUS: a live lineage named by --lineage runs in the repository; else as before.
 */
export async function runLineageVerb(
  invocation: Invocation,
  scope: RepositoryScope,
  handler: VerbHandler,
): Promise<Outcome> {
  const lineageId = flagValue(invocation.argv.slice(2), "lineage")?.trim();
  const named = (id: string): RepositoryLineageRecord | undefined =>
    finalizeKeepsApproved(invocation) ? readLineageRecord(scope.storeRoot, id) : liveLineage(scope, id);
  const record = lineageId === undefined || lineageId === "" ? discoveredLineage(invocation, scope) : named(lineageId);
  // (inferred) an unknown lineage meets the seeded world's binding checks, which refuse it as a mismatch.
  if (record === undefined) return handler(invocation);
  return runOnRepositoryLineage(invocation, scope, record, handler);
}
