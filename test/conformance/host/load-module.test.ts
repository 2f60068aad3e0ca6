// How a relay host loads a module (conformance/host/load-module.ts): TypeScript as CommonJS through tsx's require
// hook, as Pi's jiti does, and an ES module graph when CommonJS cannot carry it. Checked through a real relay host
// (the built adapter child, started without tsx), which reports each fixture module's exported values.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createRequire } from "node:module";
import { tsxLexerFile } from "../../../conformance/host/load-module.ts";
import { RelayHost } from "../../../conformance/host/relay-host.ts";
import { harnessPaths } from "../../../conformance/paths.ts";

const dir = realpathSync(mkdtempSync(join(tmpdir(), "load-module-")));
// An ES module package, as gentle-pi's is: its .ts files are ES modules to Node and to tsx's ESM loader.
writeFileSync(join(dir, "package.json"), JSON.stringify({ type: "module" }));
const paths = harnessPaths();
const host = new RelayHost({ tsxLoader: paths.tsxLoader, adapterChild: paths.adapterChild, cwd: dir, env: { PATH: process.env.PATH ?? "", TMPDIR: tmpdir() } });
afterAll(async () => {
  await host.kill();
  rmSync(dir, { recursive: true, force: true });
});

function file(relative: string, text: string): string {
  const path = join(dir, relative);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  return path;
}

let id = 0;
/** The module's exported values as the host loaded them, or its load error. */
async function loadHostedModule(relayModule: string): Promise<Record<string, unknown>> {
  const outcome = await host.run({ id: ++id, op: "probe", relayModule, cwd: dir, processEnv: {} }, { timeoutMs: 30_000 });
  if (outcome.status !== "reply") throw new Error(`host: ${JSON.stringify(outcome)}`);
  const reply = outcome.reply;
  if (reply.type === "load-error") throw new Error(reply.message);
  if (reply.type !== "probe") throw new Error(`unexpected reply ${JSON.stringify(reply)}`);
  return reply.values;
}
// `module` exists only in a CommonJS module's scope: it tells the two ways of loading apart. `this` is undefined in a
// plain function call only in strict mode, which every ES module is in, and Pi's jiti output too.
const HOW = [
  `export const loadedAs: string = typeof module === "object" ? "commonjs" : "esm";`,
  `export const strict: boolean = (function (this: unknown) { return this === undefined; })();`,
  "",
].join("\n");

describe("loadHostedModule", () => {
  it("loads TypeScript as CommonJS, with its imports and import.meta.url", async () => {
    file("plain/helper.ts", `export const twice = (n: number): number => n * 2;\n`);
    // NodeNext style too: a `.js` specifier that names a `.ts` file.
    file("plain/other.ts", `export const one: number = 1;\n`);
    const path = file(
      "plain/relay.ts",
      `import { twice } from "./helper.ts";\nimport { one } from "./other.js";\n${HOW}export const four = twice(2) + one - 1;\nexport const url = import.meta.url;\n`,
    );
    const mod = await loadHostedModule(path);
    expect({ loadedAs: mod.loadedAs, strict: mod.strict, four: mod.four, url: mod.url }).toEqual({ loadedAs: "commonjs", strict: true, four: 4, url: `file://${path}` });
  });

  it("imports a module with top-level await as an ES module", async () => {
    const path = file("tla/relay.ts", `${HOW}export const value: number = await Promise.resolve(7);\n`);
    const mod = await loadHostedModule(path);
    expect({ loadedAs: mod.loadedAs, strict: mod.strict, value: mod.value }).toEqual({ loadedAs: "esm", strict: true, value: 7 });
  });

  it("imports a graph that needs an ES-only package (exports without a require condition) as ES modules", async () => {
    file("esm-only/node_modules/esm-only/package.json", JSON.stringify({ name: "esm-only", type: "module", exports: { import: "./index.js" } }));
    file("esm-only/node_modules/esm-only/index.js", `export const answer = 42;\n`);
    const path = file("esm-only/relay.ts", `import { answer } from "esm-only";\n${HOW}export const got = answer;\n`);
    const mod = await loadHostedModule(path);
    expect({ loadedAs: mod.loadedAs, got: mod.got }).toEqual({ loadedAs: "esm", got: 42 });
  });

  it("imports JavaScript natively, and through tsx when it imports TypeScript", async () => {
    const native = file("js/native.mjs", `export const n = 1;\n`);
    file("js/typed.ts", `export const t: number = 2;\n`);
    const mixed = file("js/mixed.mjs", `import { t } from "./typed.ts";\nexport const sum = t + 1;\n`);
    expect((await loadHostedModule(native)).n).toBe(1);
    expect((await loadHostedModule(mixed)).sum).toBe(3);
  });

  it("throws a module's own failure instead of retrying it another way", async () => {
    const path = file("throws/relay.ts", `throw new Error("relay refused to load");\n`);
    await expect(loadHostedModule(path)).rejects.toThrow("relay refused to load");
    const missing = file("missing/relay.ts", `import "./nowhere.ts";\n`);
    await expect(loadHostedModule(missing)).rejects.toThrow(`Cannot find module './nowhere.ts'`);
  });

  it("finds tsx's WebAssembly lexer, which a host waits for before it loads a module", async () => {
    // Without it every host start scans with tsx's asm.js fallback again: a tsx upgrade that moves it fails here.
    const file = tsxLexerFile();
    expect(file).toMatch(/\/node_modules\/tsx\/dist\/lexer-[\w-]+\.cjs$/);
    const lexer = createRequire(import.meta.url)(file ?? "") as { init: Promise<void>; parse: (code: string) => [{ d: number }[]] };
    await lexer.init;
    // `d` is the dynamic import's start (-1 for a static one): what tsx looks for in every module it loads.
    expect(lexer.parse(`import "a";\nconst b = import("b");\n`)[0].map((i) => i.d > -1)).toEqual([false, true]);
  });
});
