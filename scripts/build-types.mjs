// Declarations for the package's API entry (package.json "exports" types): tsc emits one per source file of the
// API's import graph, then only the ones the entry's declaration reaches stay, so the package ships no more.
import { spawnSync } from "node:child_process";
import { readFileSync, rmSync, readdirSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, normalize, relative } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const out = join(root, "dist", "types");
const entry = join(out, "conformance", "api.d.ts");

rmSync(out, { recursive: true, force: true });
const tsc = createRequire(join(root, "package.json")).resolve("typescript/bin/tsc");
// --noCheck: emit only, at half the cost (prepare runs on every install and pack); `npm run typecheck` and the lint
// job check the same sources, and the packed-package test type-checks these declarations from a strict consumer.
const r = spawnSync(process.execPath, [tsc, "-p", join(root, "tsconfig.types.json"), "--noCheck"], { cwd: root, stdio: ["ignore", 2, 2] });
if (r.status !== 0) process.exit(r.status ?? 1);

// Relative specifiers in a declaration: `from "./x.js"`, `import("./x.js")`.
const reached = new Set();
const queue = [entry];
while (queue.length > 0) {
  const file = queue.pop();
  if (reached.has(file)) continue;
  reached.add(file);
  for (const m of readFileSync(file, "utf8").matchAll(/(?:from |import\()"(\.{1,2}\/[^"]+)"/g)) {
    queue.push(normalize(join(dirname(file), m[1].replace(/\.(?:ts|js)$/, ".d.ts"))));
  }
}
const walk = (dir) => readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? walk(join(dir, name)) : [join(dir, name)]));
let dropped = 0;
for (const file of walk(out)) {
  if (!reached.has(file)) {
    rmSync(file);
    dropped += 1;
  }
}
// Folders left empty by the pruning.
const prune = (dir) => {
  for (const name of readdirSync(dir)) if (statSync(join(dir, name)).isDirectory()) prune(join(dir, name));
  if (readdirSync(dir).length === 0) rmSync(dir, { recursive: true });
};
prune(out);
process.stderr.write(`build-types: ${reached.size} declarations kept under ${relative(root, out)}, ${dropped} unreachable dropped\n`);
