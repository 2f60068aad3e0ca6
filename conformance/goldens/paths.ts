import { join } from "node:path";
import { builtOrSource, packageRoot } from "../paths.ts";

/** Paths every golden run needs. */
export const paths = {
  simGentleAi: (): string => join(packageRoot(), "simulator", "bin", "gentle-ai"),
  simPi: (): string => join(packageRoot(), "simulator", "bin", "pi"),
  ourRelay: (): string => join(packageRoot(), "relay", "index.ts"),
  driver: (): string => builtOrSource(packageRoot(), "golden-driver", "conformance/goldens/driver.ts"),
  goldenDir: (): string => join(packageRoot(), "golden"),
};
