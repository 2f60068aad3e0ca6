import { existsSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import { loadHostedModule } from "../process/load-module.ts";
import { REPO_ROOT } from "./paths.ts";

/** Module names a reproduction may use in `client=`; `subject` is ours unless `--against` replaces it. */
export const NAMED_MODULES: Readonly<Record<string, { relay?: string; client?: string; describe: string }>> = {
  ours: {
    relay: "relay/index.ts",
    client: "relay/finalize.ts",
    describe: "our relay (relay/index.ts) and FINALIZE client (relay/finalize.ts)",
  },
  "gentle-pi-2.1.2": {
    client: "conformance/repro/clients/gentle-pi-2.1.2.ts",
    describe:
      "gentle-pi 2.1.2 correction FINALIZE model with defects D1 D2 D3 (conformance/repro/clients/gentle-pi-2.1.2.ts)",
  },
};

/** Bad input that is not a parse error: unknown module, missing export. */
export class ReproInputError extends Error {
  override readonly name = "ReproInputError";
}

/** Resolves a module path given on the command line or in a file against the repo root and cwd. */
export function resolveModulePath(spec: string, base = process.cwd()): string {
  if (isAbsolute(spec)) return spec;
  const fromBase = resolve(base, spec);
  if (existsSync(fromBase)) return fromBase;
  return join(REPO_ROOT, spec);
}

const cache = new Map<string, Promise<Record<string, unknown>>>();

/** Imports a module by absolute path, as a relay host does (process/load-module.ts). */
export function loadModule(path: string): Promise<Record<string, unknown>> {
  let p = cache.get(path);
  if (!p) {
    p = existsSync(path) ? loadHostedModule(path) : Promise.reject(new ReproInputError(`module not found: ${path}`));
    cache.set(path, p);
  }
  return p;
}
