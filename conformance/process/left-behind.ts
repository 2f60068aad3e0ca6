// What a run left behind, found by a scan of the whole process table at its end: the last line of defence where no
// containment holds a relay's processes (the process-tree fallback, process/containment.ts). A process that detached
// fully (its own session, a clean environment, cwd /) escapes every case's kill; once its parent is gone the kernel
// hands it to init, so it is found as a process started during the run that init now owns (with everything it
// started since). It cannot be told from an unrelated daemon started meanwhile on a shared machine, so it is
// reported, never killed.
import { spawnSync } from "node:child_process";
import { snapshotProcess } from "./process-census.ts";
import { processTable, selectProcesses, type ProcEntry } from "./process-tree.ts";

/** A process the scan found (the run report's `leftBehind` entries, report/report-schema.ts). */
export interface LeftBehind {
  readonly pid: number;
  readonly argv: string[];
}

/** The processes running before a run, by identity (pid and start time, safe against pid reuse). */
export type ProcessesBefore = ReadonlySet<string>;

const identity = (p: ProcEntry): string => `${p.pid}:${p.started}`;

/** The whole process table's identities now: call before the run starts anything. */
export function processesBefore(): ProcessesBefore {
  return new Set(processTable().map(identity));
}

/** A process's argv: /proc's exact one on Linux, else `ps`'s command line as one word. */
function argvOf(pid: number): string[] {
  const argv = snapshotProcess(pid)?.argv ?? [];
  if (argv.length > 0) return argv;
  const ps = spawnSync("ps", ["-o", "args=", "-p", String(pid)], { encoding: "utf8" });
  const line = (ps.stdout ?? "").trim();
  return line === "" ? [] : [line];
}

/**
 * Live processes started since `before` that init now owns and that are not this process's, with the processes they
 * started (see the file comment). Call once the run has killed everything it knows of.
 */
export function leftBehind(before: ProcessesBefore): LeftBehind[] {
  const table = processTable().filter((p) => p.state !== "Z" && p.state !== "X");
  const ours = new Set(selectProcesses(table, { roots: [process.pid] }).map((p) => p.pid));
  const fresh = table.filter((p) => !before.has(identity(p)) && p.pid !== process.pid && !ours.has(p.pid));
  const found = new Set(fresh.filter((p) => p.ppid === 1).map((p) => p.pid));
  for (let grew = true; grew;) {
    grew = false;
    for (const p of fresh)
      if (!found.has(p.pid) && found.has(p.ppid)) {
        found.add(p.pid);
        grew = true;
      }
  }
  return fresh.filter((p) => found.has(p.pid)).map((p) => ({ pid: p.pid, argv: argvOf(p.pid) }));
}
