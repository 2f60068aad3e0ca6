// Process-wide teardown for an interrupted command (SIGINT, SIGTERM, a closed stdout): every temp folder the
// harness created and every process it started (with their process groups) go away, synchronously, before exit.
// Creation sites register what they own; a normal run unregisters it when it cleans up itself.
import { existsSync, rmSync } from "node:fs";
import { killTreeSync } from "./process-tree.ts";

const tempDirs = new Set<string>();
const groups = new Set<number>();

/** Registers a temp folder for removal on interruption; call the returned function once it is removed normally. */
export function trackTempDir(dir: string): () => void {
  tempDirs.add(dir);
  return () => {
    tempDirs.delete(dir);
  };
}

/** Registers a process group (a detached child's pid) to SIGKILL on interruption; the returned function forgets it. */
export function trackProcessGroup(pgid: number | undefined): () => void {
  if (pgid === undefined) return () => {};
  groups.add(pgid);
  return () => {
    groups.delete(pgid);
  };
}

/** What teardownNow() did. */
export interface TeardownSummary {
  readonly processes: number;
  readonly tempDirs: number;
}

/**
 * SIGKILLs every descendant (and its process group, never our own), every tracked group and every process that
 * carries a tracked temp folder (a relay's detached grandchild), waits until they are gone (at most ~2 s), then
 * removes every tracked temp folder. Synchronous: no callback of the interrupted command runs in between, so nothing
 * is respawned or recreated.
 */
export function teardownNow(): TeardownSummary {
  const processes = killTreeSync({ roots: [process.pid], groups: [...groups], markers: [...tempDirs] });
  let removed = 0;
  for (const dir of tempDirs) {
    try {
      if (existsSync(dir)) {
        rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 20 });
        removed += 1;
      }
    } catch {
      // Best effort: the exit message still goes out.
    }
  }
  tempDirs.clear();
  groups.clear();
  return { processes, tempDirs: removed };
}
