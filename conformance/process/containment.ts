// How the relay host is contained. On Linux where the kernel lets us (root, or unprivileged user namespaces), each
// host runs in a PID namespace of its own (`unshare --pid --fork --mount-proc`): every process the relay starts is in
// it however it detaches (setsid, double fork, cwd /, no fds, a clean environment), the host's /proc lists exactly
// them, and when the namespace's first process ends the kernel kills all of them. A small shell is that first
// process, so the relay's own process is an ordinary one (PID 1 ignores signals it has no handler for).
// Elsewhere the host falls back to the process-tree heuristics of process/process-tree.ts: its process group, its
// descendants, and processes whose environment or cwd names the case's folders. See docs/design.md.
import { spawnSync } from "node:child_process";
import { accessSync, constants as fs } from "node:fs";
import { constants } from "node:os";
import { delimiter, join } from "node:path";

export type Containment = "pid-namespace" | "process-tree";

/** Forces a containment (`process-tree` to test the fallback); unset, the best available is used. */
export const CONTAINMENT_ENV = "RELAY_CONFORMANCE_CONTAINMENT";
/** Set in a contained host's start environment, so the adapter child knows its /proc is the namespace's. */
export const CONTAINED_ENV = "RELAY_CONFORMANCE_CONTAINED";

const UNSHARE = ["--pid", "--fork", "--mount-proc", "--kill-child"];
// PID 1 of the namespace: starts the host in the background with the harness's stdin (dash gives a background
// command /dev/null, even with `0<&0`, so it travels on fd 9) and exits with its status; 128+n stands for signal n.
const INIT = ['exec 9<&0; "$@" 0<&9 9<&- & exec 9<&-; wait $!'];

let chosen: Containment | undefined;
// Absolute: the host starts with a PATH that holds only node.
let unshare = "unshare";

/** The first executable `name` on the harness's PATH. */
function onPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    try {
      accessSync(join(dir, name), fs.X_OK);
      return join(dir, name);
    } catch {
      // not here
    }
  }
  return undefined;
}

/** The containment this process uses for its relay hosts (probed once: one `unshare … true`, a few ms). */
export function containment(): Containment {
  if (chosen !== undefined) return chosen;
  const found = onPath("unshare");
  if (found !== undefined) unshare = found;
  const forced = process.env[CONTAINMENT_ENV];
  if (forced === "pid-namespace" || forced === "process-tree") return (chosen = forced);
  if (process.platform !== "linux" || found === undefined) return (chosen = "process-tree");
  const probe = spawnSync(unshare, [...UNSHARE, "/bin/sh", "-c", "exit 0"], { stdio: "ignore", timeout: 5000 });
  return (chosen = probe.status === 0 ? "pid-namespace" : "process-tree");
}

/** The command that starts `file args` in a PID namespace of its own (only when containment() says it can). */
export function containedCommand(file: string, args: readonly string[]): { file: string; args: string[] } {
  return { file: unshare, args: [...UNSHARE, "/bin/sh", "-c", ...INIT, "sh", file, ...args] };
}

/** A contained host's exit as the host's own: the shell's 128+n back to signal n. */
export function hostExit(code: number | null, signal: string | null): { code: number | null; signal: string | null } {
  if (code === null || code <= 128) return { code, signal };
  const name = Object.entries(constants.signals).find(([, n]) => n === code - 128)?.[0];
  return name === undefined ? { code, signal } : { code: null, signal: name };
}
