// The lanes' test dependencies: the checkout's own node_modules when it has them (as in gentle-pi's CI), otherwise
// an install of just what the lanes import into a cache folder, reused by later runs.
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { runChild } from "../process/run-child.ts";
import { LaneInputError } from "./checkout.ts";

/** What the lanes import at run time (gentle-pi's pi-pretty is not among them and is not installed). */
export const LANE_PACKAGES = ["@earendil-works/pi-coding-agent", "@earendil-works/pi-tui"] as const;

/** npm's bound for the lanes' install: its process tree is killed past it. */
const INSTALL_TIMEOUT_MS = 10 * 60_000;

/** The default cache folder: $XDG_CACHE_HOME or ~/.cache, then gentle-relay-conformance/upstream-lanes. */
export function defaultDepsCache(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.XDG_CACHE_HOME || join(homedir(), ".cache"), "gentle-relay-conformance", "upstream-lanes");
}

function hasAll(nodeModules: string): boolean {
  return LANE_PACKAGES.every((p) => existsSync(join(nodeModules, p, "package.json")));
}

/** The node_modules folder the worktree links to; installs into the cache when the checkout has none. */
export async function laneNodeModules(checkout: string, cache: string, log: (line: string) => void): Promise<string> {
  const own = join(checkout, "node_modules");
  if (hasAll(own)) return own;
  const cached = join(cache, "node_modules");
  if (hasAll(cached)) return cached;
  const refuse = (why: string): never => {
    throw new LaneInputError(`cannot install the lanes' test dependencies into ${cache}: ${why}`);
  };
  try {
    mkdirSync(cache, { recursive: true });
    if (!existsSync(join(cache, "package.json")))
      writeFileSync(join(cache, "package.json"), '{"name":"upstream-lane-deps","private":true}\n');
  } catch (error) {
    refuse(error instanceof Error ? error.message : String(error));
  }
  log(`upstream-lanes: installing ${LANE_PACKAGES.join(", ")} into ${cache}`);
  const install = await runChild(
    "npm",
    ["install", "--no-audit", "--no-fund", "--ignore-scripts", "--no-save", ...LANE_PACKAGES],
    {
      cwd: cache,
      env: process.env,
      timeoutMs: INSTALL_TIMEOUT_MS,
    },
  ).catch((error: unknown) => refuse(`npm could not start: ${error instanceof Error ? error.message : String(error)}`));
  if (install.exitCode !== 0 || !hasAll(cached)) {
    refuse(
      install.stderr
        .toString("utf8")
        .trim()
        .split("\n")
        .filter((l) => l !== "")
        .slice(-1)[0] ?? `npm exited ${install.exitCode}`,
    );
  }
  return cached;
}
