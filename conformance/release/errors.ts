/** Why a release could not be turned into a verified local binary; each has its own exit code. */
export const RELEASE_FAILURE = {
  "bad-input": 2,
  "tag-not-found": 10,
  "rate-limited": 11,
  prerelease: 12,
  draft: 13,
  "asset-missing": 14,
  "checksum-line-missing": 15,
  "checksum-mismatch": 16,
  "network-failure": 17,
  "http-error": 18,
  "bad-archive": 19,
  // The source tarball is not the tagged commit's tree (`release --contracts`).
  "source-mismatch": 20,
  // An archive entry would land outside its folder (absolute or `..` path) or is a link where files are extracted.
  "unsafe-archive": 21,
} as const;
export type ReleaseFailureCode = keyof typeof RELEASE_FAILURE;

/** A typed release failure: `code` is stable for scripts, `exitCode` is what the CLI exits with. */
export class ReleaseError extends Error {
  override readonly name = "ReleaseError";
  readonly code: ReleaseFailureCode;
  readonly exitCode: number;
  constructor(code: ReleaseFailureCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.exitCode = RELEASE_FAILURE[code];
  }
}
