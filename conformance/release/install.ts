import { chmod, mkdir, rename, rm, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import { sha256Hex, verifyChecksum } from "./checksums.ts";
import { ReleaseError } from "./errors.ts";
import { downloadAsset, fetchRelease, type GithubOptions } from "./github.ts";
import { readTarGz } from "./ustar.ts";

export const RELEASE_OS = ["linux", "darwin"] as const;
export const RELEASE_ARCH = ["amd64", "arm64"] as const;
export type ReleaseOs = (typeof RELEASE_OS)[number];
export type ReleaseArch = (typeof RELEASE_ARCH)[number];

/** What `installRelease` needs: the tag, the platform and where to cache the binary. */
export interface InstallReleaseOptions extends GithubOptions {
  readonly tag: string;
  readonly os: ReleaseOs;
  readonly arch: ReleaseArch;
  readonly cacheDir: string;
}

/** The verified binary and the digests that prove where it came from. */
export interface InstalledRelease {
  readonly tag: string;
  readonly version: string;
  readonly asset: string;
  readonly archiveSha256: string;
  readonly binarySha256: string;
  readonly binaryPath: string;
}

/** The platform this process runs on, in GoReleaser naming, or undefined when no asset is built for it. */
export function hostPlatform(): { os: ReleaseOs | undefined; arch: ReleaseArch | undefined } {
  const os = process.platform === "linux" || process.platform === "darwin" ? process.platform : undefined;
  const arch = process.arch === "x64" ? "amd64" : process.arch === "arm64" ? "arm64" : undefined;
  return { os, arch };
}

/** Default cache root: `$XDG_CACHE_HOME` or `~/.cache`, under gentle-relay-conformance/releases. */
export function defaultCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.XDG_CACHE_HOME || join(homedir(), ".cache"), "gentle-relay-conformance", "releases");
}

/** `v2.4.0` -> `2.4.0`; throws bad-input for anything that is not a semver tag. */
export function tagVersion(tag: string): string {
  const m = /^v(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?)$/.exec(tag);
  if (m?.[1] === undefined)
    throw new ReleaseError("bad-input", `release tag must look like v<X.Y.Z>, got ${JSON.stringify(tag)}`);
  return m[1];
}

/** The GoReleaser platform archive name. */
export function archiveName(version: string, os: ReleaseOs, arch: ReleaseArch): string {
  return `gentle-ai_${version}_${os}_${arch}.tar.gz`;
}

/** Downloads, checksum-verifies, then unpacks the release's gentle-ai binary into the cache (mode 0755). */
export async function installRelease(options: InstallReleaseOptions): Promise<InstalledRelease> {
  const version = tagVersion(options.tag);
  const asset = archiveName(version, options.os, options.arch);
  const release = await fetchRelease(options.tag, options);
  // Both assets must exist before anything is downloaded, so a missing one fails fast and cheaply.
  for (const name of ["checksums.txt", asset]) {
    if (!release.assets.some((a) => a.name === name)) {
      const have = release.assets.map((a) => a.name).join(", ") || "none";
      throw new ReleaseError("asset-missing", `release ${options.tag} has no asset ${name} (assets: ${have})`);
    }
  }
  const checksums = (await downloadAsset(release, "checksums.txt")).toString("utf8");
  const archive = await downloadAsset(release, asset);
  // The archive is only parsed after its digest matches: nothing unverified is unpacked or executed.
  const archiveSha256 = verifyChecksum(checksums, asset, archive);
  const entry = readTarGz(archive).find((f) => f.path === "gentle-ai" || f.path === "./gentle-ai");
  if (entry === undefined) throw new ReleaseError("bad-archive", `${asset} holds no top-level gentle-ai file`);
  const dir = join(options.cacheDir, options.tag, `${options.os}_${options.arch}`);
  await mkdir(dir, { recursive: true });
  const binaryPath = join(dir, "gentle-ai");
  const binarySha256 = sha256Hex(entry.bytes);
  const tmp = `${binaryPath}.${process.pid}.tmp`;
  try {
    await writeFile(tmp, entry.bytes, { mode: 0o755 });
    await chmod(tmp, 0o755);
    await rename(tmp, binaryPath);
  } finally {
    await rm(tmp, { force: true });
  }
  const integrity = {
    schema: "gentle-relay-conformance.release-install/v1",
    tag: options.tag,
    asset,
    archiveSha256,
    binarySha256,
  };
  await writeFile(join(dir, "integrity.json"), `${JSON.stringify(integrity, null, 2)}\n`);
  return { tag: options.tag, version, asset, archiveSha256, binarySha256, binaryPath };
}
