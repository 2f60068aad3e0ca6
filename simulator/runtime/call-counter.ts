import { closeSync, mkdirSync, openSync, readFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import { sha256Hex } from "../platform/sha256.ts";

/**
 * Returns this call's 1-based index among calls with the same key, shared by every process using stateDir.
 * Lock-free: each call appends a unique token line to `calls/<key>.log` with O_APPEND (appends are atomic and
 * totally ordered), then reads the file back; its token's line number is its index. Parallel processes therefore
 * get distinct, gap-free indexes without a lock or fsync on the hot path.
 */
export function nextCallIndex(stateDir: string, key: string): number {
  const dir = join(stateDir, "calls");
  const file = join(dir, `${fileNameOf(key)}.log`);
  const token = `${process.pid}.${process.hrtime.bigint()}`;
  const fd = openAppend(file, dir);
  try {
    writeSync(fd, `${token}\n`);
  } finally {
    closeSync(fd);
  }
  const index = readFileSync(file, "latin1").split("\n").indexOf(token) + 1;
  if (index === 0) throw new Error(`simulator call counter ${file} lost this call's token`);
  return index;
}

/** Opens file for appending, creating its folder only when it is missing (a mkdir per call costs on slow disks). */
function openAppend(file: string, dir: string): number {
  try {
    return openSync(file, "a", 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    mkdirSync(dir, { recursive: true });
    return openSync(file, "a", 0o600);
  }
}

/** Longest encoded key kept as is: with `.log` it stays well inside NAME_MAX (255 bytes). */
const MAX_ENCODED = 200;

/**
 * A key as a portable file name: unreserved characters kept, everything else %-encoded (so no `/` or `..`). A key
 * too long for one file name (a generated operation token of many multi-byte characters is a verb) keeps its first
 * 120 encoded bytes and gains the key's SHA-256, so it stays distinct without failing the call with ENAMETOOLONG.
 */
export function fileNameOf(key: string): string {
  const encoded = Array.from(Buffer.from(key, "utf8"), (b) =>
    /[A-Za-z0-9_-]/.test(String.fromCharCode(b))
      ? String.fromCharCode(b)
      : `%${b.toString(16).toUpperCase().padStart(2, "0")}`,
  ).join("");
  return encoded.length <= MAX_ENCODED ? encoded : `${encoded.slice(0, 120)}~${sha256Hex(key)}`;
}
