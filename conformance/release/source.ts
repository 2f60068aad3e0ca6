// The tagged commit of a release and the git blob ids of its contracts/ files, from GitHub's git data API: what the
// source tarball is checked against (conformance/release/source-tarball.ts).
import * as z from "zod/mini";
import { ReleaseError } from "./errors.ts";
import { GENTLE_AI_REPO, getApiJson, type GithubOptions } from "./github.ts";

// Annotated tags may point at other tags; git never nests them deeply, so a short chain is enough and loops end.
const MAX_TAG_DEPTH = 4;
const OBJECT_ID = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;

const GitObjectSchema = z.object({ type: z.string(), sha: z.string().check(z.regex(OBJECT_ID)) });
const GitRefSchema = z.object({ object: GitObjectSchema });
const GitTagSchema = z.object({ object: GitObjectSchema });
const GitCommitSchema = z.object({ tree: z.object({ sha: z.string().check(z.regex(OBJECT_ID)) }) });
const GitTreeSchema = z.object({
  truncated: z.boolean(),
  tree: z.array(
    z.object({ path: z.string(), mode: z.string(), type: z.string(), sha: z.string().check(z.regex(OBJECT_ID)) }),
  ),
});

/** The commit a tag names, dereferenced through annotated tag objects. */
export interface TaggedCommit {
  readonly tag: string;
  /** The annotated tag object the ref points at; null for a lightweight tag. */
  readonly tagObject: string | null;
  readonly commit: string;
}

/** One blob of a commit's tree: its git object id and mode (100644, 100755, 120000 for a symlink). */
export interface GitBlob {
  readonly sha: string;
  readonly mode: string;
}

function parsed<T>(schema: z.ZodMiniType<T>, body: unknown, what: string): T {
  const result = schema.safeParse(body);
  if (!result.success) throw new ReleaseError("http-error", `GitHub API returned an unexpected object for ${what}`);
  return result.data;
}

/** Resolves `tag` to its commit through `git/ref/tags/<tag>`, following annotated tag objects. */
export async function resolveTagCommit(tag: string, options: GithubOptions = {}): Promise<TaggedCommit> {
  const repo = options.repo ?? GENTLE_AI_REPO;
  const notFound = (): ReleaseError => new ReleaseError("tag-not-found", `no git tag ${tag} in ${repo} (HTTP 404)`);
  const ref = parsed(
    GitRefSchema,
    await getApiJson(`git/ref/tags/${encodeURIComponent(tag)}`, options, `git tag ${tag}`, notFound),
    `git tag ${tag}`,
  );
  let object = ref.object;
  let tagObject: string | null = null;
  for (let depth = 0; object.type === "tag"; depth += 1) {
    if (depth === MAX_TAG_DEPTH)
      throw new ReleaseError("http-error", `git tag ${tag} is nested more than ${MAX_TAG_DEPTH} tag objects deep`);
    tagObject ??= object.sha;
    const what = `tag object ${object.sha}`;
    object = parsed(GitTagSchema, await getApiJson(`git/tags/${object.sha}`, options, what, notFound), what).object;
  }
  if (object.type !== "commit")
    throw new ReleaseError("http-error", `git tag ${tag} names a ${object.type}, not a commit`);
  return { tag, tagObject, commit: object.sha };
}

/** The commit's root tree id and the blobs under `contracts/` (path relative to the repository root -> blob). */
export async function contractsBlobs(
  commit: string,
  options: GithubOptions = {},
): Promise<{ tree: string; blobs: Map<string, GitBlob> }> {
  const missing = (what: string) => (): ReleaseError =>
    new ReleaseError("http-error", `GitHub has no ${what} (HTTP 404)`);
  const commitWhat = `commit ${commit}`;
  const { tree } = parsed(
    GitCommitSchema,
    await getApiJson(`git/commits/${commit}`, options, commitWhat, missing(commitWhat)),
    commitWhat,
  );
  const treeWhat = `tree ${tree.sha} of commit ${commit}`;
  const listing = parsed(
    GitTreeSchema,
    await getApiJson(`git/trees/${tree.sha}?recursive=1`, options, treeWhat, missing(treeWhat)),
    treeWhat,
  );
  // A truncated listing could hide a contracts/ file, so the tarball's files could not be proven complete.
  if (listing.truncated)
    throw new ReleaseError(
      "http-error",
      `GitHub truncated the listing of ${treeWhat}; its contracts/ files cannot be checked`,
    );
  const blobs = new Map<string, GitBlob>();
  for (const entry of listing.tree) {
    if (entry.type === "blob" && entry.path.startsWith("contracts/"))
      blobs.set(entry.path, { sha: entry.sha, mode: entry.mode });
  }
  return { tree: tree.sha, blobs };
}
