import { closeSync, mkdirSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from "node:fs";
import { join } from "node:path";
import { processAlive } from "../platform/process-alive.ts";

const sleeper = new Int32Array(new SharedArrayBuffer(4));

/** Test seam: runs after a waiter has seen a dead owner and before it acts on that (tests order two waiters). */
export const lockTestHooks: { afterDeadOwnerSeen?: () => void } = {};
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
      if (ownerIsDead(lockFile)) takeOverStale(lockFile);
      else if (Date.now() > deadline)
        throw new Error(`simulator state lock ${lockFile} is held by another process`, { cause: error });
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

function unlinkQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch (error) {
    // Another waiter removed it first.
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
}

/**
 * Removes a lock whose owner died. Two waiters can both see the dead owner; if each then unlinked the path, the
 * second would remove the lock the first had just taken. So removal happens only under a takeover guard (another
 * O_EXCL file), after the owner is seen dead again: while the guard is held nobody else can remove the lock, and
 * nobody can create one while the stale file still stands. A guard left by a dead waiter is removed the same way.
 */
function takeOverStale(lockFile: string): void {
  const guard = `${lockFile}.takeover`;
  let fd: number;
  try {
    fd = openSync(guard, "wx", 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    if (ownerIsDead(guard)) unlinkQuietly(guard);
    return;
  }
  try {
    writeSync(fd, String(process.pid));
  } finally {
    closeSync(fd);
  }
  try {
    if (ownerIsDead(lockFile)) {
      lockTestHooks.afterDeadOwnerSeen?.();
      unlinkQuietly(lockFile);
    }
  } finally {
    unlinkSync(guard);
  }
}
