// The real pi CLI for the tests that compare the fake pi with it: installed from the npm registry into a cache under
// node_modules (so `npm ci` clears it and a clean clone installs it once), never a dependency of this package. pi
// 1.6.0 needs Node >= 22.19 and this project runs on Node 20, so a Node 22 comes too, from the npm package that
// ships its binary. A machine that cannot install them gets a reason instead, for one skip line.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { execa } from "execa";
import { ROOT } from "./sim-world.ts";

/** A runnable real pi: the Node that runs it and its CLI script. */
export interface RealPi {
  readonly node: string;
  readonly cli: string;
  /** A folder for NODE_COMPILE_CACHE, kept with the install. */
  readonly compileCache: string;
}

const PI_PACKAGE = "@earendil-works/pi-coding-agent";
const NODE_VERSION = "22.23.5";
const INSTALL_TIMEOUT_MS = 180_000;
// npm retries an unreachable registry for minutes by default; one quick retry, then the skip.
const QUICK_FAIL = ["--fetch-retries=1", "--fetch-retry-mintimeout=1000", "--fetch-retry-maxtimeout=5000"];

/** Installs (once) and locates pi `version`; a string says why it cannot be had here. */
export async function realPi(version: string): Promise<RealPi | string> {
  const cache = join(ROOT, "node_modules/.cache/gentle-relay-conformance/real-pi", version);
  const cli = join(cache, "node_modules", PI_PACKAGE, "dist/cli.js");
  const ownNodeFits = nodeAtLeast(process.versions.node, [22, 19]);
  const nodePackage = `node-${process.platform}-${process.arch}`;
  const node = ownNodeFits ? process.execPath : join(cache, "node_modules", nodePackage, "bin/node");
  const compileCache = join(cache, "compile-cache");
  if (existsSync(cli) && existsSync(node)) return { node, cli, compileCache };
  const specs = [`${PI_PACKAGE}@${version}`, ...(ownNodeFits ? [] : [`${nodePackage}@${NODE_VERSION}`])];
  const args = [
    "install",
    "--prefix",
    cache,
    "--no-audit",
    "--no-fund",
    "--ignore-scripts",
    "--prefer-offline",
    ...QUICK_FAIL,
    ...specs,
  ];
  const npm = await execa("npm", args, { reject: false, timeout: INSTALL_TIMEOUT_MS, stdin: "ignore" });
  if (npm.exitCode !== 0 || !existsSync(cli) || !existsSync(node)) {
    const why =
      String(npm.stderr)
        .split("\n")
        .find((line) => /ERR|error/.test(line)) ?? `exit ${String(npm.exitCode)}`;
    return `npm could not install ${specs.join(" and ")} (${why.trim()})`;
  }
  return { node, cli, compileCache };
}

function nodeAtLeast(version: string, [major, minor]: readonly [number, number]): boolean {
  const [a = 0, b = 0] = version.split(".").map(Number);
  return a > major || (a === major && b >= minor);
}
