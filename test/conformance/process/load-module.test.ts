// How a relay host loads a module (conformance/process/load-module.ts): through jiti with Pi's options, so TypeScript,
// ES module syntax and top-level await all become CommonJS evaluated in the host's thread. Checked through a real
// relay host (the built adapter child, started without tsx), which reports each fixture module's exported values.
import { mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { RelayHost } from "../../../conformance/process/relay-host.ts";
import { harnessPaths } from "../../../conformance/paths.ts";

const dir = realpathSync(mkdtempSync(join(tmpdir(), "load-module-")));
// An ES module package, as gentle-pi's is: its .ts and .js files are ES modules to Node (not to jiti).
writeFileSync(join(dir, "package.json"), JSON.stringify({ type: "module" }));
const paths = harnessPaths();
const host = new RelayHost({
  tsxLoader: paths.tsxLoader,
  adapterChild: paths.adapterChild,
  cwd: dir,
  env: { PATH: process.env.PATH ?? "", TMPDIR: tmpdir() },
});
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
/** The module's exported values as the host loaded them, or its load error; the job's environment is `processEnv`. */
async function loadHostedModule(
  relayModule: string,
  processEnv: Record<string, string> = {},
): Promise<Record<string, unknown>> {
  const outcome = await host.run({ id: ++id, op: "probe", relayModule, cwd: dir, processEnv }, { timeoutMs: 30_000 });
  if (outcome.status !== "reply") throw new Error(`host: ${JSON.stringify(outcome)}`);
  const reply = outcome.reply;
  if (reply.type === "load-error") throw new Error(reply.message);
  if (reply.type !== "probe") throw new Error(`unexpected reply ${JSON.stringify(reply)}`);
  return reply.values;
}
// `module` exists only in a CommonJS module's scope: it tells jiti's output from a module Node imported itself.
// `this` is undefined in a plain function call only in strict mode, which jiti's output is in, as an ES module is.
const HOW = [
  `export const loadedAs: string = typeof module === "object" ? "commonjs" : "esm";`,
  `export const strict: boolean = (function (this: unknown) { return this === undefined; })();`,
  "",
].join("\n");

describe("loadHostedModule", () => {
  it("loads TypeScript as strict CommonJS, with its imports and import.meta.url, its cache outside the job's TMPDIR", async () => {
    file("plain/helper.ts", `export const twice = (n: number): number => n * 2;\n`);
    // NodeNext style too: a `.js` specifier that names a `.ts` file.
    file("plain/other.ts", `export const one: number = 1;\n`);
    const path = file(
      "plain/relay.ts",
      `import { twice } from "./helper.ts";\nimport { one } from "./other.js";\n${HOW}export const four = twice(2) + one - 1;\nexport const url = import.meta.url;\n`,
    );
    const jobTmp = mkdtempSync(join(tmpdir(), "load-module-job-"));
    const mod = await loadHostedModule(path, { TMPDIR: jobTmp });
    expect({ loadedAs: mod.loadedAs, strict: mod.strict, four: mod.four, url: mod.url }).toEqual({
      loadedAs: "commonjs",
      strict: true,
      four: 4,
      url: `file://${path}`,
    });
    // jiti's compile cache stays where the host started (its TMPDIR), not in the case's.
    expect(readdirSync(jobTmp)).toEqual([]);
    rmSync(jobTmp, { recursive: true });
  });

  it("evaluates a module with top-level await as CommonJS too, as jiti does", async () => {
    const path = file("tla/relay.ts", `${HOW}export const value: number = await Promise.resolve(7);\n`);
    const mod = await loadHostedModule(path);
    expect({ loadedAs: mod.loadedAs, strict: mod.strict, value: mod.value }).toEqual({
      loadedAs: "commonjs",
      strict: true,
      value: 7,
    });
  });

  it("loads a graph that needs an ES-only package (exports without a require condition), the package natively", async () => {
    file(
      "esm-only/node_modules/esm-only/package.json",
      JSON.stringify({ name: "esm-only", type: "module", exports: { import: "./index.js" } }),
    );
    file(
      "esm-only/node_modules/esm-only/index.js",
      `export const answer = 42;\nexport const loadedAs = typeof module === "object" ? "commonjs" : "esm";\n`,
    );
    const path = file(
      "esm-only/relay.ts",
      `import { answer, loadedAs as its } from "esm-only";\n${HOW}export const got = answer;\nexport const dependency = its;\n`,
    );
    const mod = await loadHostedModule(path);
    expect({ loadedAs: mod.loadedAs, got: mod.got, dependency: mod.dependency }).toEqual({
      loadedAs: "commonjs",
      got: 42,
      dependency: "esm",
    });
  });

  it("imports JavaScript natively, and through jiti's transform when Node cannot (it imports TypeScript)", async () => {
    const SAYS = `export const loadedAs = typeof module === "object" ? "commonjs" : "esm";\n`;
    const native = file("js/native.mjs", `export const n = 1;\n${SAYS}`);
    file("js/typed.ts", `export const t: number = 2;\n`);
    const mixed = file("js/mixed.mjs", `import { t } from "./typed.ts";\nexport const sum = t + 1;\n${SAYS}`);
    const [a, b] = [await loadHostedModule(native), await loadHostedModule(mixed)];
    expect([a.n, a.loadedAs, b.sum, b.loadedAs]).toEqual([1, "esm", 3, "commonjs"]);
  });

  it("throws a module's own failure instead of retrying it another way", async () => {
    const path = file("throws/relay.ts", `throw new Error("relay refused to load");\n`);
    await expect(loadHostedModule(path)).rejects.toThrow("relay refused to load");
    const missing = file("missing/relay.ts", `import "./nowhere.ts";\n`);
    await expect(loadHostedModule(missing)).rejects.toThrow(`Cannot find module './nowhere.ts'`);
  });
});
