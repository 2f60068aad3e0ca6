import { join } from "node:path";
import { packageRoot } from "../paths.ts";

/** Paths every golden run needs. */
export const paths = {
  simGentleAi: (): string => join(packageRoot(), "simulator", "bin", "gentle-ai"),
  simPi: (): string => join(packageRoot(), "simulator", "bin", "pi"),
  ourRelay: (): string => join(packageRoot(), "relay", "index.ts"),
  conversationsDir: (): string => join(packageRoot(), "golden", "conversations"),
  goldenDir: (): string => join(packageRoot(), "golden"),
};
