// A consumer project whose lockfile pins our packed tarball plus our own lockfile's runtime dependencies, so
// `npm ci --offline` installs it from the npm cache that this repository's `npm ci` filled. (`npm install --offline
// <tarball>` cannot: it needs the registry's package documents, which `npm ci` of a lockfile never caches.)
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

interface LockEntry {
  name?: string;
  version?: string;
  resolved?: string;
  dev?: boolean;
  [key: string]: unknown;
}

/** The registry URL npm caches a package's tarball under; our lockfile omits `resolved`. */
function registryTarball(path: string, entry: LockEntry): string {
  const name = entry.name ?? path.slice(path.lastIndexOf("node_modules/") + "node_modules/".length);
  return `https://registry.npmjs.org/${name}/-/${name.split("/").pop()}-${entry.version}.tgz`;
}

/** Writes package.json and package-lock.json of a consumer depending on `tarball` into `dir`. */
export function writeConsumer(dir: string, repoRoot: string, tarball: string): void {
  const manifest = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as Record<string, unknown>;
  const ours = JSON.parse(readFileSync(join(repoRoot, "package-lock.json"), "utf8")) as {
    packages: Record<string, LockEntry>;
  };
  const spec = `file:${tarball}`;
  const packages: Record<string, LockEntry> = {
    "": { name: "consumer", version: "1.0.0", dependencies: { "gentle-relay-conformance": spec } },
    "node_modules/gentle-relay-conformance": {
      version: manifest.version as string,
      resolved: spec,
      integrity: `sha512-${createHash("sha512").update(readFileSync(tarball)).digest("base64")}`,
      dependencies: manifest.dependencies,
      bin: manifest.bin,
    },
  };
  for (const [path, entry] of Object.entries(ours.packages)) {
    if (path === "" || entry.dev === true) continue;
    packages[path] = { ...entry, resolved: entry.resolved ?? registryTarball(path, entry) };
  }
  writeFileSync(
    join(dir, "package.json"),
    `${JSON.stringify({ name: "consumer", version: "1.0.0", private: true, type: "module", dependencies: { "gentle-relay-conformance": spec } }, null, 2)}\n`,
  );
  writeFileSync(
    join(dir, "package-lock.json"),
    `${JSON.stringify({ name: "consumer", version: "1.0.0", lockfileVersion: 3, requires: true, packages }, null, 2)}\n`,
  );
}
