// Process checks shared by the test suites.
import { readdirSync, readFileSync, readlinkSync } from "node:fs";

/** True when no live process has this pid: absent, or a zombie awaiting reaping by init (already dead). */
export function isGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
    return state === "Z" || state === "X";
  } catch {
    return true;
  }
}

/**
 * Live (non-zombie) processes whose environment mentions `tmp` (a test's private folder): what the test started, and
 * all below.
 */
export function processesUsing(tmp: string, except: readonly number[] = []): number[] {
  const found: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name) || except.includes(Number(name))) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      if (stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z")) continue;
      if (readFileSync(`/proc/${name}/environ`).toString("utf8").includes(tmp)) found.push(Number(name));
    } catch {
      // Gone, or not ours to read.
    }
  }
  return found;
}

/** Polls `check` every 50 ms for up to `ms`. */
export async function eventually(check: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return check();
}

/** pid:starttime of every process now: a process's identity, safe against pid reuse. */
export function processIdentities(): Set<string> {
  const ids = new Set<string>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const id = identity(Number(name));
    if (id !== null) ids.add(id);
  }
  return ids;
}

function identity(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (fields[0] === "Z" || fields[0] === "X") return null;
    // Field 22 of stat (starttime) is the 20th after the comm.
    return `${pid}:${fields[19]}`;
  } catch {
    return null;
  }
}

/**
 * Every live process of the whole table started since `before` (processIdentities) that mentions one of `paths` in
 * its argv, environment or cwd, but for this process's own descendants (unless `own`): what a test's runs left
 * behind, however it detached. Other users of the machine (other checkouts, other tests) mention none of the paths.
 */
export function startedSince(
  before: ReadonlySet<string>,
  paths: readonly string[],
  own = false,
): { pid: number; argv: string[] }[] {
  const found: { pid: number; argv: string[] }[] = [];
  const parents = new Map<number, number>();
  const fresh: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      parents.set(pid, Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
    } catch {
      continue;
    }
    const id = identity(pid);
    if (id !== null && !before.has(id)) fresh.push(pid);
  }
  const ours = (pid: number): boolean => {
    for (let p = parents.get(pid), hops = 0; p !== undefined && p > 1 && hops < 64; p = parents.get(p), hops += 1)
      if (p === process.pid) return true;
    return false;
  };
  for (const pid of fresh) {
    if (pid === process.pid || (!own && ours(pid))) continue;
    try {
      const argv = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").slice(0, -1);
      const text = [
        argv.join(" "),
        readFileSync(`/proc/${pid}/environ`, "utf8"),
        readlinkSync(`/proc/${pid}/cwd`),
      ].join("\n");
      if (paths.some((p) => text.includes(p))) found.push({ pid, argv });
    } catch {
      // gone, or not ours to read
    }
  }
  return found;
}
