import { writeSync } from "node:fs";
import { sleepSync } from "./sleep.ts";

/**
 * Writes every byte of buf to fd synchronously (binary safe), retrying short writes and EAGAIN on non-blocking pipes.
 */
export function writeAllSync(fd: number, buf: Buffer): void {
  let off = 0;
  let backoff = 1;
  while (off < buf.length) {
    try {
      off += writeSync(fd, buf, off, buf.length - off);
      backoff = 1;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "EAGAIN" && code !== "EWOULDBLOCK") throw error;
      // The reader is slower than us (large outputs); wait for the pipe to drain.
      sleepSync(backoff);
      backoff = Math.min(backoff * 2, 20);
    }
  }
}

/**
 * Writes buf to fd (paced in chunks when drip is given); a reader that went away (EPIPE) only loses the rest of the
 * stream, as for any CLI: the caller goes on and ends the call as planned.
 */
export function writeUnlessClosed(
  fd: number,
  buf: Buffer,
  drip: { readonly chunkBytes: number; readonly intervalMs: number } | null = null,
): void {
  try {
    if (drip) writeDripSync(fd, buf, drip.chunkBytes, drip.intervalMs);
    else writeAllSync(fd, buf);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EPIPE") throw error;
  }
}

/** Writes buf in chunks of chunkBytes with intervalMs pauses between them (the slow-drip fault). */
export function writeDripSync(fd: number, buf: Buffer, chunkBytes: number, intervalMs: number): void {
  for (let off = 0; off < buf.length; off += chunkBytes) {
    if (off > 0) sleepSync(intervalMs);
    writeAllSync(fd, buf.subarray(off, off + chunkBytes));
  }
}
