import { closeSync, openSync, renameSync, writeSync } from "node:fs";

/** Replaces a file in one rename so a concurrent reader never sees a half-written state. */
export function writeFileAtomic(path: string, bytes: Buffer | string): void {
  const tmp = `${path}.${process.pid}.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}.tmp`;
  const fd = openSync(tmp, "w", 0o600);
  try {
    // No fsync: the rename alone keeps concurrent readers consistent, and a simulator's state need not survive a
    // machine crash; fsync cost a few ms on every state-changing call.
    writeSync(fd, typeof bytes === "string" ? Buffer.from(bytes, "utf8") : bytes);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
}
