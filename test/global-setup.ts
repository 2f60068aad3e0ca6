// Builds the bin bundles once so every test spawns the same artifacts CI installs through `prepare`.
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";

// Both e2e projects name this setup, and vitest runs it once per project, in its own main process: build once.
const BUILT = Symbol.for("gentle-relay-conformance.test.built");

export default function setup(): void {
  const marks = globalThis as { [BUILT]?: true };
  if (marks[BUILT]) return;
  const root = join(dirname(fileURLToPath(import.meta.url)), "..");
  execFileSync(process.execPath, [join(root, "scripts/build.mjs")], { cwd: root, stdio: "inherit" });
  marks[BUILT] = true;
}
