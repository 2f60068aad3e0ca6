// How a relay host loads the modules it runs (the relay under test, a FINALIZE client, a repro relay): the way Pi
// loads an extension. Pi hands extensions to jiti, which transforms TypeScript to CommonJS and evaluates it in the
// loading thread; tsx's require hook does the same here. So a host start no longer pays for tsx's ESM loader, whose
// hooks run in a worker thread of their own: on Node 20, 0.3 s of CPU per host start against 0.05 s for the hook.
// A graph CommonJS cannot carry and what Node loads natively (JavaScript) are imported as ES modules, through tsx's
// ESM loader only when Node cannot load the file itself.
import { readdirSync, readFileSync } from "node:fs";
import NodeModule, { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";

type Module = Record<string, unknown>;

const TYPESCRIPT = /\.[cm]?tsx?$/;
// What says a module graph cannot load as CommonJS: top-level await (tsx's code for it), or an ES-only package whose
// exports offer no `require` condition (execa's dependencies). The failing module never ran; modules loaded before
// it did, and run again in the ES module graph (that import is scoped, so it shares nothing with the failed one).
const NOT_COMMONJS = new Set(["ERR_REQUIRE_ASYNC_MODULE", "ERR_PACKAGE_PATH_NOT_EXPORTED", "ERR_REQUIRE_ESM"]);
const requireHere = createRequire(import.meta.url);
// One registration per process, however many loads start before it finishes.
let hooked: Promise<void> | undefined;

/** Loads the module at an absolute path: TypeScript through tsx's require hook, else as an ES module. */
export async function loadHostedModule(path: string): Promise<Module> {
  if (TYPESCRIPT.test(path)) {
    await (hooked ??= hookRequire());
    try {
      return requireHere(path) as Module;
    } catch (error) {
      if (!NOT_COMMONJS.has(String((error as { code?: unknown }).code))) throw error;
    }
    return importThroughTsx(path);
  }
  try {
    return (await import(pathToFileURL(path).href)) as Module;
  } catch (error) {
    // A JavaScript module that imports TypeScript.
    if ((error as { code?: unknown }).code !== "ERR_UNKNOWN_FILE_EXTENSION") throw error;
    return importThroughTsx(path);
  }
}

/**
 * Registers tsx's require hook, and makes what it compiles strict (below). Required, not imported: tsx's ES module
 * entry for it wraps a 95 kB CommonJS file that Node's ESM loader would scan for its exports on every host start.
 */
async function hookRequire(): Promise<void> {
  const lexer = lexerReady();
  const { register } = requireHere("tsx/cjs/api") as { register: () => () => void };
  register();
  await lexer;
  const prototype = NodeModule.prototype as unknown as { _compile: (this: unknown, content: string, filename: string, ...rest: unknown[]) => unknown };
  const compile = prototype._compile;
  prototype._compile = function (content, filename, ...rest) {
    return compile.call(this, transformed(content, filename) ? strict(content) : content, filename, ...rest);
  };
}

/**
 * Resolves once tsx's WebAssembly build of es-module-lexer is ready. tsx scans every module it loads for dynamic
 * imports with that lexer, through an asm.js fallback until the WebAssembly build has compiled (in the background);
 * cold, that fallback costs a host start about 30 ms of CPU for our relay, against 5 ms of waiting. Which lexer
 * runs changes no output. Required before tsx's own entry, so the hook does not scan the lexer itself; a tsx
 * without the file (a later layout) is loaded the slower way.
 */
async function lexerReady(): Promise<void> {
  // Without WebAssembly (e.g. --jitless) tsx skips that build itself, and so does this.
  const file = typeof WebAssembly === "undefined" ? undefined : tsxLexerFile();
  if (file === undefined) return;
  try {
    await (requireHere(file) as { init?: Promise<void> }).init;
  } catch {
    // The build failed to load or compile: tsx scans with its fallback, as it would have on its own.
    return;
  }
  // tsx's own continuation on the same promise takes the WebAssembly parser; it runs before this one resumes.
  await new Promise<void>((resolve) => setImmediate(resolve));
}

/** tsx's CommonJS build of es-module-lexer (a chunk of its dist, named by content hash), if this tsx has one. */
export function tsxLexerFile(): string | undefined {
  const dist = join(dirname(requireHere.resolve("tsx/package.json")), "dist");
  const file = readdirSync(dist).find((name) => /^lexer-[\w-]+\.cjs$/.test(name));
  return file === undefined ? undefined : join(dist, file);
}

/**
 * Whether tsx rewrote the file (TypeScript, or ES module syntax) rather than handing Node its text. Such a module
 * must run in strict mode: an ES module always does, and so does jiti's CommonJS output, but esbuild's says "use
 * strict" only when a tsconfig asks, and the relay's own tsconfig is not read (in Pi neither).
 */
function transformed(content: string, filename: string): boolean {
  try {
    return readFileSync(filename, "utf8").replace(/^\uFEFF/, "") !== content;
  } catch {
    return false;
  }
}

/** The directive first, after a hashbang line if there is one; line numbers do not move. */
function strict(content: string): string {
  if (!content.startsWith("#!")) return `"use strict";${content}`;
  const eol = content.indexOf("\n");
  return eol === -1 ? content : `${content.slice(0, eol + 1)}"use strict";${content.slice(eol + 1)}`;
}

/** tsx's ESM loader, scoped to this import (a fresh module graph, so an earlier failed attempt is not reused). */
async function importThroughTsx(path: string): Promise<Module> {
  const { tsImport } = (await import("tsx/esm/api")) as { tsImport: (specifier: string, parent: string) => Promise<Module> };
  return tsImport(pathToFileURL(path).href, import.meta.url);
}
