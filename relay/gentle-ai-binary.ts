/** Absolute path of a dev gentle-ai binary that replaces the package-local pinned one. */
export const GENTLE_PI_GENTLE_AI_DEV_BINARY_ENV = "GENTLE_PI_GENTLE_AI_DEV_BINARY";

/**
 * Default gentle-ai executable. Upstream verifies a package-local pinned binary; this clean room ships none, so it
 * uses GENTLE_PI_GENTLE_AI_DEV_BINARY when set and otherwise throws an untyped `package-local-binary-missing` Error.
 * The caller (the relay) rejects a relative result with its own TypeError.
 */
export function resolveGentleAiBinary(environment: NodeJS.ProcessEnv = process.env): string {
  const dev = environment[GENTLE_PI_GENTLE_AI_DEV_BINARY_ENV];
  if (dev !== undefined && dev !== "") return dev;
  throw new Error(
    `package-local-binary-missing: no package-local pinned gentle-ai binary is bundled with this relay; pass an absolute gentleAiExecutable or set ${GENTLE_PI_GENTLE_AI_DEV_BINARY_ENV} to an absolute path`,
  );
}
