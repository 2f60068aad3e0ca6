import { createHash } from "node:crypto";
import type { TranscriptEntry } from "../../simulator/output/transcript-schema.ts";
import type { CapturedFile } from "../../simulator/output/captured-files.ts";
import { HANDSHAKE_ENV } from "../contract/provider.ts";

function blob(bytes: Buffer): { sha256: string; length: number; base64: string } {
  return {
    sha256: createHash("sha256").update(bytes).digest("hex"),
    length: bytes.length,
    base64: bytes.toString("base64"),
  };
}

/** Everything one recorded call observed. */
export interface CallRecord {
  /** Recorded as the transcript's callIndex (the shim stores its start number there). */
  readonly callIndex?: number;
  readonly program: "gentle-ai" | "pi";
  readonly pid: number;
  readonly argv: readonly string[];
  readonly cwd: string;
  readonly cwdListing?: readonly string[];
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly stdin: Buffer;
  readonly files: readonly CapturedFile[];
  readonly stdout: Buffer;
  readonly stderr: Buffer;
  readonly exit: { code: number | null; signal: string | null; completed: boolean };
  readonly startedAt: Date;
  readonly durationMs: number;
}

/** Builds a transcript line in the simulator's transcript format, content always inline. */
export function transcriptEntry(record: CallRecord): TranscriptEntry {
  return {
    schema: "gentle-relay-conformance.transcript/v1",
    program: record.program,
    pid: record.pid,
    argv: [...record.argv],
    cwd: record.cwd,
    ...(record.cwdListing === undefined ? {} : { cwdListing: [...record.cwdListing] }),
    handshake: record.env[HANDSHAKE_ENV] ?? null,
    callIndex: record.callIndex ?? 0,
    faults: [],
    stdin: blob(record.stdin),
    files: record.files.map((f) => ({ path: f.path, ...blob(f.bytes) })),
    stdout: blob(record.stdout),
    stderr: blob(record.stderr),
    exit: record.exit,
    timing: { startedAt: record.startedAt.toISOString(), durationMs: Math.max(0, record.durationMs) },
  };
}
