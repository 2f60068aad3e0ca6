// The module graph's rules: the simulator never imports the harness (it ships alone, in dist/gentle-ai.cjs and
// dist/pi.cjs), the harness never imports the relay under test (it judges the relay, so it decodes the provider's
// documents with its own code), and no source tree has an import cycle, type-only imports included, nor a cycle
// between its folders (support/import-graph.ts folderGraph says what a folder is).
import { describe, expect, it } from "vitest";
import { fileURLToPath } from "node:url";
import { folderGraph, importCycles, importGraph, importsOf, type ImportEdge } from "./support/import-graph.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/**
 * Edges from below the gentle-ai program into its verbs: the verbs sit on state/, repository/, output/ and go/, and
 * only the program around them (gentle-ai/dispatch.ts, gentle-ai/lineage.ts, …) may reach into verbs/.
 */
const intoVerbs = (edges: readonly ImportEdge[]): ImportEdge[] =>
  edges.filter((e) => e.to.startsWith("simulator/gentle-ai/verbs/") && !e.from.startsWith("simulator/gentle-ai/"));

/** The folder cycles of a tree: every strongly connected set of folders, sorted. */
const folderCycles = (tree: string): string[][] => importCycles(folderGraph(importGraph(ROOT, tree), tree));

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

  it("conformance/ has no cycle between its folders", () => {
    expect(folderCycles("conformance")).toEqual([]);
  });

  it("simulator/ has no cycle between its folders", () => {
    expect(folderCycles("simulator")).toEqual([]);
  });

  it("no simulator/ layer below gentle-ai/ imports gentle-ai/verbs/", () => {
    const edges = importGraph(ROOT, "simulator");
    expect(edges.some((e) => e.to.startsWith("simulator/gentle-ai/verbs/"))).toBe(true);
    expect(intoVerbs(edges)).toEqual([]);
    const edge = (from: string, to: string): ImportEdge => ({ from, to, typeOnly: true });
    const up = edge("simulator/state/lineage-store.ts", "simulator/gentle-ai/verbs/capture-result/artifact.ts");
    expect(intoVerbs([up, edge("simulator/gentle-ai/dispatch.ts", "simulator/gentle-ai/verbs/start.ts")])).toEqual([
      up,
    ]);
  });

  it("the folder graph finds a cycle between folders, not inside a folder and its subfolders nor through a top file", () => {
    const edge = (from: string, to: string): ImportEdge => ({ from, to, typeOnly: false });
    const graph = (edges: ImportEdge[]): string[][] => importCycles(folderGraph(edges, "t"));
    expect(graph([edge("t/a/x.ts", "t/b/y.ts"), edge("t/b/y.ts", "t/a/z.ts")])).toEqual([["t/a", "t/b"]]);
    expect(graph([edge("t/a/x.ts", "t/b/y.ts"), edge("t/b/y.ts", "t/c/w.ts"), edge("t/c/w.ts", "t/a/x.ts")])).toEqual([
      ["t/a", "t/b", "t/c"],
    ]);
    expect(graph([edge("t/a/x.ts", "t/a/sub/y.ts"), edge("t/a/sub/y.ts", "t/a/z.ts")])).toEqual([]);
    expect(
      graph([
        edge("t/api.ts", "t/a/x.ts"),
        edge("t/a/x.ts", "t/paths.ts"),
        edge("t/a/x.ts", "other/q.ts"),
        edge("other/q.ts", "t/a/x.ts"),
      ]),
    ).toEqual([]);
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
    const edge = (from: string, to: string): { from: string; to: string; typeOnly: boolean } => ({
      from,
      to,
      typeOnly: true,
    });
    expect(
      importCycles([edge("a", "b"), edge("b", "c"), edge("c", "a"), edge("c", "d"), edge("d", "d"), edge("e", "a")]),
    ).toEqual([["a", "b", "c"], ["d"]]);
    expect(importCycles([edge("a", "b"), edge("b", "c"), edge("a", "c")])).toEqual([]);
  });
});
