// Setup file of the vitest projects whose files share a worker and its module graph (`unit`, `e2e`: isolate: false).
// A vi.mock there would not apply to a module an earlier file already loaded, so the file would test the real module
// and could still pass: such a file fails here, naming where it belongs.
import { readFileSync } from "node:fs";
import { expect } from "vitest";

const file = expect.getState().testPath;
if (file !== undefined && /\bvi\.(do)?mock\(/.test(readFileSync(file, "utf8"))) {
  throw new Error(
    `${file} mocks a module: a shared worker may have loaded it already; list the file in OWN_WORKER (vitest.config.ts)`,
  );
}
