// Starts a bundled simulator bin through V8's code cache: compiling the bundle is the largest part of a start on Node
// 20.
"use strict";
const fs = require("fs");
const path = require("path");
const vm = require("vm");
const Module = require("module");

/** Runs dist/<name>.cjs as the main module, with the code cache that `npm run build` wrote beside it when present. */
module.exports = function launch(name) {
  const file = path.join(__dirname, "..", "..", "dist", `${name}.cjs`);
  // No bundle but the source: installed without running `prepare` (a git dependency with --ignore-scripts).
  if (!fs.existsSync(file) && fs.existsSync(path.join(__dirname, "..", name, "main.ts")))
    return require("./tsx-fallback.cjs")(name);
  const cacheFile = `${file}.v8-cache`;
  let cachedData;
  try {
    cachedData = fs.readFileSync(cacheFile);
  } catch {
    // No cache (not built yet, or removed): compile from source.
  }
  const script = new vm.Script(Module.wrap(fs.readFileSync(file, "utf8")), { filename: file, cachedData });
  // Only the build writes the cache (after a warm-up call), so an installed package is never written to at run time.
  if (process.env.GENTLE_AI_SIM_WRITE_CODE_CACHE === "1") {
    process.once("exit", () => {
      const tmp = `${cacheFile}.${process.pid}.tmp`;
      fs.writeFileSync(tmp, script.createCachedData());
      fs.renameSync(tmp, cacheFile);
    });
  }
  const mod = new Module(file, null);
  mod.filename = file;
  script.runInThisContext()(mod.exports, Module.createRequire(file), mod, file, path.dirname(file));
};
