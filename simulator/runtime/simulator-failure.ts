import { writeAllSync } from "../platform/emit.ts";

/** Exit code of a simulator defect (EX_SOFTWARE); real gentle-ai exits only 0 or 1. */
export const SIMULATOR_FAILURE_EXIT = 70;

/** The stderr line of a simulator defect: `gentle-ai-sim: <message>`. */
export function failureLine(message: string): Buffer {
  return Buffer.from(`gentle-ai-sim: ${message}\n`, "utf8");
}

/** Reports a simulator defect on stderr and exits 70, so it is never mistaken for provider behaviour. */
export function simulatorFailure(message: string): never {
  writeAllSync(2, failureLine(message));
  return process.exit(SIMULATOR_FAILURE_EXIT);
}
