/** Bytes and end of one finished harness-side child process: the one result type every harness spawn returns. */
export interface ChildResult {
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: Buffer;
  readonly stderr: Buffer;
  /** True when the call's bound ran out and the harness killed the child's process group. */
  readonly timedOut: boolean;
}

/** A Buffer view of execa's `encoding: 'buffer'` output (a Uint8Array; nothing when the stream was not collected). */
export function asBuffer(bytes: unknown): Buffer {
  if (bytes instanceof Uint8Array) return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return typeof bytes === "string" ? Buffer.from(bytes, "utf8") : Buffer.alloc(0);
}
