import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

let cached: string | undefined;

/** The repository root, found by walking up from this module (works from source and from the dist bundle). */
export function repoRoot(): string {
  if (cached !== undefined) return cached;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const pkg = join(dir, "package.json");
    if (existsSync(pkg) && (JSON.parse(readFileSync(pkg, "utf8")) as { name?: string }).name === "gentle-relay-conformance") {
      cached = dir;
      return dir;
    }
    const up = dirname(dir);
    if (up === dir) throw new Error("cannot locate the gentle-relay-conformance repository root");
    dir = up;
  }
}

/** Paths every golden run needs. */
export const paths = {
  simGentleAi: (): string => join(repoRoot(), "simulator", "bin", "gentle-ai"),
  simPi: (): string => join(repoRoot(), "simulator", "bin", "pi"),
  ourRelay: (): string => join(repoRoot(), "relay", "index.ts"),
  driver: (): string => join(repoRoot(), "conformance", "goldens", "driver.ts"),
  goldenDir: (): string => join(repoRoot(), "golden"),
};
