// The one place a harness-side child is started: through execa, without a shell, as the leader of its own process
// group, with raw bytes. The group is the unit the harness kills: when the leader ends (on its own, by the call's
// timeout or by its cancelSignal) the whole group is SIGKILLed, so no grandchild outlives the call or holds its
// pipes open; an interrupted command kills it too (process/teardown.ts). execa's own kill reaches only the leader.
import { execa, type Options, type ResultPromise } from "execa";
import { killGroup } from "./process-tree.ts";
import { trackProcessGroup } from "./teardown.ts";

/** What a caller may choose; everything else is the house's process rules. */
export type GroupOptions = Pick<
  Options,
  "cwd" | "input" | "timeout" | "cancelSignal" | "stdin" | "stdout" | "stderr" | "stdio" | "buffer" | "maxBuffer"
> & {
  /** The child's whole environment: nothing of the harness's own environment is added. */
  readonly env: Readonly<Record<string, string | undefined>>;
};

/** The house options: one process group, no shell, exact bytes, exact environment, SIGKILL on timeout or cancel. */
const HOUSE = {
  shell: false,
  detached: true,
  extendEnv: false,
  encoding: "buffer",
  stripFinalNewline: false,
  reject: false,
  // SIGKILL cannot be trapped, so there is nothing to escalate to; the group kill below takes the rest.
  killSignal: "SIGKILL",
  forceKillAfterDelay: false,
  // Detached children are never cleaned up by execa; teardown.ts owns that for an interrupted command.
  cleanup: false,
} as const satisfies Options;

/** A child started by spawnInGroup: execa's subprocess (also its result promise, which never rejects). */
export type GroupSubprocess = ResultPromise<GroupOptions & typeof HOUSE>;

/** A started child and the group kill it shares with the harness's teardown. */
export interface GroupChild {
  readonly subprocess: GroupSubprocess;
  /** SIGKILLs the child's process group now (a no-op once it is empty). */
  killGroup(): void;
}

/** Starts `file` with `args` in its own process group (execa; see the file comment). */
export function spawnInGroup(file: string, args: readonly string[], options: GroupOptions): GroupChild {
  const subprocess: GroupSubprocess = execa(file, args, { ...options, env: { ...options.env }, ...HOUSE });
  const pid = subprocess.pid;
  const untrack = trackProcessGroup(pid);
  const kill = (): void => void killGroup(pid);
  // The leader's end ends its group: what it launched must not keep running, nor keep the pipes (and execa) open.
  subprocess.once("exit", kill);
  const settled = (): void => {
    kill();
    untrack();
  };
  subprocess.then(settled, settled);
  return { subprocess, killGroup: kill };
}
