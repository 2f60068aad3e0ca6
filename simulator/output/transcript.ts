import { closeSync, mkdirSync, openSync, readFileSync } from "node:fs";
import { dirname } from "node:path";
import type { Blob, TranscriptEntry } from "./transcript-schema.ts";
import { writeAllSync } from "../platform/emit.ts";
import { sha256Hex } from "../platform/sha256.ts";

/** Digest, length and (up to inlineMax bytes) base64 of buf: binary safe for NUL, invalid UTF-8 and CRLF. */
export function blobOf(buf: Buffer, inlineMax: number): Blob {
  const sha256 = sha256Hex(buf);
  return buf.length > inlineMax
    ? { sha256, length: buf.length }
    : { sha256, length: buf.length, base64: buf.toString("base64") };
}

/** Decodes a blob's inline content back to bytes (no content: no bytes). */
export function blobBytes(blob: { readonly base64?: string | undefined }): Buffer {
  return Buffer.from(blob.base64 ?? "", "base64");
}

/**
 * Appends one JSON line. The file is opened O_APPEND and the whole line goes out in one write(), so lines of
 * parallel processes never interleave (Linux holds the inode lock for the whole write on regular files).
 */
export function appendTranscript(path: string, entry: TranscriptEntry): void {
  mkdirSync(dirname(path), { recursive: true });
  const fd = openSync(path, "a", 0o600);
  try {
    writeAllSync(fd, Buffer.from(`${JSON.stringify(entry)}\n`, "utf8"));
  } finally {
    closeSync(fd);
  }
}

/** Every line of a transcript file, in file order; a missing file is an empty transcript. */
export function readTranscript(path: string): TranscriptEntry[] {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return [];
  }
  return text
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as TranscriptEntry);
}
