// Long commands print one line per item as it finishes (run: clause, replay: golden, verify: probe/golden), and
// --quiet means the same everywhere: no line for an item that passed; failures and the final summary still print.
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cliChunks, type CliChunkedRun, type CliOptions } from "../../support/cli.ts";
import { packageRoot } from "../../../conformance/paths.ts";
import { CLEAR_LINE, PROGRESS_LINE } from "../../../conformance/cli/progress.ts";
import { ReportSchema } from "../../../conformance/report/report-schema.ts";
import { PROBE_IDS } from "../../support/verify-probes.ts";

const root = packageRoot();
const sim = join(root, "simulator/bin/gentle-ai");
const dir = mkdtempSync(join(tmpdir(), "rc-progress-test-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
// Written once, before any test: the replay tests read it concurrently.
const copy = join(dir, "lens-capture-2.4.0.golden.json");
copyFileSync(join(root, "golden/lens-capture-2.4.0.golden.json"), copy);

/**
 * The CLI in-process in this file's temp folder; every io.stdout call is one chunk, so streaming shows as many chunks.
 */
const cli = (args: string[], options: CliOptions = {}): Promise<CliChunkedRun> =>
  cliChunks(args, { cwd: dir, ...options });

// Every describe runs concurrently with the others: each command mostly waits on its child processes. The verify
// tests are sequential among themselves (they set GENTLE_AI_SIM_SCENARIO in this process); run, matrix and replay
// never pass the caller's simulator variables to their children, so that cannot reach them.
describe.concurrent("verify: one line per probe as it finishes", () => {
  it.sequential(
    "streams the header, each probe, then the result; the whole output is the report",
    async () => {
      const scenario = join(dir, "scenario-2.4.0.json");
      writeFileSync(scenario, JSON.stringify({ name: "progress", profile: "2.4.0" }));
      const r = await cli(["verify", "--binary", sim, "--no-goldens"], { env: { GENTLE_AI_SIM_SCENARIO: scenario } });
      expect(r.code).toBe(0);
      expect(r.stderr).toBe("");
      expect(r.chunks[0]).toBe(
        `verify ${sim}\n  version: "gentle-ai 2.4.0\\n"; expected contract: profile 2.4.0 (from version)\n`,
      );
      const probeChunks = r.chunks.slice(1, 1 + PROBE_IDS.length);
      expect(probeChunks.map((c) => /^ {2}pass {3}(\S+) /.exec(c)?.[1])).toEqual(PROBE_IDS);
      expect(r.chunks.slice(1 + PROBE_IDS.length)).toEqual(["result: no drift\n"]);
    },
    120_000,
  );

  it.sequential(
    "--quiet: the header, only drifted or inconclusive checks, the result",
    async () => {
      const scenario = join(dir, "scenario-2.3.0.json");
      writeFileSync(scenario, JSON.stringify({ name: "progress", profile: "2.3.0" }));
      const clean = await cli(["verify", "--binary", sim, "--no-goldens", "--quiet"], {
        env: { GENTLE_AI_SIM_SCENARIO: scenario },
      });
      expect(clean.code).toBe(0);
      expect(clean.chunks.join("")).toBe(
        `verify ${sim}\n  version: "gentle-ai 2.3.0\\n"; expected contract: profile 2.3.0 (from version)\nresult: no drift\n`,
      );
      const drift = await cli(["verify", "--binary", sim, "--no-goldens", "--quiet", "--profile", "2.4.0"], {
        env: { GENTLE_AI_SIM_SCENARIO: scenario },
      });
      expect(drift.code).toBe(1);
      const out = drift.chunks.join("");
      expect(out).toContain("  DRIFT  relay-flags  ");
      expect(out).not.toMatch(/^ {2}pass /m);
      expect(out.endsWith("result: DRIFT (8 checks)\n")).toBe(true);
    },
    120_000,
  );
});

// "replay (every golden)" lives in test/conformance/goldens/replay.test.ts, which shares that one replay of every
// golden with its per-golden verdicts instead of replaying them all twice.
describe.concurrent("replay: one line per golden as it finishes", () => {
  it("--quiet prints nothing for a golden that replays clean", async () => {
    const r = await cli(["replay", "--quiet", copy]);
    expect(r).toEqual({ code: 0, chunks: [], stderr: "" });
  }, 240_000);
});

describe.concurrent("run: --quiet drops the header and passing lines, keeps failures and the table", () => {
  it("no header or clause lines, the table and summary only", async () => {
    const r = await cli([
      "run",
      "--quiet",
      "--relay",
      join(root, "relay/index.ts"),
      "--grep",
      "^(FORM-MISSING|API-CONSTANTS)$",
      "--profile",
      "2.4.0",
      "--seed",
      "1",
    ]);
    expect(r.code).toBe(0);
    const out = r.chunks.join("");
    expect(out.startsWith("\nCLAUSE")).toBe(true);
    expect(out).not.toMatch(/^relay-conformance: /m);
    expect(out).toMatch(/^2 passed, 0 failed, 0 skipped, 0 errored/m);
  }, 120_000);

  it("keeps each failing clause's line with its reason, before the table", async () => {
    const relay = join(root, "test/conformance/clauses/broken-relays/drops-handshake.ts");
    const r = await cli([
      "run",
      "--quiet",
      "--relay",
      relay,
      "--grep",
      "^(HANDSHAKE-GENTLE-AI-ONLY|FORM-MISSING)$",
      "--profile",
      "2.4.0",
      "--seed",
      "1",
    ]);
    expect(r.code).toBe(1);
    const out = r.chunks.join("");
    expect(out).toMatch(/^FAIL {2}HANDSHAKE-GENTLE-AI-ONLY {2}2\.4\.0: \[[^\]]+\] \S/);
    expect(out).not.toMatch(/^PASS /m);
    expect(out.indexOf("FAIL  HANDSHAKE-GENTLE-AI-ONLY")).toBeLessThan(out.indexOf("\nCLAUSE"));
    expect(out).toMatch(/^1 passed, 1 failed, 0 skipped, 0 errored/m);
  }, 120_000);
});

describe.concurrent("run --json -: the report alone on stdout, every other line and the progress on stderr", () => {
  const args = [
    "run",
    "--json",
    "-",
    "--relay",
    join(root, "relay/index.ts"),
    "--grep",
    "^FORM-MISSING$",
    "--profile",
    "2.4.0",
    "--seed",
    "1",
  ];
  /** The stdout of a run: exactly one pretty-printed report. */
  const onlyReport = (chunks: string[]): void => {
    const out = chunks.join("");
    const parsed: unknown = JSON.parse(out);
    expect(out).toBe(`${JSON.stringify(parsed, null, 2)}\n`);
    const report = ReportSchema.parse(parsed);
    expect(report.clauses.map((c) => [c.id, c.status])).toEqual([["FORM-MISSING", "pass"]]);
  };

  it("off a terminal: header, clause line, table and progress lines (the last at 100%) on stderr", async () => {
    const r = await cli(args, { progress: "lines" });
    expect(r.code).toBe(0);
    onlyReport(r.chunks);
    const lines = r.stderr.split("\n");
    expect(lines[0]).toBe(`relay-conformance: ${join(root, "relay/index.ts")}`);
    expect(r.stderr).toMatch(/^PASS {2}FORM-MISSING/m);
    expect(r.stderr).toMatch(/^1 passed, 0 failed, 0 skipped, 0 errored/m);
    const progress = lines.filter((l) => PROGRESS_LINE.test(l));
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.at(-1)).toMatch(/^relay-conformance run: (\d+)\/\1 cases \(100%\), 0 failed, /);
    expect(r.stderr).not.toContain("\r");
  }, 120_000);

  it("on a terminal: the live line is rewritten in place and erased before the table", async () => {
    const r = await cli(args, { progress: "tty" });
    expect(r.code).toBe(0);
    onlyReport(r.chunks);
    expect(r.stderr).toContain(`${CLEAR_LINE}relay-conformance run: `);
    expect(r.stderr.split("\n").filter((l) => PROGRESS_LINE.test(l))).toEqual([]);
    const table = r.stderr.indexOf("\nCLAUSE");
    expect(table).toBeGreaterThan(0);
    expect(r.stderr.lastIndexOf(CLEAR_LINE)).toBeLessThan(table);
    expect(r.stderr.slice(r.stderr.lastIndexOf(CLEAR_LINE) + CLEAR_LINE.length).startsWith("\nCLAUSE")).toBe(true);
  }, 120_000);

  it("--quiet: no progress line and no header, still only the report on stdout", async () => {
    const r = await cli([...args, "--quiet"], { progress: "lines" });
    expect(r.code).toBe(0);
    onlyReport(r.chunks);
    expect(r.stderr.startsWith("\nCLAUSE")).toBe(true);
    expect(r.stderr).not.toMatch(/^relay-conformance/m);
    expect(r.stderr).toMatch(/^1 passed, 0 failed, 0 skipped, 0 errored/m);
  }, 120_000);

  it("only one report can go to stdout", async () => {
    const r = await cli(["run", "--json", "-", "--junit", "-", "--grep", "^FORM-MISSING$"], { progress: "lines" });
    expect(r).toEqual({
      code: 2,
      chunks: [],
      stderr:
        "relay-conformance: only one report can go to stdout: --json and --junit are both -\nRun `relay-conformance run --help` for usage.\n",
    });
  });
});

describe.concurrent("matrix and replay: progress on stderr, --quiet silences it", () => {
  it("matrix: a progress line per relay reaching 100%; none with --quiet; the table alone on stdout", async () => {
    const args = [
      "matrix",
      "--relay",
      join(root, "relay/index.ts"),
      "--grep",
      "^FORM-MISSING$",
      "--profile",
      "2.4.0",
      "--seed",
      "1",
    ];
    const r = await cli(args, { progress: "lines" });
    expect(r.code).toBe(0);
    const relay = join(root, "relay/index.ts");
    expect(r.chunks.join("")).toBe(`\n${"relay".padEnd(relay.length)}  2.4.0\n${relay}  pass\n`);
    // A line at 100%; before it, only more progress lines (the 10 s rule, on a slow machine).
    expect(r.stderr).toMatch(
      /(^|\n)relay-conformance matrix \(relay 1\/1\): (\d+)\/\2 cases \(100%\), 0 failed, \d+:\d\d elapsed, ETA 0:00\n$/,
    );
    expect(r.stderr.split("\n").filter((l) => l !== "" && !PROGRESS_LINE.test(l))).toEqual([]);
    const quiet = await cli([...args, "--quiet"], { progress: "lines" });
    expect(quiet.code).toBe(0);
    expect(quiet.stderr).toBe("");
  }, 120_000);

  it("replay <file>: the file's line on stdout, its progress on stderr; --quiet: neither", async () => {
    // Both replays only read the copy, so they run side by side.
    const [r, quiet] = await Promise.all([
      cli(["replay", copy], { progress: "lines" }),
      cli(["replay", "--quiet", copy], { progress: "lines" }),
    ]);
    expect(r.code).toBe(0);
    expect(r.chunks).toEqual(["PASS golden lens-capture-2.4.0\n"]);
    expect(r.stderr).toMatch(
      /(^|\n)relay-conformance replay: 1\/1 files \(100%\), 0 failed, \d+:\d\d elapsed, ETA 0:00\n$/,
    );
    expect(r.stderr.split("\n").filter((l) => l !== "" && !PROGRESS_LINE.test(l))).toEqual([]);
    expect(quiet).toEqual({ code: 0, chunks: [], stderr: "" });
  }, 240_000);
});
