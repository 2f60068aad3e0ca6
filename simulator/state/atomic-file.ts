import { closeSync, fsyncSync, openSync, renameSync, writeSync } from "node:fs";
import { randomBytes } from "node:crypto";

/** Replaces a file in one rename so a concurrent reader never sees a half-written state. */
export function writeFileAtomic(path: string, bytes: Buffer | string): void {
  const tmp = `${path}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  const fd = openSync(tmp, "w", 0o600);
  try {
    writeSync(fd, typeof bytes === "string" ? Buffer.from(bytes, "utf8") : bytes);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
}
