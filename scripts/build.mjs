// Bundles the bin entry points so every simulator start skips TypeScript transpilation.
import { build } from "esbuild";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { scenarioValidatorDigest } from "./validator-digest.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const common = {
  absWorkingDir: root,
  outdir: join(root, "dist"),
  bundle: true,
  platform: "node",
  target: "node20",
  minify: true,
  sourcemap: false,
  legalComments: "none",
  logLevel: "warning",
  write: false,
};
const entryPoints = (entries) =>
  Object.fromEntries(
    Object.entries(entries)
      .filter(([, p]) => existsSync(join(root, p)))
      .map(([k, p]) => [k, join(root, p)]),
  );

// The scenario validation cache's build key (simulator/scenario/scenario-cache.ts).
const validatorDigest = await scenarioValidatorDigest(root);

// The simulator is spawned once per provider call, so it is CommonJS: Node 20's ESM loader alone costs ~15 ms a start.
// Its start-up rules (CommonJS, no top-level await, no zod on the static import path) are checked by
// test/simulator/bin/startup-bundle.test.ts over the metafile written beside the bundles.
const simulator = build({
  ...common,
  entryPoints: entryPoints({
    "gentle-ai": "simulator/gentle-ai/main.ts",
    pi: "simulator/pi/main.ts",
  }),
  outExtension: { ".js": ".cjs" },
  format: "cjs",
  metafile: true,
  // import() of a builtin becomes require(): the code-cached vm.Script in simulator/bin/launch.cjs has no ESM loader
  // hook.
  supported: { "dynamic-import": false },
  define: { "import.meta.url": "__importMetaUrl", __SCENARIO_VALIDATOR_DIGEST__: JSON.stringify(validatorDigest) },
  // A lazy global: computing the URL on every start would cost a module load most calls never need.
  banner: {
    js: "Object.defineProperty(globalThis,'__importMetaUrl',{get(){return require('url').pathToFileURL(__filename).href}});",
  },
});
// jiti, tsx and esbuild stay external everywhere: at run time the harness loads relays through jiti and its own
// TypeScript through tsx (on esbuild), and each finds its own files (jiti its babel transform, on first use). The ES
// module bundles get a require() for the CommonJS code inside them (execa's, ajv).
const ESM_REQUIRE = { js: "import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);" };
const RUNTIME_LOADERS = ["jiti", "tsx", "tsx/*", "esbuild"];
// The CLI (conformance/bin/relay-conformance imports it and calls runAsProcess) has its dependencies inside: loaded
// from node_modules as ~400 ES modules they cost ~0.25 s of CPU on every start (execa alone ~0.14 s), and the CLI
// starts once per command, per CI shard, per maintainer check. Split along the command registry's dynamic imports
// (commands.ts): a command loads its own chunks only, and `run` skips about half of the 1.4 MB.
const CLI_CHUNKS = "cli-chunks";
// `mutate`'s StrykerJS instrumenter (Babel, with optional parsers such as svelte's that are not installed) and the
// report packages it reads files from stay in node_modules, loaded only when `mutate` runs.
const MUTATE_PACKAGES = [
  "@stryker-mutator/instrumenter",
  "mutation-testing-report-schema",
  "mutation-testing-elements",
];
const cli = build({
  ...common,
  entryPoints: entryPoints({ "relay-conformance": "conformance/main.ts" }),
  outExtension: { ".js": ".mjs" },
  format: "esm",
  splitting: true,
  chunkNames: `${CLI_CHUNKS}/[name]-[hash]`,
  metafile: true,
  external: [...RUNTIME_LOADERS, ...MUTATE_PACKAGES],
  banner: ESM_REQUIRE,
});
// The programmatic API (package.json "exports": conformance/api.mjs loads it) imports the consumer's own zod and
// friends: its schemas must be the zod instance a consumer composes them with.
const api = build({
  ...common,
  entryPoints: entryPoints({ api: "conformance/api.ts" }),
  outExtension: { ".js": ".mjs" },
  format: "esm",
  external: [...RUNTIME_LOADERS, "fast-check", "execa", "zod", "zod/*", "ajv", "ajv/*"],
  banner: ESM_REQUIRE,
});

// What a relay host loads besides the relay: its child (conformance/process/adapter-child.ts), started once per lane,
// golden and repro step, and the one-shot task module (the repro worker). Each as one file with its dependencies
// inside starts sooner than its TypeScript graph through tsx: ~0.2 s of CPU for the child (jiti still loads the
// relay). conformance/paths.ts `builtOrSource` falls back to the sources.
const adapter = build({
  ...common,
  entryPoints: entryPoints({
    "adapter-child": "conformance/process/adapter-child.ts",
    "repro-worker": "conformance/repro/worker.ts",
  }),
  external: RUNTIME_LOADERS,
  banner: ESM_REQUIRE,
  outExtension: { ".js": ".mjs" },
  format: "esm",
});

// Rename into place so a simulator spawned during a rebuild never loads a half-written bundle.
mkdirSync(join(root, "dist"), { recursive: true });
const writeAtomically = (path, contents) => {
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, contents);
  renameSync(tmp, path);
};
const [simulatorResult, cliResult, apiResult, adapterResult] = await Promise.all([simulator, cli, api, adapter]);
// V8 accepts a code cache whose source has the same length (its source check is the length, not the bytes), and a
// rebuild that only flips `!0` to `!1` or swaps a digest keeps the length: the old cache would run the old code.
// The warm-up below writes fresh caches, so drop the old ones first.
for (const name of ["gentle-ai", "pi"]) rmSync(join(root, "dist", `${name}.cjs.v8-cache`), { force: true });
const chunkDir = join(root, "dist", CLI_CHUNKS);
mkdirSync(chunkDir, { recursive: true });
// The CLI's chunks first (their names carry a content hash), then the entry points: a CLI started during the build
// loads the old entry point or the new one with all of its chunks in place.
const outputs = [simulatorResult, cliResult, apiResult, adapterResult].flatMap((result) => result.outputFiles);
const isChunk = (file) => dirname(file.path) === chunkDir;
for (const file of [...outputs.filter(isChunk), ...outputs.filter((f) => !isChunk(f))])
  writeAtomically(file.path, file.contents);
// An earlier build's chunks would only be packed and shipped.
const current = new Set(outputs.filter(isChunk).map((file) => file.path));
for (const name of readdirSync(chunkDir))
  if (!current.has(join(chunkDir, name))) rmSync(join(chunkDir, name), { force: true });
writeAtomically(join(root, "dist", "simulator.meta.json"), JSON.stringify(simulatorResult.metafile));
writeAtomically(join(root, "dist", "cli.meta.json"), JSON.stringify(cliResult.metafile));

// Warm-up: one materialize (the hottest provider call) and one fake pi answer, each writing its V8 code cache.
const { spawnSync } = await import("node:child_process");
const { mkdtempSync } = await import("node:fs");
const { tmpdir } = await import("node:os");
const scratch = mkdtempSync(join(tmpdir(), "gentle-relay-conformance-build-"));
try {
  const env = {
    PATH: process.env.PATH ?? "",
    TMPDIR: scratch,
    GENTLE_AI_SIM_STATE: join(scratch, "state"),
    GENTLE_PI_REVIEW_RELAY_CONTRACT: "gentle-pi.review-relay/v1",
  };
  const run = (bin, args, extraEnv, input) => {
    const r = spawnSync(join(root, "simulator/bin", bin), args, {
      cwd: scratch,
      env: { ...env, ...extraEnv },
      input,
      shell: false,
    });
    if (r.status !== 0)
      throw new Error(`build warm-up: ${bin} ${args.join(" ")} exited ${r.status ?? r.signal}: ${r.stderr}`);
    return r.stdout;
  };
  const status = JSON.parse(
    run(
      "gentle-ai",
      [
        "review",
        "status",
        "--contract",
        "gentle-ai.review-integration/v2",
        "--cwd",
        scratch,
        "--projection",
        "workspace",
        "--agent",
        "pi",
        "--next-transition",
      ],
      {},
    ).toString("utf8"),
  );
  const tokens = status.next_transition.collect.inputs[0].arguments.map((a) => a.token);
  const writeCache = { GENTLE_AI_SIM_WRITE_CODE_CACHE: "1" };
  const prompt = run("gentle-ai", ["review", "capture-result", ...tokens], writeCache);
  run("pi", ["--print"], writeCache, prompt);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
