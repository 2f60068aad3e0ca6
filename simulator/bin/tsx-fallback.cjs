// Runs a simulator entry from its TypeScript source when dist/ was never built (a git dependency installed with
// --ignore-scripts skips `prepare`). Slower: a second Node start with tsx, per call.
"use strict";
const { spawnSync } = require("child_process");
const fs = require("fs");
const path = require("path");
const { pathToFileURL } = require("url");

/** tsx's `import` entry (what `node --import tsx` loads), resolved from this package so any cwd works. */
function tsxLoaderUrl() {
  const manifestPath = require.resolve("tsx/package.json");
  const entry = JSON.parse(fs.readFileSync(manifestPath, "utf8")).exports?.["."];
  return pathToFileURL(path.join(path.dirname(manifestPath), typeof entry === "string" ? entry : "./dist/loader.mjs"))
    .href;
}

/** Runs simulator/<name>/main.ts under tsx with this process's argv, stdio and environment, then exits as it did. */
module.exports = function runFromSource(name) {
  // The simulator's stderr is compared byte for byte under the harness, so the warning goes to a terminal only;
  // the relay-conformance launcher warns once per run for the calls it makes.
  if (process.stderr.isTTY)
    process.stderr.write(
      `${name}: dist/ is not built (installed without scripts?); running from TypeScript through tsx (slower). \`node ${path.join(__dirname, "..", "..", "scripts", "build.mjs")}\` builds it.\n`,
    );
  const main = path.join(__dirname, "..", name, "main.ts");
  const r = spawnSync(process.execPath, ["--import", tsxLoaderUrl(), main, ...process.argv.slice(2)], {
    stdio: "inherit",
    shell: false,
  });
  if (r.error) throw r.error;
  if (r.signal) process.kill(process.pid, r.signal);
  process.exit(r.status ?? 1);
};
