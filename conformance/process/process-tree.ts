// The one place the harness kills processes: a process group, the descendants of a process, and the processes that
// carry one of the harness's own folder paths (in their environment or as their cwd), which finds what a relay
// detached with setsid or double-forked: such a process leaves our process group and tree but keeps the case's
// TMPDIR, HOME and simulator paths it inherited.
// node:child_process, not execa: `ps` (off Linux only) is read synchronously inside the interrupt teardown, which
// must finish before exit without an event loop turn.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, readlinkSync, statSync } from "node:fs";

/** One row of the process table. */
export interface ProcEntry {
  readonly pid: number;
  readonly ppid: number;
  readonly pgid: number;
  readonly state: string;
  /**
   * When it started, as the table says it (/proc's clock ticks since boot, or `ps`'s lstart): with the pid, its
   * identity.
   */
  readonly started: string;
}

const HAS_PROC = existsSync("/proc/self/stat");

/** Every process visible to us: /proc on Linux, `ps` elsewhere. */
export function processTable(): ProcEntry[] {
  if (HAS_PROC) {
    const out: ProcEntry[] = [];
    for (const name of readdirSync("/proc")) {
      if (!/^\d+$/.test(name)) continue;
      try {
        const stat = readFileSync(`/proc/${name}/stat`, "utf8");
        // pid (comm) state ppid pgrp …; comm may hold spaces and parentheses.
        const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
        // starttime is field 22 of stat, the 20th after the comm.
        out.push({
          pid: Number(name),
          state: fields[0] ?? "",
          ppid: Number(fields[1]),
          pgid: Number(fields[2]),
          started: fields[19] ?? "",
        });
      } catch {
        // Gone while listing.
      }
    }
    return out;
  }
  // lstart is five words: "Sat Dec  5 00:50:57 2026".
  const ps = spawnSync("ps", ["-A", "-o", "pid=,ppid=,pgid=,stat=,lstart="], { encoding: "utf8" });
  return (ps.stdout ?? "")
    .split("\n")
    .map((l) => l.trim().split(/\s+/))
    .filter((f) => f.length >= 9)
    .map(([pid, ppid, pgid, state, ...started]) => ({
      pid: Number(pid),
      ppid: Number(ppid),
      pgid: Number(pgid),
      state: (state ?? "").slice(0, 1),
      started: started.join(" "),
    }));
}

/** Which processes to kill. */
export interface TreeSelector {
  /** Process groups (a detached child's pid is its group). */
  readonly groups?: readonly number[];
  /**
   * Processes whose descendants (by parent pid, transitively) are selected; the roots themselves too (never this
   * process).
   */
  readonly roots?: readonly number[];
  /**
   * Absolute folder paths: a process of ours whose environment mentions one, or whose cwd lies inside one, is selected.
   */
  readonly markers?: readonly string[];
}

const uid = typeof process.getuid === "function" ? process.getuid() : -1;

/** True when text names the path itself or something inside it (not a sibling that merely shares its prefix). */
function mentions(text: string, path: string): boolean {
  for (let at = text.indexOf(path); at !== -1; at = text.indexOf(path, at + 1)) {
    const next = text[at + path.length];
    if (next === undefined || next === "/" || next === "\0" || next === ":") return true;
  }
  return false;
}

/** True when the process's initial environment mentions a marker or its cwd lies inside one (Linux only). */
function carriesMarker(pid: number, markers: readonly string[]): boolean {
  if (!HAS_PROC || markers.length === 0) return false;
  try {
    // Only our own processes: reading another user's environ fails anyway, and a stat is cheaper.
    if (uid !== -1 && statSync(`/proc/${pid}`).uid !== uid) return false;
    const cwd = readlinkSync(`/proc/${pid}/cwd`);
    if (markers.some((m) => cwd === m || cwd.startsWith(`${m}/`))) return true;
    const environ = readFileSync(`/proc/${pid}/environ`).toString("utf8");
    return markers.some((m) => mentions(environ, m));
  } catch {
    return false; // gone, or not ours
  }
}

/** Live (non-zombie) processes the selector names, never this process nor its ancestors' group. */
export function selectProcesses(table: readonly ProcEntry[], selector: TreeSelector): ProcEntry[] {
  const self = process.pid;
  const groups = new Set(selector.groups ?? []);
  const found = new Map<number, ProcEntry>();
  for (const p of table) {
    if (p.pid === self || p.state === "Z") continue;
    if (groups.has(p.pgid) || (selector.roots ?? []).includes(p.pid) || carriesMarker(p.pid, selector.markers ?? []))
      found.set(p.pid, p);
  }
  const roots = new Set(selector.roots ?? []);
  let grew = true;
  while (grew) {
    grew = false;
    for (const p of table) {
      if (found.has(p.pid) || p.pid === self || p.state === "Z") continue;
      if (found.has(p.ppid) || roots.has(p.ppid)) {
        found.set(p.pid, p);
        grew = true;
      }
    }
  }
  return [...found.values()];
}

/** SIGKILLs a process group; false when it is already empty. */
export function killGroup(pgid: number | undefined): boolean {
  if (pgid === undefined || pgid <= 1) return false;
  try {
    process.kill(-pgid, "SIGKILL");
    return true;
  } catch {
    return false;
  }
}

function killPid(pid: number): void {
  try {
    process.kill(pid, "SIGKILL");
  } catch {
    // Already gone.
  }
}

function ownGroup(table: readonly ProcEntry[]): number {
  return table.find((p) => p.pid === process.pid)?.pgid ?? -1;
}

/**
 * One kill round: every selected process, its group (never ours) and every pid killed before; returns what was alive.
 */
function killRound(selector: TreeSelector, killed: Set<number>): number {
  const table = processTable();
  const own = ownGroup(table);
  const alive = selectProcesses(table, selector);
  for (const g of selector.groups ?? []) if (g !== own) killGroup(g);
  for (const p of alive) {
    if (p.pgid !== own && p.pgid > 1) killGroup(p.pgid);
    killPid(p.pid);
    killed.add(p.pid);
  }
  // A pid killed in an earlier round that outlived its parent is no longer anyone's descendant: kill it by pid.
  const live = new Set(table.filter((p) => p.state !== "Z").map((p) => p.pid));
  let stragglers = 0;
  for (const pid of killed) {
    if (live.has(pid) && !alive.some((p) => p.pid === pid)) {
      killPid(pid);
      stragglers += 1;
    }
  }
  return alive.length + stragglers;
}

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** SIGKILLs the selected processes (and their groups) until none is left, at most ~2 s; synchronous (teardown). */
export function killTreeSync(selector: TreeSelector): number {
  const killed = new Set<number>();
  for (let round = 0; round < 40; round++) {
    if (killRound(selector, killed) === 0) break;
    sleepSync(50);
  }
  return killed.size;
}

/** killTreeSync without blocking the event loop between rounds. */
export async function killTree(selector: TreeSelector): Promise<number> {
  const killed = new Set<number>();
  for (let round = 0; round < 40; round++) {
    if (killRound(selector, killed) === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return killed.size;
}

/**
 * The pid in our namespace of process `pid` of the PID namespace that `creator` created (its pid_for_children), or
 * undefined when there is no such process (or no /proc). Contained hosts (process/containment.ts) report their pids so.
 */
export function pidInNamespaceOf(creator: number, pid: number): number | undefined {
  if (!HAS_PROC) return undefined;
  let ns: string;
  try {
    ns = readlinkSync(`/proc/${creator}/ns/pid_for_children`);
  } catch {
    return undefined;
  }
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (readlinkSync(`/proc/${name}/ns/pid`) !== ns) continue;
      const nspid = /^NSpid:\s+(.*)$/m
        .exec(readFileSync(`/proc/${name}/status`, "utf8"))?.[1]
        ?.trim()
        .split(/\s+/);
      if (nspid !== undefined && Number(nspid.at(-1)) === pid) return Number(name);
    } catch {
      // gone
    }
  }
  return undefined;
}
