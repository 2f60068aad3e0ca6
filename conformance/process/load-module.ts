// How a relay host loads the modules it runs (the relay under test, a FINALIZE client, a repro relay): the way Pi
// loads an extension, through jiti with Pi's options. jiti transforms TypeScript and ES module syntax to CommonJS and
// evaluates it in the loading thread, top-level await included, so a relay loads here exactly as in production.
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createJiti, type JitiOptions } from "jiti";

type Module = Record<string, unknown>;

/**
 * What Pi passes (@earendil-works/pi-coding-agent 1.6.0, and 0.74 that gentle-pi 2.2.0 locks: `loadExtensionModule`
 * in dist/core/extensions/loader.js, as installed from npm): a fresh jiti per load without a module cache, so every
 * load evaluates its graph anew. Pi adds `alias`, which points its own packages (@earendil-works/pi-*, typebox) at
 * Pi's copies; there is no Pi here, so a relay resolves them from its own node_modules.
 */
const PI_JITI_OPTIONS = { moduleCache: false } as const satisfies JitiOptions;

// jiti's compile cache, where its default puts it for this module ({TMPDIR}/jiti), fixed when the host starts: a job
// switches TMPDIR to its case's, which must not receive the cache, nor lose it with every case.
const FS_CACHE = join(tmpdir(), "jiti");

/** Loads the module at an absolute path as Pi would: `createJiti(…).import(path)`. */
export async function loadHostedModule(path: string): Promise<Module> {
  return jitiForHost().import<Module>(path);
}

/** A jiti instance with Pi's options, its compile cache in the host's TMPDIR. */
function jitiForHost(): ReturnType<typeof createJiti> {
  return createJiti(import.meta.url, { ...PI_JITI_OPTIONS, fsCache: FS_CACHE });
}
