// Setup file of the `unit` vitest project: a unit test runs in its worker and starts no Node process (the simulator,
// the relay, the CLI, tsx). Spawning one throws, telling the file to drop .unit from its name, so the split cannot
// silently rot. External tools a test builds fixtures with (git, tar) stay allowed.
import childProcess from "node:child_process";
import { basename } from "node:path";
import { syncBuiltinESMExports } from "node:module";

/** True for a command that starts Node: node itself, or a bin script of this package (a Node shebang). */
function startsNode(command: unknown): boolean {
  if (typeof command !== "string") return false;
  return (
    command === process.execPath ||
    basename(command) === "node" ||
    /\/(simulator|conformance)\/(repro\/)?bin\//.test(command) ||
    /\.[cm]?[jt]s$/.test(command)
  );
}

const guarded = ["spawn", "spawnSync", "execFile", "execFileSync"] as const;
for (const name of guarded) {
  const original = childProcess[name] as (...args: unknown[]) => unknown;
  (childProcess as unknown as Record<string, unknown>)[name] = function (this: unknown, ...args: unknown[]): unknown {
    if (startsNode(args[0]))
      throw new Error(
        `unit tests start no Node process (${String(args[0])}): this file is an e2e test: drop .unit from its name (vitest.config.ts)`,
      );
    return original.apply(this, args);
  };
}
(childProcess as unknown as Record<string, unknown>).fork = (): never => {
  throw new Error(
    "unit tests fork no Node process: this file is an e2e test: drop .unit from its name (vitest.config.ts)",
  );
};
// ESM named imports of node:child_process read these through the builtin's export bindings: refresh them.
syncBuiltinESMExports();
