// Checks a GitHub source tarball against the tagged commit and extracts only its contracts/ tree, safely.
//
// What is verified: the tarball's pax global header `comment` (git archive writes the commit id there) is the tagged
// commit; every entry sits in one top folder whose name ends in a prefix of that commit id; and the files under
// contracts/ are exactly the blobs the commit's tree lists there, each hashing to its git blob id. What is not:
// GitHub publishes no digest for source archives (their bytes may change when GitHub regenerates them), so the
// tarball's sha256 is recorded, not compared; files outside contracts/ are neither checked nor extracted; tag and
// commit signatures are not checked; nothing proves the release binary was built from this commit.
import { createHash } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, resolve, sep } from "node:path";
import { sha256Hex } from "./checksums.ts";
import { ReleaseError } from "./errors.ts";
import type { GitBlob } from "./source.ts";
import { gunzipArchive, readTarEntries, type TarEntry } from "./ustar.ts";

/** The verified contracts/ files of a source tarball and what they were verified against. */
export interface VerifiedContracts {
  readonly commit: string;
  /** sha256 of the tarball bytes as downloaded (recorded for the report; GitHub publishes none to compare with). */
  readonly tarballSha256: string;
  readonly topFolder: string;
  /** Path relative to the repository root (`contracts/…`) -> bytes. */
  readonly files: ReadonlyMap<string, Buffer>;
}

/** Git's object id of a blob: sha1 (or sha256 in a sha256 repository) of `blob <size>\0<bytes>`. */
export function gitBlobId(bytes: Buffer, algorithm: "sha1" | "sha256" = "sha1"): string {
  return createHash(algorithm).update(`blob ${bytes.length}\0`).update(bytes).digest("hex");
}

/** Refuses a path that is absolute or climbs out with `..` (or would on Windows); returns its segments. */
function safeSegments(path: string): string[] {
  if (path.startsWith("/") || path.includes("\\") || path.includes("\0") || /^[A-Za-z]:/.test(path)) {
    throw new ReleaseError(
      "unsafe-archive",
      `source tarball entry ${JSON.stringify(path)} has an absolute or non-POSIX path; refusing to extract`,
    );
  }
  const segments = path.split("/").filter((s) => s !== "" && s !== ".");
  if (segments.includes(".."))
    throw new ReleaseError(
      "unsafe-archive",
      `source tarball entry ${JSON.stringify(path)} climbs out with ..; refusing to extract`,
    );
  return segments;
}

/** The single top folder every entry sits in (GitHub names it `<owner>-<repo>-<short commit>`). */
function topFolder(entries: readonly TarEntry[]): string {
  const tops = new Set(entries.map((e) => safeSegments(e.path)[0] ?? ""));
  const [top] = tops;
  if (tops.size !== 1 || top === undefined || top === "") {
    throw new ReleaseError(
      "source-mismatch",
      `source tarball entries are not all in one top folder (${[...tops].map((t) => JSON.stringify(t)).join(", ")})`,
    );
  }
  return top;
}

/**
 * Verifies a source tarball (.tar.gz) against the tagged commit and the blobs its tree lists under contracts/, and
 * returns those files; throws source-mismatch, unsafe-archive or bad-archive, having written nothing.
 */
export function verifySourceTarball(
  tarball: Buffer,
  commit: string,
  blobs: ReadonlyMap<string, GitBlob>,
): VerifiedContracts {
  const tarballSha256 = sha256Hex(tarball);
  const { entries, global } = readTarEntries(gunzipArchive(tarball));
  // Every path is checked, not only contracts/: an archive that tries to escape is not trusted for anything.
  const top = topFolder(entries);
  const named = global.get("comment");
  if (named !== commit) {
    throw new ReleaseError(
      "source-mismatch",
      named === undefined
        ? `source tarball carries no commit id (no pax global header comment); expected ${commit}`
        : `source tarball is of commit ${named}, not the tagged commit ${commit}`,
    );
  }
  const short = /-([0-9a-f]{7,})$/.exec(top)?.[1];
  if (short === undefined || !commit.startsWith(short)) {
    throw new ReleaseError(
      "source-mismatch",
      `source tarball's top folder ${JSON.stringify(top)} does not name commit ${commit}`,
    );
  }
  const files = new Map<string, Buffer>();
  for (const entry of entries) {
    const rel = safeSegments(entry.path).slice(1);
    if (rel[0] !== "contracts") continue;
    const path = rel.join("/");
    if (entry.type === "directory") continue;
    if (entry.type !== "file") {
      throw new ReleaseError(
        "unsafe-archive",
        `source tarball entry ${path} is a ${entry.type}${entry.linkname ? ` to ${JSON.stringify(entry.linkname)}` : ""}; only regular files are extracted`,
      );
    }
    if (files.has(path)) throw new ReleaseError("unsafe-archive", `source tarball holds ${path} twice`);
    files.set(path, entry.bytes);
  }
  const algorithm = commit.length === 64 ? "sha256" : "sha1";
  for (const [path, blob] of blobs) {
    const bytes = files.get(path);
    if (bytes === undefined)
      throw new ReleaseError("source-mismatch", `source tarball lacks ${path}, which commit ${commit} has`);
    const id = gitBlobId(bytes, algorithm);
    if (id !== blob.sha)
      throw new ReleaseError(
        "source-mismatch",
        `source tarball's ${path} has git blob id ${id}, but commit ${commit} has ${blob.sha}`,
      );
  }
  for (const path of files.keys()) {
    if (!blobs.has(path))
      throw new ReleaseError("source-mismatch", `source tarball holds ${path}, which commit ${commit} does not`);
  }
  return { commit, tarballSha256, topFolder: top, files };
}

/**
 * Writes verified files under `dir` (which must exist), mode 0644, never outside it and never over an existing file.
 */
export async function writeContracts(files: ReadonlyMap<string, Buffer>, dir: string): Promise<void> {
  const root = resolve(dir);
  for (const [path, bytes] of files) {
    const target = resolve(root, ...safeSegments(path));
    if (!target.startsWith(root + sep))
      throw new ReleaseError("unsafe-archive", `${path} resolves outside the extraction folder`);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, bytes, { mode: 0o644, flag: "wx" });
  }
}
