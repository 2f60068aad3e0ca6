// `run --shard i/n` + `merge-reports`: the shards of a run merge into the unsharded run's verdict and clause table.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CATALOGUE, selectClauses } from "../../../conformance/clauses/index.ts";
import { cli as runCli, type CliRun } from "../../support/cli.ts";
import { packageRoot } from "../../../conformance/paths.ts";
import { ReportSchema, type Report } from "../../../conformance/report/report-schema.ts";
import { parseShard, shardClauses } from "../../../conformance/runner/shard.ts";

const root = packageRoot();
const dir = mkdtempSync(join(tmpdir(), "rc-shard-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const cli = (args: string[]): Promise<CliRun> => runCli(args, { cwd: dir });
const read = (name: string): Report => ReportSchema.parse(JSON.parse(readFileSync(join(dir, name), "utf8")));

describe("shardClauses", () => {
  it("puts every selected clause in exactly one shard, the same way every time", () => {
    for (const n of [1, 2, 3, 5, 100]) {
      const shards = Array.from({ length: n }, (_, i) =>
        shardClauses(CATALOGUE, ["2.3.0", "2.4.0", "2.5.0"], 4, { index: i + 1, count: n }),
      );
      expect(
        shards
          .flat()
          .map((c) => c.id)
          .sort(),
      ).toEqual(CATALOGUE.map((c) => c.id).sort());
      expect(shardClauses(CATALOGUE, ["2.3.0", "2.4.0", "2.5.0"], 4, { index: 1, count: n })).toEqual(shards[0]);
    }
    // Balanced by relay calls: the three property clauses (4 runs each) do not land in one shard of three.
    const props = (i: number) => shardClauses(selectClauses("^PROP-"), ["2.4.0"], 4, { index: i, count: 3 }).length;
    expect([props(1), props(2), props(3)]).toEqual([1, 1, 1]);
  });

  it.each([["0/3"], ["4/3"], ["1/0"], ["a/b"], ["1"], ["1/3/4"]])("parseShard(%j) refuses", (value) =>
    expect(parseShard(value)).toBeUndefined(),
  );
});

describe("merge-reports", () => {
  // A broken relay, so the merged table carries failures and their messages, not only passes.
  const common = [
    "run",
    "--relay",
    join(root, "test/conformance/clauses/broken-relays/drops-handshake.ts"),
    "--grep",
    "^(FORM-|PROP-|HANDSHAKE-)",
    "--profile",
    "2.4.0",
    "--runs",
    "2",
    "--seed",
    "42",
    "--quiet",
  ];

  it("shards 1/3, 2/3 and 3/3 merged equal the unsharded run", async () => {
    const whole = await cli([...common, "--json", "whole.json"]);
    const shards = await Promise.all(
      [1, 2, 3].map((i) => cli([...common, "--shard", `${i}/3`, "--json", `s${i}.json`])),
    );
    expect(whole.code).toBe(1);
    const merged = await cli(["merge-reports", "s1.json", "s2.json", "s3.json", "--json", "merged.json"]);
    expect(merged.stderr).toBe("");
    expect(merged.code).toBe(whole.code);
    // Each run names its counterexample files with its own tag (parallel runs share none): the one field that differs.
    const untagged = (r: ReturnType<typeof read>): ReturnType<typeof read> =>
      JSON.parse(JSON.stringify(r).replace(/(@[0-9.]+)\.[A-Za-z0-9]{6}\.json/g, "$1.<RUN>.json")) as ReturnType<
        typeof read
      >;
    const [a, b] = [untagged(read("whole.json")), untagged(read("merged.json"))];
    expect(b.summary).toEqual(a.summary);
    expect(b.clauses).toEqual(a.clauses);
    expect({ ...b, startedAt: "", durationMs: 0, cases: 0 }).toEqual({ ...a, startedAt: "", durationMs: 0, cases: 0 });
    for (const i of [1, 2, 3])
      expect(read(`s${i}.json`).shard).toEqual({ index: i, count: 3, selected: a.clauses.length });
    expect(shards.map((s) => s.code).sort()).toContain(1);
    // The failing clause's reason reaches the CI log, not only its name.
    expect(merged.stdout).toMatch(/^FAIL {2}HANDSHAKE-GENTLE-AI-ONLY {2}\S/m);
  }, 180_000);

  it("refuses reports of different seeds, relays or catalogues, and incomplete sets, with exit 2", async () => {
    const s1 = read("s1.json");
    const variant = (name: string, change: Partial<Report>): string => {
      writeFileSync(join(dir, name), JSON.stringify({ ...read("s2.json"), ...change }));
      return name;
    };
    const cases: [string[], RegExp][] = [
      [
        ["s1.json", variant("seed.json", { seed: s1.seed + 1 }), "s3.json"],
        /seed\.json has seed 43, s1\.json has seed 42: not shards of one run/,
      ],
      [
        ["s1.json", variant("relay.json", { relay: "/other/relay.ts" }), "s3.json"],
        /relay\.json has relay "\/other\/relay\.ts"/,
      ],
      [
        ["s1.json", variant("cat.json", { catalogue: "sha256:0000000000000000" }), "s3.json"],
        /cat\.json has catalogue/,
      ],
      [["s1.json", "s3.json"], /shard 2\/3 missing/],
      [["s1.json", "s1.json", "s3.json"], /s1\.json and s1\.json are both shard 1\/3/],
      [["nope.json"], /nope\.json: no such file/],
    ];
    for (const [files, message] of cases) {
      const r = await cli(["merge-reports", ...files]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stdout).toBe("");
    }
  });
});
