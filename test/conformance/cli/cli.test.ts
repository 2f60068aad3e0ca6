import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import { cli } from "../../support/cli.ts";
import { ReportSchema } from "../../../conformance/report/report-schema.ts";
import { packageRoot } from "../../../conformance/paths.ts";

const root = packageRoot();
const launcher = join(root, "conformance/bin/relay-conformance");

/** The launcher as a CI job runs it: its exit code and its whole stdout and stderr, final newline kept. */
async function launch(args: string[]): Promise<{ status: number | undefined; stdout: string; stderr: string }> {
  const r = await execa(launcher, args, { cwd: root, reject: false, stripFinalNewline: false });
  return { status: r.exitCode, stdout: r.stdout, stderr: r.stderr };
}

// In process, each call with its own output buffers (main keeps no state): side by side with the launcher tests.
describe.concurrent("relay-conformance CLI: bad input exits 2 with one clear error", () => {
  it.each([
    [
      ["run", "--profile", "2.6.0"],
      'relay-conformance: unknown profile "2.6.0" (expected 2.3.0, 2.4.0, 2.5.0 or all)\n',
    ],
    [["run", "--relay", "no/such/relay.ts"], "relay-conformance: relay module not found: no/such/relay.ts\n"],
    [["run", "--seed", "abc"], 'relay-conformance: --seed must be an integer ≥ 0, got "abc"\n'],
    [["run", "--runs=-1"], 'relay-conformance: --runs must be an integer ≥ 0, got "-1"\n'],
    [["run", "--timeout-ms", "0"], 'relay-conformance: --timeout-ms must be an integer ≥ 1, got "0"\n'],
    [["run", "--frobnicate"], "relay-conformance: Unknown option '--frobnicate'\n"],
    [
      ["run", "--grep", "("],
      "relay-conformance: --grep is not a valid regular expression: Invalid regular expression: /(/i: Unterminated group\n",
    ],
    [["run", "--grep", "NO-SUCH-CLAUSE-ID"], 'relay-conformance: --grep "NO-SUCH-CLAUSE-ID" matches no clause\n'],
    [["frob"], 'relay-conformance: unknown command "frob"\n'],
    [["matrix"], "relay-conformance: matrix needs at least one --relay\n"],
    // matrix shares run's selection options and their checks.
    [
      ["matrix", "--relay", "relay/index.ts", "--grep", "NO-SUCH-CLAUSE-ID"],
      'relay-conformance: --grep "NO-SUCH-CLAUSE-ID" matches no clause\n',
    ],
    [
      ["matrix", "--relay", "relay/index.ts", "--concurrency", "0"],
      'relay-conformance: --concurrency must be an integer ≥ 1, got "0"\n',
    ],
  ])("%j", async (args, firstLine) => {
    const r = await cli(args);
    expect(r.code).toBe(2);
    expect(r.stderr.startsWith(firstLine)).toBe(true);
    expect(r.stderr.endsWith("--help` for usage.\n")).toBe(true);
  });

  it("a module without runReviewHostRelaySlot exits 2", async () => {
    const r = await cli(["run", "--quiet", "--relay", "test/conformance/clauses/broken-relays/no-export.ts"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `relay-conformance: relay module ${join(root, "test/conformance/clauses/broken-relays/no-export.ts")} does not export a function named runReviewHostRelaySlot\nRun \`relay-conformance run --help\` for usage.\n`,
    );
  });

  it("--help prints usage and exits 0; no command prints usage and exits 2", async () => {
    const help = await cli(["run", "--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout.startsWith("Usage: relay-conformance run [options]\n")).toBe(true);
    const none = await cli([]);
    expect(none.code).toBe(2);
    expect(none.stdout.startsWith("Usage: relay-conformance <command> [options]\n")).toBe(true);
    for (const name of ["run", "matrix", "replay", "list"]) expect(none.stdout).toContain(`  ${name} `);
  });
});

// Each launcher test is its own process tree in its own scratch space, mostly waiting on its children: side by side.
describe.concurrent("relay-conformance launcher", () => {
  it("runs the bundle: a selection passes with exit 0 and writes all three reports", async () => {
    const dir = mkdtempSync(join(tmpdir(), "rc-cli-test-"));
    try {
      const r = await launch([
        "run",
        "--grep",
        "^(FORM-MISSING|PI-ARGV-FIXED|API-CONSTANTS)$",
        "--profile",
        "2.4.0",
        "--seed",
        "3",
        "--json",
        join(dir, "r.json"),
        "--junit",
        join(dir, "r.xml"),
        "--markdown",
        join(dir, "r.md"),
      ]);
      expect(r.status).toBe(0);
      const report = ReportSchema.parse(JSON.parse(readFileSync(join(dir, "r.json"), "utf8")));
      expect(report.summary).toEqual({ passed: 3, failed: 0, skipped: 0, errored: 0 });
      expect(report.clauses.map((c) => [c.id, c.status])).toEqual([
        ["FORM-MISSING", "pass"],
        ["PI-ARGV-FIXED", "pass"],
        ["API-CONSTANTS", "pass"],
      ]);
      expect(readFileSync(join(dir, "r.xml"), "utf8")).toContain(
        '<testsuite name="gentle-ai 2.4.0" tests="3" failures="0" skipped="0" errors="0">',
      );
      expect(readFileSync(join(dir, "r.md"), "utf8").startsWith("# Relay conformance: PASS\n")).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a failing relay exits 1 and names the failed clause", async () => {
    // A defect whose clause fails on bytes, not on a bound: this checks the exit code and the line, and
    // broken-relays.test.ts checks every broken relay against its clause (the retrying one waits out ~12 s of bounds).
    const r = await launch([
      "run",
      "--quiet",
      "--relay",
      "test/conformance/clauses/broken-relays/adds-bom.ts",
      "--grep",
      "^RESULT-FILE-EXACT$",
      "--profile",
      "2.4.0",
      "--seed",
      "1",
    ]);
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/^RESULT-FILE-EXACT {2}fail {4}fail$/m);
  });

  it("matrix prints relays × profiles and exits 1 when a cell fails", async () => {
    const r = await launch([
      "matrix",
      "--relay",
      "relay/index.ts",
      "--relay",
      "test/conformance/clauses/broken-relays/handshake-to-pi.ts",
      "--grep",
      "^PI-ENV-UNTOUCHED$",
      "--profile",
      "2.4.0,2.5.0",
      "--seed",
      "1",
    ]);
    expect(r.status).toBe(1);
    const ours = join(root, "relay/index.ts");
    const broken = join(root, "test/conformance/clauses/broken-relays/handshake-to-pi.ts");
    const w = broken.length;
    expect(r.stdout).toBe(
      `\n${"relay".padEnd(w)}  ${"2.4.0".padEnd(23)}  2.5.0\n${ours.padEnd(w)}  ${"pass".padEnd(23)}  pass\n${broken}  FAIL (PI-ENV-UNTOUCHED)  FAIL (PI-ENV-UNTOUCHED)\n`,
    );
  });

  it("list prints every clause ID once", async () => {
    const { status, stdout: out } = await launch(["list"]);
    expect(status).toBe(0);
    const ids = [...out.matchAll(/^([A-Z0-9-]+) {2}\[/gm)].map((m) => m[1]);
    expect(ids.length).toBeGreaterThan(60);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
