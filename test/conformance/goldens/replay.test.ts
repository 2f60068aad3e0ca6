import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readGolden, shippedGoldens } from "../../../conformance/goldens/golden-file.ts";
import { blobOf } from "../../../conformance/goldens/normalise.ts";
import { blobBytes } from "../../../simulator/output/transcript.ts";
import { paths } from "../../../conformance/goldens/paths.ts";
import { replayGolden, type ReplayOptions, type ReplayReport } from "../../../conformance/replay/golden-replay.ts";
import { main } from "../../../conformance/main.ts";
import { shippedScripts } from "../../../conformance/record/command.ts";
import { packageRoot } from "../../../conformance/paths.ts";

// Every replayGolden call in this worker (the CLI's included), with what it was asked and what it returned.
const replays = vi.hoisted(() => [] as { path: string; options: ReplayOptions; report: ReplayReport }[]);
vi.mock("../../../conformance/replay/golden-replay.ts", async (importOriginal) => {
  const original = await importOriginal<typeof import("../../../conformance/replay/golden-replay.ts")>();
  return {
    ...original,
    replayGolden: async (path: string, options: ReplayOptions): Promise<ReplayReport> => {
      const report = await original.replayGolden(path, options);
      replays.push({ path, options, report });
      return report;
    },
  };
});

const SLOW = 240_000;
/** The shipped goldens by name (golden/<name>.golden.json), in file order. */
const NAMES = shippedGoldens().map((p) => readGolden(p).name);
const shippedPath = (name: string): string => join(paths.goldenDir(), `${name}.golden.json`);
let dir: string;
/** One `relay-conformance replay` of every golden: its stdout writes, stderr and exit code. */
let replayAll: Promise<{ code: number; chunks: string[]; stderr: string }>;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "golden-replay-test-"));
  // Started here and awaited by the tests that read it; the flipped-byte tests run meanwhile.
  replayAll = (async () => {
    const chunks: string[] = [];
    let stderr = "";
    const code = await main(["replay"], { stdout: (t) => chunks.push(t), stderr: (t) => (stderr += t), cwd: dir });
    return { code, chunks, stderr };
  })();
  replayAll.catch(() => undefined);
});
afterAll(async () => {
  await replayAll.catch(() => undefined);
  rmSync(dir, { recursive: true, force: true });
});

/** A copy of the shipped lens-capture golden with one byte of the pi prompt (call 2's stdin) flipped. */
function flippedGolden(offset: number): { path: string; original: Buffer } {
  const source = shippedPath("lens-capture-2.4.0");
  const path = join(dir, `flipped-${offset}.golden.json`);
  const golden = JSON.parse(readFileSync(source, "utf8")) as {
    calls: { program: string; stdin: { base64: string } }[];
  };
  const pi = golden.calls[2]!;
  expect(pi.program).toBe("pi");
  const bytes = blobBytes(pi.stdin);
  const original = Buffer.from(bytes);
  bytes[offset] = bytes[offset]! ^ 0x01;
  pi.stdin = blobOf(bytes);
  writeFileSync(path, `${JSON.stringify(golden, null, 2)}\n`);
  return { path, original };
}

// First and concurrent: each test works on its own copy, mostly waiting on its child processes, while the replay of
// every golden started in beforeAll goes on (tests that only await it would hold the concurrency slots meanwhile).
describe.concurrent("a golden with one flipped byte", () => {
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
      expect(lines[1]).toBe(
        `  first differing byte at offset 100 (expected ${original.length} bytes, actual ${original.length} bytes)`,
      );
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
      expect(err.join("")).toBe(
        "relay-conformance replay: CI is set, so --update rewrites nothing; a divergence fails\n",
      );
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
      const shipped = shippedPath("lens-capture-2.4.0");
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
      const shipped = shippedPath("lens-capture-2.4.0");
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
      copyFileSync(shippedPath(NAMES[0]!), copy);
      expect((await replayGolden(copy, { relayModule: paths.ourRelay(), update: false })).divergence).toBeUndefined();
    },
    SLOW,
  );
});

// The CLI's replay of every golden (started in beforeAll, running beside the tests above) serves both the per-golden
// verdicts and the streaming claim, so each golden is replayed once in this file, not once per claim.
describe("shipped goldens", () => {
  it("ship at least one golden for every conversation script, and every golden names a shipped script", () => {
    const scripts = shippedScripts().map((f) => `conversations/${f}`);
    const named = NAMES.map((name) => readGolden(shippedPath(name)).script);
    expect([...new Set(named)].sort()).toEqual(scripts);
  });

  it.each(NAMES)(
    "%s replays byte-identical against our relay",
    async (name) => {
      await replayAll;
      const path = shippedPath(name);
      const mine = replays.filter((r) => r.path === path && r.options.relayModule === paths.ourRelay());
      expect(mine.map((r) => r.options.update)).toEqual([false]);
      const { report } = mine[0]!;
      expect(report.diff).toBe("");
      expect(report.divergence).toBeUndefined();
      expect(report.rewritten).toBe(false);
    },
    SLOW,
  );
});

// Moved from test/conformance/cli/cli-progress.test.ts (long commands print one line per item as it finishes).
describe("replay: one line per golden as it finishes", () => {
  it("replay (every golden): a header, a PASS line per golden in its own write, a summary", async () => {
    const r = await replayAll;
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.chunks[0]).toBe(`replaying ${NAMES.length} goldens against ${join(packageRoot(), "relay/index.ts")}\n`);
    expect(r.chunks.slice(1, -1)).toEqual(NAMES.map((name) => `PASS golden ${name}\n`));
    expect(r.chunks.at(-1)).toBe(`PASS: ${NAMES.length} of ${NAMES.length} goldens replay clean\n`);
  }, 600_000);
});
