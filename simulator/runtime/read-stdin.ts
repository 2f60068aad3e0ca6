import { readSync } from "node:fs";
import { sleepSync } from "../platform/sleep.ts";

/**
 * Reads fd to EOF synchronously as raw bytes (EAGAIN-safe for non-blocking pipes; a closed or absent stdin gives no
 * bytes).
 */
export function readAllSync(fd: number): Buffer {
  const chunks: Buffer[] = [];
  let size = 64 * 1024;
  for (;;) {
    const buf = Buffer.allocUnsafe(size);
    let n: number;
    try {
      n = readSync(fd, buf, 0, buf.length, null);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "EAGAIN" || code === "EWOULDBLOCK") {
        sleepSync(1);
        continue;
      }
      if (code === "EOF" || code === "EBADF" || code === "EINVAL" || code === "ENXIO") break;
      throw error;
    }
    if (n === 0) break;
    chunks.push(n === buf.length ? buf : buf.subarray(0, n));
    // Grow the read size for large prompts (the relay is tested with 64 MiB payloads).
    if (size < 8 * 1024 * 1024) size *= 2;
  }
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
}
