// Defect injection for the kill a relay sends on timeout: rewrites the signal of every process.kill and
// ChildProcess#kill the relay makes (our relay kills by group with process.kill, gentle-pi's with child.kill).
import { ChildProcess } from "node:child_process";

type Signal = NodeJS.Signals | number | undefined;

/** Installs a signal rewrite for the whole process. */
export function rewriteKillSignal(rewrite: (signal: Signal) => Signal): void {
  const realKill = process.kill.bind(process);
  process.kill = ((pid: number, signal?: Signal) => realKill(pid, rewrite(signal ?? "SIGTERM"))) as typeof process.kill;
  const childKill = ChildProcess.prototype.kill;
  ChildProcess.prototype.kill = function kill(this: ChildProcess, signal?: Signal): boolean {
    return childKill.call(this, rewrite(signal ?? "SIGTERM"));
  };
}

/** True for SIGKILL by name or number. */
export const isSigkill = (signal: Signal): boolean => signal === "SIGKILL" || signal === 9;
