// tsx keeps its compile cache under TMPDIR (tsx-<effective uid>). A test that gives the harness a private TMPDIR, to
// see exactly what a run leaves behind, links the shared cache into it: a user's TMPDIR holds it warm, and a cold one
// made every relay host of the run transpile every relay module again, which those tests are not about.
import { mkdirSync, symlinkSync } from "node:fs";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";

/** The name tsx gives its compile cache folder in a TMPDIR. */
export const TSX_CACHE_NAME = `tsx-${process.geteuid?.() ?? userInfo().username}`;

/** Links the shared tsx compile cache (under this process's TMPDIR) into `dir`, a private TMPDIR. */
export function linkTsxCache(dir: string): void {
  const shared = join(tmpdir(), TSX_CACHE_NAME);
  mkdirSync(shared, { recursive: true });
  symlinkSync(shared, join(dir, TSX_CACHE_NAME));
}
