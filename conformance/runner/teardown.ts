// Process-wide teardown for an interrupted command (SIGINT, SIGTERM, a closed stdout): every temp folder the
// harness created and every process it started (with their process groups) go away, synchronously, before exit.
// Creation sites register what they own; a normal run unregisters it when it cleans up itself.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";

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

interface ProcEntry {
  readonly pid: number;
  readonly ppid: number;
  readonly pgid: number;
  readonly state: string;
}

/** Every process visible to us: /proc on Linux, `ps` elsewhere. */
function processTable(): ProcEntry[] {
  if (existsSync("/proc/self/stat")) {
    const out: ProcEntry[] = [];
    for (const name of readdirSync("/proc")) {
      if (!/^\d+$/.test(name)) continue;
      try {
        const stat = readFileSync(`/proc/${name}/stat`, "utf8");
        // pid (comm) state ppid pgrp …; comm may hold spaces and parentheses.
        const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
        out.push({ pid: Number(name), state: fields[0] ?? "", ppid: Number(fields[1]), pgid: Number(fields[2]) });
      } catch {
        // Gone while listing.
      }
    }
    return out;
  }
  const ps = spawnSync("ps", ["-A", "-o", "pid=,ppid=,pgid=,stat="], { encoding: "utf8" });
  return (ps.stdout ?? "")
    .split("\n")
    .map((l) => l.trim().split(/\s+/))
    .filter((f) => f.length >= 4)
    .map(([pid, ppid, pgid, state]) => ({ pid: Number(pid), ppid: Number(ppid), pgid: Number(pgid), state: (state ?? "").slice(0, 1) }));
}

/** Live (non-zombie) descendants of this process, and members of the tracked groups. */
function ours(table: readonly ProcEntry[]): ProcEntry[] {
  const self = process.pid;
  const found = new Map<number, ProcEntry>();
  let grew = true;
  while (grew) {
    grew = false;
    for (const p of table) {
      if (found.has(p.pid) || p.pid === self) continue;
      if (p.ppid === self || found.has(p.ppid) || groups.has(p.pgid)) {
        found.set(p.pid, p);
        grew = true;
      }
    }
  }
  return [...found.values()].filter((p) => p.state !== "Z");
}

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function kill(target: number): void {
  try {
    process.kill(target, "SIGKILL");
  } catch {
    // Already gone.
  }
}

/** What teardownNow() did. */
export interface TeardownSummary {
  readonly processes: number;
  readonly tempDirs: number;
}

/**
 * SIGKILLs every descendant (and its process group, never our own) and every tracked group, waits until they are
 * gone (at most ~2 s), then removes every tracked temp folder. Synchronous: no callback of the interrupted command
 * runs in between, so nothing is respawned or recreated.
 */
export function teardownNow(): TeardownSummary {
  const ownGroup = processGroupOf(process.pid);
  const killed = new Set<number>();
  for (let round = 0; round < 40; round++) {
    const alive = ours(processTable());
    if (alive.length === 0 && round > 0) break;
    for (const pgid of groups) if (pgid !== ownGroup) kill(-pgid);
    for (const p of alive) {
      if (p.pgid !== ownGroup && p.pgid > 1) kill(-p.pgid);
      kill(p.pid);
      killed.add(p.pid);
    }
    sleepSync(50);
  }
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
  return { processes: killed.size, tempDirs: removed };
}

function processGroupOf(pid: number): number {
  return processTable().find((p) => p.pid === pid)?.pgid ?? -1;
}
