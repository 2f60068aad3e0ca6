import { existsSync, readFileSync } from "node:fs";
import { TranscriptEntrySchema, type Blob, type TranscriptEntry } from "../../simulator/output/transcript-schema.ts";

export type { TranscriptEntry };

/** Reads and validates a JSONL transcript; a missing file is an empty transcript (nothing launched). */
export function readTranscript(path: string): TranscriptEntry[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line, index) => {
      const parsed = TranscriptEntrySchema.safeParse(JSON.parse(line));
      if (!parsed.success) throw new Error(`${path}:${index + 1}: not a transcript entry: ${parsed.error.message}`);
      return parsed.data;
    });
}

/** A blob's bytes; the harness never sets an inline cap, so base64 is always present. */
export function blobBytes(blob: Blob): Buffer {
  if (blob.base64 === undefined) throw new Error(`transcript blob of ${blob.length} bytes carries no content`);
  return Buffer.from(blob.base64, "base64");
}
