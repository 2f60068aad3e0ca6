import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CATALOGUE, cataloguePath } from "../../../conformance/goldens/catalogue.ts";
import { readGolden, shippedGoldens } from "../../../conformance/goldens/golden-file.ts";
import { blobOf } from "../../../conformance/goldens/normalise.ts";
import { blobBytes } from "../../../simulator/output/transcript.ts";
import { paths } from "../../../conformance/goldens/paths.ts";
import { replayGolden } from "../../../conformance/goldens/replay-golden.ts";
import { main } from "../../../conformance/cli/main.ts";

const SLOW = 240_000;
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "golden-replay-test-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A copy of the shipped lens-capture golden with one byte of the pi prompt (call 2's stdin) flipped. */
function flippedGolden(offset: number): { path: string; original: Buffer } {
  const source = cataloguePath(CATALOGUE.find((s) => s.name === "lens-capture-2.4.0")!);
  const path = join(dir, `flipped-${offset}.golden.json`);
  const golden = JSON.parse(readFileSync(source, "utf8")) as { calls: { program: string; stdin: { base64: string } }[] };
  const pi = golden.calls[2]!;
  expect(pi.program).toBe("pi");
  const bytes = blobBytes(pi.stdin);
  const original = Buffer.from(bytes);
  bytes[offset] = bytes[offset]! ^ 0x01;
  pi.stdin = blobOf(bytes);
  writeFileSync(path, `${JSON.stringify(golden, null, 2)}\n`);
  return { path, original };
}

describe("shipped goldens", () => {
  it("ship every catalogue golden", () => {
    expect(shippedGoldens()).toEqual(CATALOGUE.map((s) => cataloguePath(s)).sort());
    for (const spec of CATALOGUE) expect(readGolden(cataloguePath(spec)).name).toBe(spec.name);
  });

  // Concurrent: each replay is its own temp dir and child processes, mostly waiting on them.
  it.concurrent.each(CATALOGUE.map((s) => s.name))(
    "%s replays byte-identical against our relay",
    async (name) => {
      const report = await replayGolden(cataloguePath(CATALOGUE.find((s) => s.name === name)!), { relayModule: paths.ourRelay(), update: false });
      expect(report.diff).toBe("");
      expect(report.divergence).toBeUndefined();
      expect(report.rewritten).toBe(false);
    },
    SLOW,
  );
});

describe("a golden with one flipped byte", () => {
  it(
    "fails with a diff pointing at the call, the field and the byte",
    async () => {
      const { path, original } = flippedGolden(100);
      const report = await replayGolden(path, { relayModule: paths.ourRelay(), update: false });
      expect(report.divergence?.where).toBe("call 2 (pi --print --mode)");
      expect(report.divergence?.field).toBe("stdin");
      expect(report.divergence?.actual).toEqual(original);
      const lines = report.diff.split("\n");
      expect(lines[0]).toBe("golden lens-capture-2.4.0: divergence at call 2 (pi --print --mode), field stdin");
      expect(lines[1]).toBe(`  first differing byte at offset 100 (expected ${original.length} bytes, actual ${original.length} bytes)`);
      expect(lines[4]).toMatch(/^ {2}expected hex @76: /);
    },
    SLOW,
  );

  it(
    "makes the CLI exit 1 and print the diff; CI forbids --update from rewriting it",
    async () => {
      const { path } = flippedGolden(7);
      const before = readFileSync(path);
      const out: string[] = [];
      const err: string[] = [];
      const io = { stdout: (t: string) => out.push(t), stderr: (t: string) => err.push(t), cwd: dir };
      const previous = process.env.CI;
      process.env.CI = "1";
      try {
        expect(await main(["replay", path, "--update"], io)).toBe(1);
      } finally {
        if (previous === undefined) delete process.env.CI;
        else process.env.CI = previous;
      }
      expect(out.join("")).toMatch(
        /^FAIL golden lens-capture-2\.4\.0\ngolden lens-capture-2\.4\.0: divergence at call 2 \(pi --print --mode\), field stdin\n {2}first differing byte at offset 7 /,
      );
      expect(err.join("")).toBe("relay-conformance replay: CI is set, so --update rewrites nothing; a divergence fails\n");
      expect(readFileSync(path)).toEqual(before);
    },
    SLOW,
  );

  it(
    "--update outside CI re-records it from the live simulator, byte-identical to the shipped golden",
    async () => {
      const { path } = flippedGolden(9);
      const env = { ...process.env };
      delete env.CI;
      const report = await replayGolden(path, { relayModule: paths.ourRelay(), update: true, env });
      expect(report.divergence?.field).toBe("stdin");
      expect(report.rewritten).toBe(true);
      const shipped = cataloguePath(CATALOGUE.find((s) => s.name === "lens-capture-2.4.0")!);
      expect(readFileSync(path, "utf8")).toBe(readFileSync(shipped, "utf8"));
    },
    SLOW,
  );

  it(
    "catches a relay that changes one token, through the CLI's --relay",
    async () => {
      const broken = join(dir, "broken-relay.ts");
      writeFileSync(
        broken,
        `import { runReviewHostRelaySlot as ours } from ${JSON.stringify(paths.ourRelay())};
export async function runReviewHostRelaySlot(request: { captureArgumentTokens: readonly string[] }) {
  const tokens = request.captureArgumentTokens.map((t) => (t === "--materialize=true" ? "--materialize=1" : t));
  return ours({ ...request, captureArgumentTokens: tokens } as Parameters<typeof ours>[0]);
}
`,
      );
      const shipped = cataloguePath(CATALOGUE.find((s) => s.name === "lens-capture-2.4.0")!);
      const out: string[] = [];
      const io = { stdout: (t: string) => out.push(t), stderr: () => undefined, cwd: dir };
      expect(await main(["replay", shipped, "--relay", broken], io)).toBe(1);
      const text = out.join("");
      expect(text.split("\n").slice(0, 5)).toEqual([
        "FAIL golden lens-capture-2.4.0",
        "golden lens-capture-2.4.0: divergence at call 1 (gentle-ai review capture-result), field argv[10]",
        "  first differing byte at offset 14 (expected 18 bytes, actual 15 bytes)",
        '  expected: "--materialize=true"',
        '  actual:   "--materialize=1"',
      ]);
    },
    SLOW,
  );

  it(
    "an untouched copy replays green from another directory",
    async () => {
      const copy = join(dir, "copy.golden.json");
      copyFileSync(cataloguePath(CATALOGUE[0]!), copy);
      expect((await replayGolden(copy, { relayModule: paths.ourRelay(), update: false })).divergence).toBeUndefined();
    },
    SLOW,
  );
});
