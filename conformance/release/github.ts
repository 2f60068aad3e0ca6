import * as z from "zod/mini";
import { ReleaseError } from "./errors.ts";

export const GITHUB_API = "https://api.github.com";
export const GENTLE_AI_REPO = "Gentleman-Programming/gentle-ai";
const FETCH_TIMEOUT_MS = 120_000;

/** The part of a GitHub release object the validator reads; everything else is ignored. */
export const GithubReleaseSchema = z.object({
  tag_name: z.string(),
  draft: z.boolean(),
  prerelease: z.boolean(),
  assets: z.array(z.object({ name: z.string(), browser_download_url: z.string(), size: z.optional(z.number()) })),
});
export type GithubRelease = z.infer<typeof GithubReleaseSchema>;

/** Options shared by every request: token and fetch seam. */
export interface GithubOptions {
  readonly token?: string | undefined;
  readonly apiBase?: string;
  readonly repo?: string;
}

async function request(
  url: string,
  headers: Record<string, string>,
  what: string,
  redirect: RequestRedirect = "follow",
): Promise<Response> {
  try {
    return await fetch(url, { headers, redirect, signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
  } catch (error) {
    const cause =
      error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error);
    throw new ReleaseError("network-failure", `network failure fetching ${what} (${url}): ${cause}`, { cause: error });
  }
}

function rateLimited(response: Response): boolean {
  if (response.status !== 403 && response.status !== 429) return false;
  return response.headers.get("x-ratelimit-remaining") === "0" || response.status === 429;
}

function rateLimitError(response: Response, what: string): ReleaseError {
  const reset = Number(response.headers.get("x-ratelimit-reset"));
  const when =
    Number.isFinite(reset) && reset > 0 ? `; the limit resets at ${new Date(reset * 1000).toISOString()}` : "";
  return new ReleaseError(
    "rate-limited",
    `GitHub API rate limit exhausted (HTTP ${response.status}) fetching ${what}${when}; set GITHUB_TOKEN to raise it`,
  );
}

/** The headers of a GitHub REST API request; the token goes to api.github.com only. */
function apiHeaders(token: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {
    accept: "application/vnd.github+json",
    "x-github-api-version": "2022-11-28",
    "user-agent": "gentle-relay-conformance",
  };
  if (token) headers.authorization = `Bearer ${token}`;
  return headers;
}

/**
 * GETs `/repos/<repo>/<path>` as JSON; a 404 throws `notFound()`, a rate limit or other status its own ReleaseError.
 */
export async function getApiJson(
  path: string,
  options: GithubOptions,
  what: string,
  notFound: () => ReleaseError,
): Promise<unknown> {
  const url = `${options.apiBase ?? GITHUB_API}/repos/${options.repo ?? GENTLE_AI_REPO}/${path}`;
  const response = await request(url, apiHeaders(options.token), what);
  if (rateLimited(response)) throw rateLimitError(response, what);
  if (response.status === 404) throw notFound();
  if (!response.ok) throw new ReleaseError("http-error", `GitHub API answered HTTP ${response.status} for ${what}`);
  try {
    return await response.json();
  } catch (error) {
    throw new ReleaseError("http-error", `GitHub API returned a non-JSON body for ${what}`, { cause: error });
  }
}

/** Fetches the release for `tag` and refuses drafts and prereleases. */
export async function fetchRelease(tag: string, options: GithubOptions = {}): Promise<GithubRelease> {
  const repo = options.repo ?? GENTLE_AI_REPO;
  const body = await getApiJson(
    `releases/tags/${encodeURIComponent(tag)}`,
    options,
    `release ${tag}`,
    () => new ReleaseError("tag-not-found", `no release with tag ${tag} in ${repo} (HTTP 404)`),
  );
  const parsed = GithubReleaseSchema.safeParse(body);
  if (!parsed.success)
    throw new ReleaseError("http-error", `GitHub API returned an unexpected release object for ${tag}`);
  const release = parsed.data;
  if (release.draft)
    throw new ReleaseError("draft", `release ${tag} is a draft; only published releases are validated`);
  if (release.prerelease) {
    throw new ReleaseError(
      "prerelease",
      `release ${tag} is a prerelease; prereleases ship raw binaries with SHA256SUMS.txt, not the checked archive set`,
    );
  }
  return release;
}

/** Downloads one named asset of the release as bytes. */
export async function downloadAsset(release: GithubRelease, name: string): Promise<Buffer> {
  const asset = release.assets.find((a) => a.name === name);
  if (asset === undefined) {
    const have = release.assets.map((a) => a.name).join(", ") || "none";
    throw new ReleaseError("asset-missing", `release ${release.tag_name} has no asset ${name} (assets: ${have})`);
  }
  // No token here: browser downloads redirect to a CDN host that must not receive it.
  const response = await request(
    asset.browser_download_url,
    { accept: "application/octet-stream", "user-agent": "gentle-relay-conformance" },
    name,
  );
  if (rateLimited(response)) throw rateLimitError(response, name);
  if (response.status === 404)
    throw new ReleaseError("asset-missing", `asset ${name} is listed but its download answered HTTP 404`);
  if (!response.ok) throw new ReleaseError("http-error", `download of ${name} answered HTTP ${response.status}`);
  try {
    return Buffer.from(await response.arrayBuffer());
  } catch (error) {
    throw new ReleaseError("network-failure", `network failure while reading ${name}: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

/**
 * Downloads the source tarball GitHub's API serves for `ref` (`/repos/<repo>/tarball/<ref>`). The API answers with a
 * redirect to codeload.github.com, followed by hand so the token never leaves api.github.com.
 */
export async function downloadSourceTarball(ref: string, options: GithubOptions = {}): Promise<Buffer> {
  const url = `${options.apiBase ?? GITHUB_API}/repos/${options.repo ?? GENTLE_AI_REPO}/tarball/${encodeURIComponent(ref)}`;
  const what = `source tarball of ${ref}`;
  let response = await request(url, apiHeaders(options.token), what, "manual");
  const location = response.headers.get("location");
  if (response.status >= 300 && response.status < 400 && location !== null) {
    const next = new URL(location, url).href;
    response = await request(
      next,
      { accept: "application/octet-stream", "user-agent": "gentle-relay-conformance" },
      what,
    );
  }
  if (rateLimited(response)) throw rateLimitError(response, what);
  if (!response.ok) throw new ReleaseError("http-error", `download of the ${what} answered HTTP ${response.status}`);
  try {
    return Buffer.from(await response.arrayBuffer());
  } catch (error) {
    throw new ReleaseError(
      "network-failure",
      `network failure while reading the ${what}: ${(error as Error).message}`,
      { cause: error },
    );
  }
}
