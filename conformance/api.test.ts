// The programmatic API: the CLI's report as a value, bad input as an exception, and silence unless asked.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  ConformanceInputError,
  listClauses,
  passed,
  runConformance,
  ReportSchema,
  verifyBinary,
  VerifyReportSchema,
} from "./api.ts";
import { CATALOGUE } from "./clauses/index.ts";
import { main } from "./main.ts";
import { packageRoot } from "./paths.ts";

const root = packageRoot();
const scratch = mkdtempSync(join(tmpdir(), "rc-api-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const GREP = "^HANDSHAKE-PATTERN-EXACT$|^HANDSHAKE-GENTLE-AI-ONLY$";

describe("the programmatic API", () => {
  let writes: string[];
  beforeEach(() => {
    writes = [];
    const capture = (chunk: unknown): boolean => (writes.push(String(chunk)), true);
    vi.spyOn(process.stdout, "write").mockImplementation(capture);
    vi.spyOn(process.stderr, "write").mockImplementation(capture);
  });
  afterEach(() => vi.restoreAllMocks());

  it("listClauses is the catalogue `list` prints, optionally filtered", () => {
    expect(listClauses().map((c) => c.id)).toEqual(CATALOGUE.map((c) => c.id));
    expect(listClauses({ grep: "^handshake-pattern-exact$" }).map((c) => c.id)).toEqual(["HANDSHAKE-PATTERN-EXACT"]);
    expect(() => listClauses({ grep: "(" })).toThrow(ConformanceInputError);
  });

  it("runConformance returns what `run --json` writes, without output or exit", async () => {
    const exit = vi.spyOn(process, "exit");
    const report = await runConformance({ grep: GREP, profiles: ["2.4.0"], seed: 11, runs: 2, cwd: scratch });
    expect(writes).toEqual([]);
    expect(exit).not.toHaveBeenCalled();
    expect(ReportSchema.parse(report)).toEqual(report);
    expect(report.relay).toBe(join(root, "relay", "index.ts"));
    expect(passed(report)).toBe(true);

    const io = { stdout: () => undefined, stderr: () => undefined, cwd: scratch };
    expect(
      await main(
        ["run", "--grep", GREP, "--profile", "2.4.0", "--seed", "11", "--runs", "2", "--json", "cli.json", "--quiet"],
        io,
      ),
    ).toBe(0);
    const cli = ReportSchema.parse(JSON.parse(readFileSync(join(scratch, "cli.json"), "utf8")));
    const timeless = (r: typeof report) => ({ ...r, startedAt: "", durationMs: 0 });
    expect(timeless(report)).toEqual(timeless(cli));
  });

  it("reports a failing relay as a value: passed() is false, nothing exits", async () => {
    const lines: string[] = [];
    const report = await runConformance({
      relay: join(root, "test/conformance/clauses/broken-relays/drops-handshake.ts"),
      grep: "^HANDSHAKE-GENTLE-AI-ONLY$",
      profiles: ["2.4.0"],
      seed: 1,
      cwd: scratch,
      log: (t) => lines.push(t),
    });
    expect(writes).toEqual([]);
    expect(report.clauses.map((c) => [c.id, c.status])).toEqual([["HANDSHAKE-GENTLE-AI-ONLY", "fail"]]);
    expect(passed(report)).toBe(false);
    expect(lines.join("")).toMatch(/^FAIL +HANDSHAKE-GENTLE-AI-ONLY/m);
  });

  it("verifyBinary returns the verify report: the simulator does not drift from its own profile", async () => {
    const report = await verifyBinary({ binary: join(root, "simulator/bin/gentle-ai"), goldens: [] });
    expect(writes).toEqual([]);
    expect(VerifyReportSchema.parse(report)).toEqual(report);
    expect(report.drift).toBe(false);
    await expect(verifyBinary({ binary: join(scratch, "missing") })).rejects.toThrow(ConformanceInputError);
  });

  it("bad input throws ConformanceInputError", async () => {
    await expect(runConformance({ profiles: ["9.9.9"] })).rejects.toThrow(ConformanceInputError);
    await expect(runConformance({ relay: "no/such/relay.ts", cwd: scratch })).rejects.toThrow(/relay module not found/);
    await expect(runConformance({ grep: "^NO-SUCH-CLAUSE$" })).rejects.toThrow(/matches no clause/);
    await expect(runConformance({ runs: -1 })).rejects.toThrow(ConformanceInputError);
    expect(writes).toEqual([]);
  });
});
