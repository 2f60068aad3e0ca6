// The CLI bundle is split along the command registry's dynamic imports (scripts/build.mjs, cli/commands/index.ts),
// checked on the build's esbuild metafile (dist/cli.meta.json): the top-level help and the dispatcher load no
// dependency, and `run`, the command CI starts, loads neither ajv nor zod's full build (release and fidelity use them).
import { describe, expect, it } from "vitest";
import { readMetafile, staticClosure } from "../../support/bundle-meta.ts";

const meta = readMetafile("cli");
const dependencies = (entry: string): string[] => [...staticClosure(meta, entry)].filter((p) => p.startsWith("node_modules/"));
const heavy = (path: string): boolean => /^node_modules\/(ajv|zod\/v4\/classic)\//.test(path);

describe("the CLI bundle's split (esbuild metafile)", () => {
  it("the entry point loads no dependency before a command is chosen", () => {
    expect(meta.outputs["dist/relay-conformance.mjs"]?.entryPoint).toBe("conformance/cli/main.ts");
    expect(dependencies("conformance/cli/main.ts")).toEqual([]);
    // Each command is a dynamic import of the entry, so its code is in chunks the entry does not load statically.
    expect(meta.inputs["conformance/cli/commands/index.ts"]?.imports.filter((i) => i.kind === "dynamic-import")).toHaveLength(11);
  });

  it("run loads neither ajv nor zod's full build; the bundle still carries both, for release and fidelity", () => {
    expect(dependencies("conformance/cli/commands/run.ts").filter(heavy)).toEqual([]);
    expect(dependencies("conformance/fidelity/command.ts").some((p) => p.startsWith("node_modules/ajv/"))).toBe(true);
    expect(Object.keys(meta.inputs).some((p) => p.startsWith("node_modules/zod/v4/classic/"))).toBe(true);
  });
});
