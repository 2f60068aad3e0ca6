// Declarations for the package's API entry (package.json "exports" types): tsc emits one per source file of the
// API's import graph, then only the ones the entry's declaration reaches stay, so the package ships no more.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, rmSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, normalize, relative } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const out = join(root, "dist", "types");
const entry = join(out, "conformance", "api.d.ts");
// Beside dist/types/, not in it: the package ships dist/types/.
const stamp = join(root, "dist", "types.inputs-sha256");

const walk = (dir) =>
  readdirSync(dir).flatMap((name) =>
    statSync(join(dir, name)).isDirectory() ? walk(join(dir, name)) : [join(dir, name)],
  );

/**
 * Everything the emit depends on: the TypeScript sources (type-only imports included, so the folders are walked
 * rather than a bundler's graph), the tsconfigs, this script, and package-lock.json for the versions of TypeScript
 * and of every dependency whose types a declaration may name.
 */
function inputsDigest() {
  const sources = ["conformance", "simulator", "relay"]
    .flatMap((dir) => walk(join(root, dir)))
    .filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"));
  const digest = createHash("sha256");
  const settings = ["tsconfig.json", "tsconfig.types.json", "package-lock.json", "scripts/build-types.mjs"]
    .map((f) => join(root, f))
    .filter((f) => existsSync(f));
  for (const file of [...sources.sort(), ...settings])
    digest
      .update(`${relative(root, file)}\0`)
      .update(readFileSync(file))
      .update("\0");
  return digest.digest("hex");
}

// prepare runs on every install and every `npm pack` (the packed-package test packs right after CI's install): the
// same inputs give the same declarations, so they are emitted again only when an input changed.
const inputs = inputsDigest();
if (existsSync(entry) && existsSync(stamp) && readFileSync(stamp, "utf8") === inputs) {
  process.stderr.write(`build-types: ${relative(root, out)} is up to date\n`);
  process.exit(0);
}
rmSync(stamp, { force: true });
rmSync(out, { recursive: true, force: true });
const tsc = createRequire(join(root, "package.json")).resolve("typescript/bin/tsc");
// --noCheck: emit only, at half the cost (prepare runs on every install and pack); `npm run typecheck` and the lint
// job check the same sources, and the packed-package test type-checks these declarations from a strict consumer.
const r = spawnSync(process.execPath, [tsc, "-p", join(root, "tsconfig.types.json"), "--noCheck"], {
  cwd: root,
  stdio: ["ignore", 2, 2],
});
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
writeFileSync(stamp, inputs);
process.stderr.write(
  `build-types: ${reached.size} declarations kept under ${relative(root, out)}, ${dropped} unreachable dropped\n`,
);
