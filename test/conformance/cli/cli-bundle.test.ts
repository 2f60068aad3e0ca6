// The CLI bundle is split along the command registry's dynamic imports (scripts/build.mjs, commands.ts),
// checked on the build's esbuild metafile (dist/cli.meta.json): the top-level help and the dispatcher load no
// dependency, and `run`, the command CI starts, loads neither ajv nor zod's full build (release and fidelity use them).
import { describe, expect, it } from "vitest";
import { readMetafile, staticClosure } from "../../support/bundle-meta.ts";

const meta = readMetafile("cli");
// Paths are relative to the package root, or climb out of it when node_modules is a link (a git worktree).
const inPackage =
  (name: string) =>
  (path: string): boolean =>
    path.includes(`node_modules/${name}/`);
const dependencies = (entry: string): string[] =>
  [...staticClosure(meta, entry)].filter((p) => p.includes("node_modules/"));
const AJV = inPackage("ajv");
const FULL_ZOD = inPackage("zod/v4/classic");

describe("the CLI bundle's split (esbuild metafile)", () => {
  it("the entry point loads no dependency before a command is chosen", () => {
    expect(meta.outputs["dist/relay-conformance.mjs"]?.entryPoint).toBe("conformance/main.ts");
    expect(dependencies("conformance/main.ts")).toEqual([]);
    // Each command is a dynamic import of the entry, so its code is in chunks the entry does not load statically.
    expect(meta.inputs["conformance/commands.ts"]?.imports.filter((i) => i.kind === "dynamic-import")).toHaveLength(13);
  });

  it("run loads neither ajv nor zod's full build; the bundle still carries both, for release and fidelity", () => {
    expect(dependencies("conformance/runner/command.ts").filter((p) => AJV(p) || FULL_ZOD(p))).toEqual([]);
    expect(dependencies("conformance/fidelity/command.ts").some(AJV)).toBe(true);
    expect(Object.keys(meta.inputs).some(FULL_ZOD)).toBe(true);
  });
});
