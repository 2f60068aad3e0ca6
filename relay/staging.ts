import { withPrivateTempFiles } from "./temp-files.ts";

export const HOST_RELAY_RESULT_STAGING_PREFIX = "gentle-pi-host-relay-result-";
export const HOST_RELAY_RESULT_FILE_NAME = "result.raw";

/**
 * Stages pi's bytes verbatim as `<tmp>/gentle-pi-host-relay-result-XXXXXX/result.raw` (0700/0600), runs `use` with the
 * absolute path, then removes the directory (reference §10.2, §11).
 */
export function withStagedResult<T>(
  bytes: Buffer | readonly Buffer[],
  use: (path: string) => Promise<T>,
  onCleanupFailure: (error: unknown) => Error,
): Promise<T> {
  return withPrivateTempFiles(
    HOST_RELAY_RESULT_STAGING_PREFIX,
    [{ name: HOST_RELAY_RESULT_FILE_NAME, bytes }],
    (paths) => use(paths[0] as string),
    onCleanupFailure,
  );
}
