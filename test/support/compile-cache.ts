// The compile caches the harness keeps under TMPDIR: jiti's (`jiti`, relays the hosts load) and tsx's
// (`tsx-<effective uid>`, the harness's own TypeScript when run from source). A test that gives the harness a private
// TMPDIR, to see exactly what a run leaves behind, links the shared caches into it: a user's TMPDIR holds them warm,
// and cold ones made every relay host of the run transpile every relay module again, which those tests are not about.
import { mkdirSync, symlinkSync } from "node:fs";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";

/** The folder names of the compile caches in a TMPDIR: jiti's, then tsx's. */
export const COMPILE_CACHE_NAMES: readonly string[] = ["jiti", `tsx-${process.geteuid?.() ?? userInfo().username}`];

/** Links the shared compile caches (under this process's TMPDIR) into `dir`, a private TMPDIR. */
export function linkCompileCaches(dir: string): void {
  for (const name of COMPILE_CACHE_NAMES) {
    const shared = join(tmpdir(), name);
    mkdirSync(shared, { recursive: true });
    symlinkSync(shared, join(dir, name));
  }
}
