import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** One file to stage: a plain file name and its exact bytes (one Buffer, or chunks written in order). */
export interface PrivateTempFile {
  readonly name: string;
  readonly bytes: Buffer | readonly Buffer[];
}

/** Outcome of the work, kept apart so that cleanup can never mask a primary failure. */
type Settled<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: unknown };

/**
 * Writes `files` byte-for-byte into a fresh `<os.tmpdir()>/<prefix>XXXXXX` (dir 0700, files 0600), runs `use` with
 * their absolute paths in order, then removes the directory. A mkdtemp error escapes untyped (nothing to clean up);
 * errors of chmod/write/use escape after cleanup; a cleanup error is swallowed after a primary failure and mapped
 * through `onCleanupFailure` after success.
 */
export async function withPrivateTempFiles<T>(
  prefix: string,
  files: readonly PrivateTempFile[],
  use: (paths: readonly string[]) => Promise<T>,
  onCleanupFailure: (error: unknown) => Error,
): Promise<T> {
  const directory = await mkdtemp(join(tmpdir(), prefix));
  let settled: Settled<T>;
  try {
    await chmod(directory, 0o700);
    const paths: string[] = [];
    for (const file of files) {
      const path = join(directory, file.name);
      // Chunks are written one after another: a large payload is never joined into a second copy.
      // Stryker disable next-line ObjectLiteral: the chmod 0600 below pins the mode before use
      await writeFile(path, Buffer.isBuffer(file.bytes) ? file.bytes : (file.bytes as Buffer[]), { mode: 0o600 });
      // writeFile's mode is filtered by umask; chmod pins it.
      await chmod(path, 0o600);
      paths.push(path);
    }
    settled = { ok: true, value: await use(paths) };
  } catch (error) {
    settled = { ok: false, error };
  }
  try {
    await rm(directory, { recursive: true, force: true });
  } catch (error) {
    if (settled.ok) throw onCleanupFailure(error);
  }
  if (!settled.ok) throw settled.error;
  return settled.value;
}
