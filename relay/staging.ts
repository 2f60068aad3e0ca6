import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const HOST_RELAY_RESULT_STAGING_PREFIX = "gentle-pi-host-relay-result-";
export const HOST_RELAY_RESULT_FILE_NAME = "result.raw";

/** Outcome of work done against a staged file: a value, or the primary error that cleanup must never mask. */
type Settled<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: unknown };

/**
 * Stages `bytes` verbatim as `<tmp>/gentle-pi-host-relay-result-XXXXXX/result.raw` (dir 0700, file 0600), runs `use`
 * with the absolute path, then removes the directory. mkdtemp errors escape untyped (nothing to clean); a cleanup error
 * is swallowed after a primary failure and handed to `onCleanupFailure` after success.
 */
export async function withStagedResult<T>(
  bytes: Buffer,
  use: (path: string) => Promise<T>,
  onCleanupFailure: (error: unknown) => Error,
): Promise<T> {
  const directory = await mkdtemp(join(tmpdir(), HOST_RELAY_RESULT_STAGING_PREFIX));
  let settled: Settled<T>;
  try {
    await chmod(directory, 0o700);
    const path = join(directory, HOST_RELAY_RESULT_FILE_NAME);
    await writeFile(path, bytes, { mode: 0o600 });
    // writeFile's mode is filtered by umask; chmod pins it.
    await chmod(path, 0o600);
    settled = { ok: true, value: await use(path) };
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
