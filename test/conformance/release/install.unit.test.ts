import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, statSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { installRelease } from "../../../conformance/release/install.ts";
import { ReleaseError, RELEASE_FAILURE } from "../../../conformance/release/errors.ts";
import { writeTar } from "../../support/ustar-write.ts";

const API = "https://api.github.com/repos/Gentleman-Programming/gentle-ai/releases/tags";
const DL = "https://github.com/Gentleman-Programming/gentle-ai/releases/download";
const ASSET = "gentle-ai_2.4.0_linux_amd64.tar.gz";
const BINARY = Buffer.from("#!/bin/sh\necho 'gentle-ai 2.4.0'\n");
const ARCHIVE = gzipSync(
  writeTar([
    { path: "LICENSE", mode: 0o644, bytes: Buffer.from("MIT\n") },
    { path: "gentle-ai", mode: 0o755, bytes: BINARY },
  ]),
);
const hex = (b: Buffer): string => createHash("sha256").update(b).digest("hex");

interface Fixture {
  release: Record<string, unknown>;
  archive: Buffer;
  checksums: string;
  requests: string[];
  auth: (string | null)[];
}
let fx: Fixture;

function releaseBody(assets: string[], extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    tag_name: "v2.4.0",
    draft: false,
    prerelease: false,
    assets: assets.map((name) => ({ name, browser_download_url: `${DL}/v2.4.0/${name}`, size: 1 })),
    ...extra,
  };
}

const server = setupServer(
  http.get(`${API}/:tag`, ({ request, params }) => {
    fx.requests.push(request.url);
    fx.auth.push(request.headers.get("authorization"));
    if (params.tag !== "v2.4.0") return HttpResponse.json({ message: "Not Found" }, { status: 404 });
    return HttpResponse.json(fx.release);
  }),
  http.get(`${DL}/v2.4.0/:name`, ({ request, params }) => {
    fx.requests.push(request.url);
    fx.auth.push(request.headers.get("authorization"));
    if (params.name === "checksums.txt") return new HttpResponse(fx.checksums);
    if (params.name === ASSET) return new HttpResponse(fx.archive);
    return new HttpResponse(null, { status: 404 });
  }),
);

let cache: string;
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterAll(() => server.close());
beforeEach(() => {
  cache = mkdtempSync(join(tmpdir(), "release-test-"));
  fx = {
    release: releaseBody(["checksums.txt", ASSET, "checksums.txt.minisig"]),
    archive: ARCHIVE,
    checksums: `${hex(Buffer.from("other"))}  gentle-ai_2.4.0_darwin_arm64.tar.gz\n${hex(ARCHIVE)}  ${ASSET}\n`,
    requests: [],
    auth: [],
  };
});
afterEach(() => {
  server.resetHandlers();
  rmSync(cache, { recursive: true, force: true });
});

const install = (tag = "v2.4.0", token?: string) =>
  installRelease({ tag, os: "linux", arch: "amd64", cacheDir: cache, token });

async function failure(p: Promise<unknown>): Promise<ReleaseError> {
  const error = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ReleaseError);
  return error as ReleaseError;
}

function nothingInstalled(): void {
  expect(existsSync(join(cache, "v2.4.0"))).toBe(false);
}

describe("installRelease", () => {
  it("verifies the archive digest and unpacks gentle-ai with mode 0755", async () => {
    const installed = await install();
    expect(installed).toEqual({
      tag: "v2.4.0",
      version: "2.4.0",
      asset: ASSET,
      archiveSha256: hex(ARCHIVE),
      binarySha256: hex(BINARY),
      binaryPath: join(cache, "v2.4.0", "linux_amd64", "gentle-ai"),
    });
    expect(readFileSync(installed.binaryPath)).toEqual(BINARY);
    expect(statSync(installed.binaryPath).mode & 0o777).toBe(0o755);
    expect(fx.requests).toEqual([`${API}/v2.4.0`, `${DL}/v2.4.0/checksums.txt`, `${DL}/v2.4.0/${ASSET}`]);
    expect(fx.auth).toEqual([null, null, null]);
  });

  it("sends GITHUB_TOKEN to the API only, never to the download host", async () => {
    await install("v2.4.0", "tok123");
    expect(fx.auth).toEqual(["Bearer tok123", null, null]);
  });

  it("refuses a wrong checksum before unpacking anything", async () => {
    fx.archive = Buffer.concat([ARCHIVE, Buffer.from([0])]);
    const e = await failure(install());
    expect(e.code).toBe("checksum-mismatch");
    expect(e.exitCode).toBe(RELEASE_FAILURE["checksum-mismatch"]);
    expect(e.message).toBe(
      `sha256 of ${ASSET} is ${hex(fx.archive)} but checksums.txt says ${hex(ARCHIVE)}; refusing to unpack`,
    );
    nothingInstalled();
  });

  it("refuses an archive with no checksum line", async () => {
    fx.checksums = `${hex(ARCHIVE)}  gentle-ai_2.4.0_linux_arm64.tar.gz\n`;
    const e = await failure(install());
    expect([e.code, e.message]).toEqual(["checksum-line-missing", `checksums.txt has no line for ${ASSET}`]);
    nothingInstalled();
  });

  it("refuses a release without the platform archive", async () => {
    fx.release = releaseBody(["checksums.txt"]);
    const e = await failure(install());
    expect([e.code, e.message]).toEqual([
      "asset-missing",
      `release v2.4.0 has no asset ${ASSET} (assets: checksums.txt)`,
    ]);
    expect(fx.requests).toEqual([`${API}/v2.4.0`]);
  });

  it("refuses a release without checksums.txt", async () => {
    fx.release = releaseBody([ASSET]);
    const e = await failure(install());
    expect([e.code, e.message]).toEqual([
      "asset-missing",
      `release v2.4.0 has no asset checksums.txt (assets: ${ASSET})`,
    ]);
  });

  it("reports a 404 tag", async () => {
    const e = await failure(install("v9.9.9"));
    expect([e.code, e.exitCode, e.message]).toEqual([
      "tag-not-found",
      RELEASE_FAILURE["tag-not-found"],
      "no release with tag v9.9.9 in Gentleman-Programming/gentle-ai (HTTP 404)",
    ]);
  });

  it.each([403, 429])("reports an exhausted rate limit (HTTP %i)", async (status) => {
    server.use(
      http.get(`${API}/:tag`, () =>
        HttpResponse.json(
          { message: "API rate limit exceeded" },
          { status, headers: { "x-ratelimit-remaining": "0", "x-ratelimit-reset": "1800000000" } },
        ),
      ),
    );
    const e = await failure(install());
    expect([e.code, e.exitCode, e.message]).toEqual([
      "rate-limited",
      RELEASE_FAILURE["rate-limited"],
      `GitHub API rate limit exhausted (HTTP ${status}) fetching release v2.4.0; the limit resets at 2027-01-15T08:00:00.000Z; set GITHUB_TOKEN to raise it`,
    ]);
  });

  it("treats a 403 with remaining quota as a plain HTTP error, not a rate limit", async () => {
    server.use(
      http.get(
        `${API}/:tag`,
        () => new HttpResponse(null, { status: 403, headers: { "x-ratelimit-remaining": "12" } }),
      ),
    );
    const e = await failure(install());
    expect([e.code, e.message]).toEqual(["http-error", "GitHub API answered HTTP 403 for release v2.4.0"]);
  });

  it("refuses a prerelease", async () => {
    fx.release = releaseBody(["checksums.txt", ASSET], { prerelease: true });
    const e = await failure(install());
    expect([e.code, e.exitCode]).toEqual(["prerelease", RELEASE_FAILURE.prerelease]);
    expect(e.message).toMatch(/^release v2\.4\.0 is a prerelease;/);
    expect(fx.requests).toHaveLength(1);
  });

  it("refuses a draft", async () => {
    fx.release = releaseBody(["checksums.txt", ASSET], { draft: true });
    const e = await failure(install());
    expect([e.code, e.exitCode, e.message]).toEqual([
      "draft",
      RELEASE_FAILURE.draft,
      "release v2.4.0 is a draft; only published releases are validated",
    ]);
  });

  it("reports a network failure on the API", async () => {
    server.use(http.get(`${API}/:tag`, () => HttpResponse.error()));
    const e = await failure(install());
    expect(e.code).toBe("network-failure");
    expect(e.message).toMatch(
      /^network failure fetching release v2\.4\.0 \(https:\/\/api\.github\.com\/repos\/Gentleman-Programming\/gentle-ai\/releases\/tags\/v2\.4\.0\): /,
    );
  });

  it("reports a network failure on the download", async () => {
    server.use(http.get(`${DL}/v2.4.0/${ASSET}`, () => HttpResponse.error()));
    const e = await failure(install());
    expect(e.code).toBe("network-failure");
    expect(e.message).toMatch(new RegExp(`^network failure fetching ${ASSET.replaceAll(".", "\\.")} `));
    nothingInstalled();
  });

  it("refuses a verified archive that holds no gentle-ai", async () => {
    fx.archive = gzipSync(writeTar([{ path: "docs/gentle-ai", mode: 0o755, bytes: BINARY }]));
    fx.checksums = `${hex(fx.archive)}  ${ASSET}\n`;
    const e = await failure(install());
    expect([e.code, e.message]).toEqual(["bad-archive", `${ASSET} holds no top-level gentle-ai file`]);
  });

  it("rejects a malformed tag before any request", async () => {
    const e = await failure(install("2.4.0"));
    expect([e.code, e.exitCode]).toEqual(["bad-input", 2]);
    expect(fx.requests).toEqual([]);
  });

  it("gives every failure its own exit code", () => {
    const codes = Object.values(RELEASE_FAILURE);
    expect(new Set(codes).size).toBe(codes.length);
    expect(codes).not.toContain(0);
    expect(codes).not.toContain(1);
  });
});
