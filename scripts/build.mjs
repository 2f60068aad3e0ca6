// Bundles the bin entry points so every simulator start skips TypeScript transpilation.
import { build } from "esbuild";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";
import { existsSync, mkdirSync, renameSync, writeFileSync } from "node:fs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const entries = {
  "gentle-ai": "simulator/gentle-ai/main.ts",
  pi: "simulator/pi/main.ts",
  "relay-conformance": "conformance/cli/main.ts",
};
const present = Object.fromEntries(Object.entries(entries).filter(([, p]) => existsSync(join(root, p))));
const result = await build({
  absWorkingDir: root,
  entryPoints: Object.fromEntries(Object.entries(present).map(([k, p]) => [k, join(root, p)])),
  outdir: join(root, "dist"),
  outExtension: { ".js": ".mjs" },
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  minify: true,
  sourcemap: false,
  legalComments: "none",
  logLevel: "warning",
  write: false,
  // tsx and esbuild must stay external: the harness loads relays through them at run time.
  external: ["tsx", "tsx/*", "esbuild", "fast-check", "execa"],
  banner: { js: "import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);" },
});

// Rename into place so a simulator spawned during a rebuild never loads a half-written bundle.
mkdirSync(join(root, "dist"), { recursive: true });
for (const file of result.outputFiles) {
  const tmp = `${file.path}.${process.pid}.tmp`;
  writeFileSync(tmp, file.contents);
  renameSync(tmp, file.path);
}
