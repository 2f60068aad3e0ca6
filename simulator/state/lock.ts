import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const sleeper = new Int32Array(new SharedArrayBuffer(4));
const STALE_MS = 30_000;

function ownerIsDead(lockDir: string): boolean {
  try {
    const pid = Number(readFileSync(join(lockDir, "owner"), "utf8"));
    if (!Number.isInteger(pid) || pid <= 0) return Date.now() - statSync(lockDir).mtimeMs > STALE_MS;
    process.kill(pid, 0);
    return false;
  } catch (error) {
    // ESRCH: the owner is gone (killed by a fault or a relay timeout); ENOENT: the lock was just released.
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
}

/** Runs fn while holding an exclusive cross-process lock named `name` inside dir (mkdir is atomic). */
export function withLock<T>(dir: string, name: string, fn: () => T, timeoutMs = 20_000): T {
  mkdirSync(dir, { recursive: true });
  const lockDir = join(dir, `${name}.lock`);
  const deadline = Date.now() + timeoutMs;
  for (let wait = 1; ; wait = Math.min(wait * 2, 25)) {
    try {
      mkdirSync(lockDir);
      writeFileSync(join(lockDir, "owner"), String(process.pid));
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      if (ownerIsDead(lockDir)) rmSync(lockDir, { recursive: true, force: true });
      else if (Date.now() > deadline) throw new Error(`simulator state lock ${lockDir} is held by another process`);
      else Atomics.wait(sleeper, 0, 0, wait);
    }
  }
  try {
    return fn();
  } finally {
    rmSync(lockDir, { recursive: true, force: true });
  }
}
