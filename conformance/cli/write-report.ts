import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

/** The value of an output file option that sends the report to stdout instead (`run --json -`). */
export const STDOUT_TARGET = "-";

/** Writes a report file atomically (temp + rename), creating its folder. */
export function writeReportFile(path: string, content: string): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, content);
  renameSync(tmp, path);
}

/** Writes a report to its output option's target: stdout for `-` (STDOUT_TARGET), else a file (writeReportFile). */
export function writeReportTo(target: string, content: string, stdout: (text: string) => void): void {
  if (target === STDOUT_TARGET) stdout(content);
  else writeReportFile(target, content);
}
