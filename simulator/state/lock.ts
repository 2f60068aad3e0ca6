import { closeSync, mkdirSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from "node:fs";
import { join } from "node:path";
import { processAlive } from "../runtime/process-alive.ts";

const sleeper = new Int32Array(new SharedArrayBuffer(4));
const STALE_MS = 30_000;

function ownerIsDead(lockFile: string): boolean {
  try {
    const pid = Number(readFileSync(lockFile, "utf8"));
    // An empty file: its owner died between creating and writing it, or is writing it now; age tells which.
    if (!Number.isInteger(pid) || pid <= 0) return Date.now() - statSync(lockFile).mtimeMs > STALE_MS;
    // Gone: killed by a fault or a relay timeout.
    return !processAlive(pid);
  } catch {
    // ENOENT: the lock was just released.
    return false;
  }
}

/**
 * Runs fn while holding an exclusive cross-process lock named `name` inside dir: a file created with O_EXCL that
 * holds the owner's pid (one create and one unlink; a lock folder with an owner file inside cost twice the calls).
 */
export function withLock<T>(dir: string, name: string, fn: () => T, timeoutMs = 20_000): T {
  mkdirSync(dir, { recursive: true });
  const lockFile = join(dir, `${name}.lock`);
  const deadline = Date.now() + timeoutMs;
  for (let wait = 1; ; wait = Math.min(wait * 2, 25)) {
    let fd: number;
    try {
      fd = openSync(lockFile, "wx", 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      if (ownerIsDead(lockFile)) unlinkStale(lockFile);
      else if (Date.now() > deadline) throw new Error(`simulator state lock ${lockFile} is held by another process`);
      else Atomics.wait(sleeper, 0, 0, wait);
      continue;
    }
    try {
      writeSync(fd, String(process.pid));
    } finally {
      closeSync(fd);
    }
    break;
  }
  try {
    return fn();
  } finally {
    unlinkSync(lockFile);
  }
}

function unlinkStale(lockFile: string): void {
  try {
    unlinkSync(lockFile);
  } catch (error) {
    // Another waiter removed it first.
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
}
