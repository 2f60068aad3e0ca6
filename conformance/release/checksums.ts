import { createHash } from "node:crypto";
import { ReleaseError } from "./errors.ts";

/** Parses GoReleaser `checksums.txt`: `<64 lowercase hex>  <asset name>` per line; other lines are ignored. */
export function parseChecksums(text: string): Map<string, string> {
  const sums = new Map<string, string>();
  for (const line of text.split(/\r?\n/)) {
    const m = /^([0-9a-f]{64}) [ *](\S.*)$/.exec(line);
    if (m?.[1] !== undefined && m[2] !== undefined) sums.set(m[2], m[1]);
  }
  return sums;
}

/** Lowercase hex sha256 of bytes. */
export function sha256Hex(bytes: Buffer): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** Throws unless `bytes` hash to the line checksums.txt has for `assetName`. */
export function verifyChecksum(checksumsText: string, assetName: string, bytes: Buffer): string {
  const expected = parseChecksums(checksumsText).get(assetName);
  if (expected === undefined) {
    throw new ReleaseError("checksum-line-missing", `checksums.txt has no line for ${assetName}`);
  }
  const actual = sha256Hex(bytes);
  if (actual !== expected) {
    throw new ReleaseError(
      "checksum-mismatch",
      `sha256 of ${assetName} is ${actual} but checksums.txt says ${expected}; refusing to unpack`,
    );
  }
  return actual;
}
