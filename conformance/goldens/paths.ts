import { join } from "node:path";
import { packageRoot } from "../paths.ts";

/** The repository root (one finder for the whole harness: conformance/paths.ts). */
export const repoRoot = packageRoot;

/** Paths every golden run needs. */
export const paths = {
  simGentleAi: (): string => join(repoRoot(), "simulator", "bin", "gentle-ai"),
  simPi: (): string => join(repoRoot(), "simulator", "bin", "pi"),
  ourRelay: (): string => join(repoRoot(), "relay", "index.ts"),
  driver: (): string => join(repoRoot(), "conformance", "goldens", "driver.ts"),
  goldenDir: (): string => join(repoRoot(), "golden"),
};
