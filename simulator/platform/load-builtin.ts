// Builtins that some calls never need load on first use. The bundles are CommonJS and have their require; run from
// source (ES modules under tsx) there is none, and one is made from this module's URL, a conversion the bundles skip.
import { createRequire } from "node:module";

let load: NodeJS.Require | undefined;

/** Loads a Node builtin module, the first time it is asked for. */
export function loadBuiltin<T>(name: `node:${string}`): T {
  load ??= typeof require === "function" ? require : createRequire(import.meta.url);
  return load(name) as T;
}
