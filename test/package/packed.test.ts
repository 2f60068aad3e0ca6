// PACKED-PACKAGE TEST (slow: ~30 s). Packs this repository as `npm publish` would (prepare builds dist/), installs
// the tarball offline into a fresh consumer project with lifecycle scripts off, and runs the bins and the API from
// there: what a gentle-pi CI job gets, not what a clone of this repository gets; the gate also on Node 24 (gentle-pi's
// CI Node) when a Node 24 binary can be had (test/support/node24.ts).
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ReportSchema } from "../../conformance/report/report-schema.ts";
import { writeConsumer } from "../support/consumer-lock.ts";
import { node24 } from "../support/node24.ts";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const CLAUSES = ["HANDSHAKE-PATTERN-EXACT", "SUBMIT-CWD-HANDSHAKE"];
let scratch: string;
let consumer: string;
let packed: { filename: string; files: { path: string }[] };

// npm's own variables from a `npm test` parent would point the children at this repository.
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), "packed-test-"));
  consumer = join(scratch, "consumer");
  const pack = await execa("npm", ["pack", "--json", "--pack-destination", scratch], {
    cwd: root,
    env,
    extendEnv: false,
  });
  packed = (JSON.parse(pack.stdout) as (typeof packed)[])[0]!;
  const tarball = join(scratch, packed.filename);
  mkdirSync(consumer);
  writeConsumer(consumer, root, tarball);
  await execa("npm", ["ci", "--offline", "--ignore-scripts", "--no-audit", "--no-fund"], {
    cwd: consumer,
    env,
    extendEnv: false,
  });
}, 240_000);

afterAll(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

/**
 * Runs two clauses of the gate from the consumer with `command` (what starts the bin), `pathFirst` first on PATH,
 * and checks its exit, its silence and the report it writes to `json`.
 */
async function expectGatePasses(
  command: readonly [string, ...string[]],
  json: string,
  pathFirst?: string,
): Promise<void> {
  const relay = join(root, "relay", "index.ts");
  const grep = CLAUSES.map((c) => `^${c}$`).join("|");
  const [file, ...pre] = command;
  const PATH = pathFirst === undefined ? env.PATH : `${pathFirst}:${env.PATH ?? ""}`;
  const r = await execa(
    file,
    [...pre, "run", "--relay", relay, "--profile", "2.4.0", "--grep", grep, "--seed", "7", "--json", json, "--quiet"],
    {
      cwd: consumer,
      env: { ...env, PATH },
      extendEnv: false,
      reject: false,
    },
  );
  expect(r.stderr).toBe("");
  expect(r.exitCode).toBe(0);
  const report = ReportSchema.parse(JSON.parse(readFileSync(join(consumer, json), "utf8")));
  expect(report.relay).toBe(relay);
  expect(report.profiles).toEqual(["2.4.0"]);
  expect(report.seed).toBe(7);
  expect(report.clauses.map((c) => c.id).sort()).toEqual([...CLAUSES].sort());
  expect(report.summary).toEqual({ passed: 2, failed: 0, skipped: 0, errored: 0 });
}

describe("the packed package", () => {
  it("ships the bundles and runtime sources, and no tests or benches", () => {
    const paths = packed.files.map((f) => f.path);
    for (const file of [
      "dist/relay-conformance.mjs",
      "dist/api.mjs",
      "dist/adapter-child.mjs",
      "dist/repro-worker.mjs",
      "dist/gentle-ai.cjs",
      "dist/pi.cjs",
      "dist/types/conformance/api.d.ts",
      "conformance/process/adapter-child.ts",
      "relay/index.ts",
      "docs/cli.md",
      "LICENSE",
    ])
      expect(paths).toContain(file);
    expect(paths.filter((p) => /\.test\.ts$|^bench\/|^test\/(?!repro\/clients\/)/.test(p))).toEqual([]);
  });

  it("runs relay-conformance from the consumer and writes a valid report", async () => {
    await expectGatePasses(["npx", "--no-install", "relay-conformance"], "r.json");
  });

  it("runs the installed gate on Node 24, the Node gentle-pi's CI runs", { timeout: 300_000 }, async ({ skip }) => {
    const node = await node24(root, env);
    if ("missing" in node) {
      // One line in any reporter (the skip note shows in the verbose one only).
      const why = `no Node 24 binary, the Node 24 gate skipped: ${node.missing}`;
      console.warn(why);
      return skip(why);
    }
    expect((await execa(node.binary, ["--version"])).stdout).toMatch(/^v24\./);
    // Its directory first on PATH: whatever the gate starts through `env node` runs on Node 24 too.
    await expectGatePasses(
      [node.binary, join(consumer, "node_modules/.bin/relay-conformance")],
      "r24.json",
      dirname(node.binary),
    );
  });

  it("runs the simulator bin from the consumer", async () => {
    const r = await execa("npx", ["--no-install", "gentle-ai-sim", "version"], {
      cwd: consumer,
      env,
      extendEnv: false,
      reject: false,
      stripFinalNewline: false,
    });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe("");
    expect(r.stdout).toMatch(/^gentle-ai \d+\.\d+\.\d+\n$/);
  });

  it("types the API for a strict NodeNext consumer (declarations checked too)", async () => {
    const use = [
      `import { runConformance, listClauses, verifyBinary, ReportSchema, type Report, type VerifyReport } from "gentle-relay-conformance";`,
      `export async function gate(): Promise<[number, VerifyReport, string[]]> {`,
      `  const report: Report = ReportSchema.parse(await runConformance({ profiles: ["2.4.0"], grep: "^HANDSHAKE-" }));`,
      `  // @ts-expect-error: not an option`,
      `  await runConformance({ relays: ["x"] });`,
      `  return [report.summary.failed, await verifyBinary({ binary: "gentle-ai" }), listClauses().map((c) => c.id)];`,
      `}`,
    ].join("\n");
    writeFileSync(join(consumer, "use.ts"), `${use}\n`);
    const tsconfig = {
      compilerOptions: {
        module: "NodeNext",
        moduleResolution: "NodeNext",
        target: "ES2022",
        // Node's types and no DOM: the declarations must need nothing a Node consumer lacks, and the check skips
        // the DOM library's ~3 s of CPU.
        lib: ["ES2022"],
        strict: true,
        noEmit: true,
        skipLibCheck: false,
        typeRoots: [join(root, "node_modules/@types")],
        types: ["node"],
      },
      files: ["use.ts"],
    };
    writeFileSync(join(consumer, "tsconfig.json"), JSON.stringify(tsconfig));
    const r = await execa(process.execPath, [join(root, "node_modules/typescript/bin/tsc"), "-p", consumer], {
      cwd: consumer,
      env,
      extendEnv: false,
      reject: false,
    });
    expect(r.stdout).toBe("");
    expect(r.exitCode).toBe(0);
  });

  it("imports the API by package name, silently", async () => {
    const script = `import { listClauses } from "gentle-relay-conformance"; process.stdout.write(JSON.stringify(listClauses({ grep: "^HANDSHAKE-PATTERN-EXACT$" }).map((c) => c.id)));`;
    const r = await execa(process.execPath, ["--input-type=module", "-e", script], {
      cwd: consumer,
      env,
      extendEnv: false,
      reject: false,
    });
    expect(r.stderr).toBe("");
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(["HANDSHAKE-PATTERN-EXACT"]);
  });
});
