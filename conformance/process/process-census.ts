// What a process of a relay call is doing, read from /proc (Linux; elsewhere only its pid is known): its argv, its
// scheduler state, the system call it is blocked in (/proc/<pid>/syscall, readable by its owner or root) and its I/O
// counters. The hang watch (hang-watch.ts) decides from these whether a process can only move when the relay acts.
import { existsSync, readFileSync } from "node:fs";
import * as z from "zod/mini";

/** One process as the census saw it. */
export const ProcessSnapshotSchema = z.strictObject({
  pid: z.number(),
  argv: z.array(z.string()),
  /** /proc state letter (R running, S sleeping, D disk wait, Z zombie, …); "" when unknown. */
  state: z.string(),
  /**
   * The system call it is blocked in: read/write with its fd, futex (a blocked thread), or another (null: running or
   * unknown).
   */
  blockedIn: z.nullable(
    z.strictObject({ call: z.enum(["read", "write", "futex", "other"]), fd: z.nullable(z.number()) }),
  ),
  /** Bytes it has read and written so far, all files and pipes included (/proc/<pid>/io rchar and wchar). */
  readBytes: z.nullable(z.number()),
  writtenBytes: z.nullable(z.number()),
});
export type ProcessSnapshot = z.infer<typeof ProcessSnapshotSchema>;

const HAS_PROC = existsSync("/proc/self/stat");
/** Syscall numbers of the calls a stuck process sits in, per architecture. */
const SYSCALLS: Readonly<Record<string, Readonly<Record<number, "read" | "write" | "futex">>>> = {
  x64: { 0: "read", 1: "write", 202: "futex" },
  arm64: { 63: "read", 64: "write", 98: "futex" },
};

function read(path: string): string | null {
  try {
    return readFileSync(path, "latin1");
  } catch {
    return null;
  }
}

function blockedIn(pid: number): ProcessSnapshot["blockedIn"] {
  const line = read(`/proc/${pid}/syscall`)?.trim();
  if (line === undefined || line === "" || line === "running" || line.startsWith("-")) return null;
  const [nr, arg0] = line.split(" ");
  const call = SYSCALLS[process.arch]?.[Number(nr)] ?? "other";
  return { call, fd: call === "read" || call === "write" ? Number.parseInt(arg0 ?? "", 16) : null };
}

function counter(io: string | null, name: string): number | null {
  const match = io === null ? null : new RegExp(`^${name}: (\\d+)$`, "m").exec(io);
  return match ? Number(match[1]) : null;
}

/** A snapshot of one process; null once it is gone. */
export function snapshotProcess(pid: number): ProcessSnapshot | null {
  if (!HAS_PROC) return { pid, argv: [], state: "", blockedIn: null, readBytes: null, writtenBytes: null };
  const stat = read(`/proc/${pid}/stat`);
  if (stat === null) return null;
  const cmdline = read(`/proc/${pid}/cmdline`) ?? "";
  const io = read(`/proc/${pid}/io`);
  return {
    pid,
    argv: Buffer.from(cmdline, "latin1").toString("utf8").split("\0").slice(0, -1),
    state: stat.slice(stat.lastIndexOf(")") + 2).split(" ")[0] ?? "",
    blockedIn: blockedIn(pid),
    readBytes: counter(io, "rchar"),
    writtenBytes: counter(io, "wchar"),
  };
}

/** Snapshots of the given pids that are still there, zombies excluded (they run nothing and hold nothing open). */
export function snapshotProcesses(pids: readonly number[]): ProcessSnapshot[] {
  return pids.map(snapshotProcess).filter((p): p is ProcessSnapshot => p !== null && p.state !== "Z");
}
