import { readFileSync, statSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import { createHash } from "node:crypto";
import type { TranscriptEntry } from "../../simulator/output/transcript-schema.ts";
import { HANDSHAKE_ENV } from "../contract/provider.ts";
export { appendTranscript } from "../../simulator/output/transcript.ts";

// Reviewer results and evidence are bounded at 4 MiB by the provider; the cap only stops a runaway read.
const MAX_FILE_BYTES = 64 * 1024 * 1024;

/** A file a call was handed by path, read before the callee could change or the caller delete it. */
export interface CapturedFile {
  readonly path: string;
  readonly bytes: Buffer;
}

/**
 * Files a call receives by path: every flag value (`--x=v`, or the token after a bare `--x`) and positional that
 * names an existing regular file. This is how a recorder sees the submitted result without knowing any verb.
 */
export function capturedInputFiles(argv: readonly string[], cwd: string): CapturedFile[] {
  const candidates: string[] = [];
  argv.forEach((token, i) => {
    if (token.startsWith("-")) {
      const eq = token.indexOf("=");
      if (eq > 0) candidates.push(token.slice(eq + 1));
      else if (argv[i + 1] !== undefined && !argv[i + 1]!.startsWith("-")) candidates.push(argv[i + 1]!);
    } else candidates.push(token);
  });
  const seen = new Set<string>();
  const files: CapturedFile[] = [];
  for (const value of candidates) {
    if (value === "" || value === "-" || seen.has(value)) continue;
    seen.add(value);
    const full = isAbsolute(value) ? value : resolve(cwd, value);
    try {
      const st = statSync(full);
      if (!st.isFile() || st.size > MAX_FILE_BYTES) continue;
      files.push({ path: value, bytes: readFileSync(full) });
    } catch {
      // Not a file: an ordinary flag value.
    }
  }
  return files;
}

function blob(bytes: Buffer): { sha256: string; length: number; base64: string } {
  return { sha256: createHash("sha256").update(bytes).digest("hex"), length: bytes.length, base64: bytes.toString("base64") };
}

/** Everything one recorded or replayed call observed. */
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
