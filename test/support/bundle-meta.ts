// The esbuild metafiles scripts/build.mjs writes beside the bundles (dist/*.meta.json), read for the bundles'
// start-up rules.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./sim-world.ts";

export interface MetaImport {
  readonly path: string;
  readonly kind: string;
  readonly external?: boolean;
}
export interface Metafile {
  readonly inputs: Record<string, { readonly imports: readonly MetaImport[]; readonly format?: string }>;
  readonly outputs: Record<
    string,
    { readonly entryPoint?: string; readonly inputs: Record<string, unknown>; readonly imports: readonly MetaImport[] }
  >;
}

/** dist/<name>.meta.json. */
export function readMetafile(name: string): Metafile {
  return JSON.parse(readFileSync(join(ROOT, "dist", `${name}.meta.json`), "utf8")) as Metafile;
}

/** Inputs reachable from `entry` through static imports only (`import` statements and `require` calls). */
export function staticClosure(meta: Metafile, entry: string): Set<string> {
  const seen = new Set<string>([entry]);
  const queue = [entry];
  for (let file = queue.pop(); file !== undefined; file = queue.pop()) {
    for (const i of meta.inputs[file]?.imports ?? []) {
      if (i.external || i.kind === "dynamic-import" || seen.has(i.path)) continue;
      seen.add(i.path);
      queue.push(i.path);
    }
  }
  return seen;
}
