// The simulator is spawned once per provider call; its start-up rules, checked on the build's esbuild metafile
// (dist/simulator.meta.json, written by scripts/build.mjs): CommonJS output, no zod among the modules the entry loads
// statically (lazily imported verbs and the scenario validator may use it), and no top-level await anywhere it loads.
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { readMetafile, staticClosure } from "../../support/bundle-meta.ts";
import { ROOT } from "../../support/sim-world.ts";

const meta = readMetafile("simulator");
const bundles = Object.entries(meta.outputs).filter(([, o]) => o.entryPoint !== undefined);

/** Top-level `await` (or `for await`) in a source file: outside every function body. */
function topLevelAwaits(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(join(ROOT, file), "utf8"), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) || ts.isClassStaticBlockDeclaration(node)) return;
    if (ts.isAwaitExpression(node) || (ts.isForOfStatement(node) && node.awaitModifier !== undefined)) {
      found.push(`${file}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe("simulator bundles' start-up rules (esbuild metafile)", () => {
  it("builds gentle-ai and pi as CommonJS .cjs bundles", () => {
    expect(bundles.map(([out, o]) => [out, o.entryPoint]).sort()).toEqual([
      ["dist/gentle-ai.cjs", "simulator/gentle-ai/main.ts"],
      ["dist/pi.cjs", "simulator/pi/main.ts"],
    ]);
    for (const [out, o] of bundles) {
      // Format cjs: every builtin the bundle loads is a require() call (ESM output would use import statements)...
      expect(o.imports.length).toBeGreaterThan(0);
      expect([out, [...new Set(o.imports.map((i) => i.kind))]]).toEqual([out, ["require-call"]]);
      // ...and the file carries no ESM syntax of its own.
      expect(readFileSync(join(ROOT, out), "utf8")).not.toMatch(/^\s*(import|export)\s/m);
    }
  });

  it("no zod module is loaded on the start-up path; zod is bundled only behind a dynamic import", () => {
    const isZod = (path: string): boolean => /(^|\/)node_modules\/zod\//.test(path);
    for (const [out, o] of bundles) {
      const startup = staticClosure(meta, o.entryPoint!);
      expect([out, [...startup].filter(isZod)]).toEqual([out, []]);
      // The check is not vacuous: the scenario validator (loaded lazily) does bundle zod.
      expect(Object.keys(o.inputs).some(isZod)).toBe(true);
    }
  });

  it("no top-level await in any of the simulator's own modules that a bundle loads", () => {
    const own = new Set(
      bundles.flatMap(([, o]) => Object.keys(o.inputs)).filter((p) => p.startsWith("simulator/") && p.endsWith(".ts")),
    );
    expect(own.size).toBeGreaterThan(20);
    expect([...own].flatMap(topLevelAwaits)).toEqual([]);
  });
});

describe("the V8 code cache beside each bundle", () => {
  // V8 checks a code cache only against its source's length; a rebuild that keeps the length (a swapped digest, `!0`
  // for `!1`) must not leave the previous build's compiled code in place, so the build drops old caches first.
  it.each(["gentle-ai", "pi"])("dist/%s.cjs.v8-cache holds this build's validator digest", (name) => {
    const bundle = readFileSync(join(ROOT, `dist/${name}.cjs`), "latin1");
    const digest = /"([0-9a-f]{64})"/.exec(bundle)?.[1];
    expect(digest).toMatch(/^[0-9a-f]{64}$/);
    expect(readFileSync(join(ROOT, `dist/${name}.cjs.v8-cache`)).includes(Buffer.from(digest!, "latin1"))).toBe(true);
  });
});
