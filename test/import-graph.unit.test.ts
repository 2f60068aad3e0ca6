// The module graph's rules: the simulator never imports the harness (it ships alone, in dist/gentle-ai.cjs and
// dist/pi.cjs), the harness never imports the relay under test (it judges the relay, so it decodes the provider's
// documents with its own code), and no source tree has an import cycle, type-only imports included.
import { describe, expect, it } from "vitest";
import { fileURLToPath } from "node:url";
import { importCycles, importGraph, importsOf } from "./support/import-graph.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

describe("import graph", () => {
  it("no simulator/ file imports from conformance/ (or relay/)", () => {
    const edges = importGraph(ROOT, "simulator");
    expect(edges.length).toBeGreaterThan(100);
    expect(edges.filter((e) => e.to.startsWith("conformance/") || e.to.startsWith("relay/"))).toEqual([]);
  });

  it("no conformance/ file imports from relay/ (the relay is loaded by path, as a subject)", () => {
    const edges = importGraph(ROOT, "conformance");
    expect(edges.length).toBeGreaterThan(100);
    expect(edges.filter((e) => e.to.startsWith("relay/"))).toEqual([]);
  });

  it.each(["simulator", "conformance", "relay"])("%s/ has no import cycle", (dir) => {
    expect(importCycles(importGraph(ROOT, dir))).toEqual([]);
  });

  it("the scanner sees every import form and finds cycles (including type-only ones)", () => {
    const text = [
      `import type { A } from "./a.ts";`,
      `import { type B, c } from "./b.ts";`,
      `import { type D } from "./d.ts";`,
      `export { e } from "../e.ts";`,
      `export type { F } from "./f.ts";`,
      `import "node:fs";`,
      `const g = await import("./g.ts");`,
      `type H = import("./h.ts").H;`,
    ].join("\n");
    expect(importsOf("x.ts", text)).toEqual([
      { specifier: "./a.ts", typeOnly: true },
      { specifier: "./b.ts", typeOnly: false },
      { specifier: "./d.ts", typeOnly: true },
      { specifier: "../e.ts", typeOnly: false },
      { specifier: "./f.ts", typeOnly: true },
      { specifier: "./g.ts", typeOnly: false },
      { specifier: "./h.ts", typeOnly: true },
    ]);
    const edge = (from: string, to: string): { from: string; to: string; typeOnly: boolean } => ({ from, to, typeOnly: true });
    expect(importCycles([edge("a", "b"), edge("b", "c"), edge("c", "a"), edge("c", "d"), edge("d", "d"), edge("e", "a")])).toEqual([["a", "b", "c"], ["d"]]);
    expect(importCycles([edge("a", "b"), edge("b", "c"), edge("a", "c")])).toEqual([]);
  });
});
