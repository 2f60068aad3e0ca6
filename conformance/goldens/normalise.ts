import { createHash } from "node:crypto";
import type { TranscriptEntry } from "../../simulator/output/transcript-schema.ts";
import { blobBytes } from "../../simulator/output/transcript.ts";
import { normaliseBytes, normaliseText, type PlaceholderRule } from "../../simulator/output/path-placeholders.ts";
import type { GoldenBlob, GoldenCall } from "./golden-schema.ts";

/** Digest, length and base64 of bytes. */
export function blobOf(bytes: Buffer): GoldenBlob {
  return {
    sha256: createHash("sha256").update(bytes).digest("hex"),
    length: bytes.length,
    base64: bytes.toString("base64"),
  };
}

function normaliseBlob(
  blob: { base64?: string | undefined; sha256: string; length: number },
  rules: readonly PlaceholderRule[],
): GoldenBlob {
  if (blob.base64 === undefined)
    throw new Error(`transcript blob ${blob.sha256} has no content; record with inline content`);
  return blobOf(normaliseBytes(blobBytes(blob), rules));
}

/** Turns one transcript entry into a golden call: pid, timing, call index and faults dropped; paths replaced. */
export function normaliseCall(entry: TranscriptEntry, rules: readonly PlaceholderRule[], nested = false): GoldenCall {
  return {
    program: entry.program,
    ...(nested ? { nested: true as const } : {}),
    argv: entry.argv.map((a) => normaliseText(a, rules)),
    cwd: normaliseText(entry.cwd, rules),
    ...(entry.cwdListing === undefined ? {} : { cwdListing: entry.cwdListing.map((n) => normaliseText(n, rules)) }),
    handshake: entry.handshake,
    stdin: normaliseBlob(entry.stdin, rules),
    files: entry.files.map((f) => ({ path: normaliseText(f.path, rules), ...normaliseBlob(f, rules) })),
    stdout: normaliseBlob(entry.stdout, rules),
    stderr: normaliseBlob(entry.stderr, rules),
    exit: { ...entry.exit },
  };
}

/**
 * Orders shim transcript lines by start (callIndex holds the start number; line order is the end order) and marks
 * calls that began and ended inside another call as nested.
 */
export function orderByStart(entries: readonly TranscriptEntry[]): { entry: TranscriptEntry; nested: boolean }[] {
  const withEnd = entries.map((entry, end) => ({ entry, end }));
  return withEnd
    .map(({ entry, end }) => ({
      entry,
      nested: withEnd.some((o) => o.entry.callIndex < entry.callIndex && o.end > end),
    }))
    .sort((a, b) => a.entry.callIndex - b.entry.callIndex);
}
