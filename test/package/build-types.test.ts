// scripts/build-types.mjs, which `prepare` runs on every install and every `npm pack`: declarations are emitted
// again only when an input changed, a type-only import included. Run in a copy of the project's build inputs with a
// two-file API, so tsc's program stays small; the copied tsconfig.json also drops the ambient Node types and the DOM
// library, which the two files never use and which are most of tsc's time (0.7 s of CPU a run against 2.1 s).
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { execa } from "execa";
import { afterAll, describe, expect, it } from "vitest";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const dir = mkdtempSync(join(tmpdir(), "build-types-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

for (const file of ["scripts/build-types.mjs", "tsconfig.types.json", "package-lock.json"]) {
  mkdirSync(dirname(join(dir, file)), { recursive: true });
  copyFileSync(join(root, file), join(dir, file));
}
const tsconfig = JSON.parse(readFileSync(join(root, "tsconfig.json"), "utf8")) as {
  compilerOptions: Record<string, unknown>;
};
writeFileSync(
  join(dir, "tsconfig.json"),
  JSON.stringify({ ...tsconfig, compilerOptions: { ...tsconfig.compilerOptions, types: [], lib: ["ES2023"] } }),
);
symlinkSync(join(root, "node_modules"), join(dir, "node_modules"));
mkdirSync(join(dir, "conformance"));
mkdirSync(join(dir, "simulator"));
mkdirSync(join(dir, "relay"));
writeFileSync(
  join(dir, "conformance/api.ts"),
  `import type { Shape } from "./shape.ts";\nexport function make(): Shape {\n  return { a: 1 };\n}\n`,
);
writeFileSync(join(dir, "conformance/shape.ts"), `export interface Shape {\n  a: number;\n}\n`);

/** Runs the script; what it says on stderr (it must succeed, silently on stdout). */
async function build(): Promise<string> {
  const r = await execa(process.execPath, [join(dir, "scripts/build-types.mjs")], {
    cwd: dir,
    stripFinalNewline: false,
  });
  expect([r.exitCode, r.stdout]).toEqual([0, ""]);
  return r.stderr;
}
const shapeDeclaration = join(dir, "dist/types/conformance/shape.d.ts");

describe("build-types", () => {
  it("emits, then skips while no input changed, then emits again for a changed type-only import", async () => {
    expect(await build()).toBe("build-types: 2 declarations kept under dist/types, 0 unreachable dropped\n");
    const emitted = statSync(shapeDeclaration).mtimeMs;
    expect(await build()).toBe("build-types: dist/types is up to date\n");
    expect(statSync(shapeDeclaration).mtimeMs).toBe(emitted);
    // A test file is not an input.
    writeFileSync(join(dir, "conformance/api.test.ts"), "export {};\n");
    expect(await build()).toBe("build-types: dist/types is up to date\n");
    writeFileSync(join(dir, "conformance/shape.ts"), `export interface Shape {\n  a: number;\n  b?: string;\n}\n`);
    expect(await build()).toBe("build-types: 2 declarations kept under dist/types, 0 unreachable dropped\n");
    expect(readFileSync(shapeDeclaration, "utf8")).toContain("b?: string;");
  });

  it("emits again when dist/types was removed, though the stamp is still there", async () => {
    rmSync(join(dir, "dist/types"), { recursive: true });
    expect(await build()).toBe("build-types: 2 declarations kept under dist/types, 0 unreachable dropped\n");
  });
});
