// The opaque repository-context registry gentle-ai publishes at START (reviewtransaction/repository_locator.go
// PublishReviewRepositoryContext): `$HOME/.gentle-ai/review-contexts/v1/<rctx1_…>.json` names the repository a
// handle belongs to, so a capture that carries only the handle finds its repository from any cwd.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { goMarshal } from "../go/go-json.ts";
import type { RepositoryIdentity } from "./locate.ts";

function registryDir(home: string): string {
  return join(home, ".gentle-ai", "review-contexts", "v1");
}

/** Publishes one handle's record (idempotent: identical bytes are left in place). */
export function publishRepositoryContext(
  env: Readonly<Record<string, string | undefined>>,
  handle: string,
  binding: { lineageId: string; targetIdentity: string; revision: string },
  repo: RepositoryIdentity,
): void {
  const home = env.HOME;
  if (home === undefined || home === "") return; // (inferred) without HOME the handle is simply not resolvable later
  const dir = registryDir(home);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  writeFileSync(join(dir, `${handle}.json`), repositoryContextPayload(handle, binding, repo) + "\n", { mode: 0o600 });
}

/** The record a handle publishes (reviewRepositoryContextFile, compact JSON): also what its effect event hashes. */
export function repositoryContextPayload(
  handle: string,
  binding: { lineageId: string; targetIdentity: string; revision: string },
  repo: RepositoryIdentity,
): string {
  return goMarshal({
    schema: "gentle-ai.review-repository-context/v1",
    handle,
    lineage_id: binding.lineageId,
    target_identity: binding.targetIdentity,
    revision: binding.revision,
    repository_identity: repo.repositoryRef,
    repository_root: repo.root,
    git_common_dir: repo.gitCommonDir,
    git_dir: repo.gitDir,
  });
}

/** The repository root a published handle names, or undefined. */
export function repositoryRootOfContext(
  env: Readonly<Record<string, string | undefined>>,
  handle: string,
): string | undefined {
  const home = env.HOME;
  if (home === undefined || home === "" || !/^rctx1_[0-9a-f]{64}$/.test(handle)) return undefined;
  try {
    const record = JSON.parse(readFileSync(join(registryDir(home), `${handle}.json`), "utf8")) as {
      repository_root?: unknown;
    };
    return typeof record.repository_root === "string" ? record.repository_root : undefined;
  } catch {
    return undefined;
  }
}
