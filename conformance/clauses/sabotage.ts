// Ways to make a relay's own `rm -r --force` of its staging or scratch folder fail, for any user (root included):
// a directory chain deeper than PATH_MAX makes rm's absolute-path walk fail with ENAMETOOLONG.
import { existsSync, mkdirSync, rmSync } from "node:fs";

const SEGMENT = "d".repeat(200);
const DEPTH = 24; // 24 × 201 bytes > PATH_MAX (4096)

/** Creates the over-long chain inside dir (chdir step by step; cwd restored before returning). */
export function plantUnremovableChain(dir: string): void {
  const original = process.cwd();
  try {
    process.chdir(dir);
    for (let i = 0; i < DEPTH; i += 1) {
      mkdirSync(SEGMENT);
      process.chdir(SEGMENT);
    }
  } finally {
    process.chdir(original);
  }
}

/** Removes the chain (deepest first, by relative paths) and then dir itself. */
export function removeUnremovableChain(dir: string): void {
  if (!existsSync(dir)) return;
  const original = process.cwd();
  try {
    process.chdir(dir);
    let depth = 0;
    while (existsSync(SEGMENT)) {
      process.chdir(SEGMENT);
      depth += 1;
    }
    while (depth > 0) {
      process.chdir("..");
      rmSync(SEGMENT, { recursive: true, force: true });
      depth -= 1;
    }
  } finally {
    process.chdir(original);
  }
  rmSync(dir, { recursive: true, force: true });
}
