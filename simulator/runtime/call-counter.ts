import { readFileSync } from "node:fs";
import { join } from "node:path";
import { withLock } from "../state/lock.ts";
import { writeFileAtomic } from "../state/atomic-file.ts";

const COUNTS_FILE = "call-counts.json";

/** Returns this call's 1-based index for key, persisted in stateDir under a lock so parallel processes get distinct indexes. */
export function nextCallIndex(stateDir: string, key: string): number {
  return withLock(stateDir, "call-counts", () => {
    const file = join(stateDir, COUNTS_FILE);
    let counts: Record<string, number> = {};
    try {
      const parsed: unknown = JSON.parse(readFileSync(file, "utf8"));
      if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) counts = parsed as Record<string, number>;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
    const next = (Number.isInteger(counts[key]) ? counts[key]! : 0) + 1;
    counts[key] = next;
    writeFileAtomic(file, `${JSON.stringify(counts)}\n`);
    return next;
  });
}
