import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";

const PACKAGE_NAME = "gentle-relay-conformance";

/** This package's root, found by walking up from this module (works from sources and from dist/ bundles alike). */
export function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, "package.json");
    if (existsSync(manifest)) {
      try {
        if ((JSON.parse(readFileSync(manifest, "utf8")) as { name?: unknown }).name === PACKAGE_NAME) return dir;
      } catch {
        // an unreadable manifest is not ours; keep walking
      }
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`relay-conformance: cannot locate the ${PACKAGE_NAME} package root`);
    dir = parent;
  }
}

/** Absolute paths the harness needs at run time. */
export interface HarnessPaths {
  readonly root: string;
  readonly gentleAiSimulator: string;
  readonly piSimulator: string;
  readonly defaultRelay: string;
  readonly adapterChild: string;
  /**
   * file: URL of tsx's loader for `node --import`, from this package: the adapter child's source and the lanes run
   * under it.
   */
  readonly tsxLoader: string;
}

/** Resolves every harness path once. */
export function harnessPaths(): HarnessPaths {
  const root = packageRoot();
  return {
    root,
    gentleAiSimulator: join(root, "simulator/bin/gentle-ai"),
    piSimulator: join(root, "simulator/bin/pi"),
    defaultRelay: join(root, "relay/index.ts"),
    adapterChild: adapterChildPath(root),
    tsxLoader: tsxLoaderUrl(root),
  };
}

/** The built adapter child (scripts/build.mjs), or its TypeScript source when dist/ was never built. */
function adapterChildPath(root: string): string {
  return builtOrSource(root, "adapter-child", "conformance/process/adapter-child.ts");
}

/**
 * A module a relay host loads: its bundle `dist/<name>.mjs` (scripts/build.mjs) when built, else its TypeScript
 * source. The bundle spares each host start the loader's per-module work (tsx's for the child, jiti's for a task
 * module) over the module's whole import graph.
 */
export function builtOrSource(root: string, name: string, source: string): string {
  const built = join(root, "dist", `${name}.mjs`);
  return existsSync(built) ? built : join(root, source);
}

/** tsx's `import` entry (what `node --import tsx` loads), resolved from this package's own node_modules. */
function tsxLoaderUrl(root: string): string {
  const manifestPath = createRequire(join(root, "package.json")).resolve("tsx/package.json");
  const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as { exports?: Record<string, unknown> };
  const entry = manifest.exports?.["."];
  const relative = typeof entry === "string" ? entry : "./dist/loader.mjs";
  return pathToFileURL(join(dirname(manifestPath), relative)).href;
}
