// `relay-conformance run --warm`: the whole catalogue against the warm simulator gives the process path's verdicts.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CATALOGUE } from "../../conformance/clauses/index.ts";
import { packageRoot } from "../../conformance/paths.ts";
import { ReportSchema } from "../../conformance/report/report-schema.ts";

const root = packageRoot();
const launcher = join(root, "conformance/bin/relay-conformance");
const spools = (): string[] => readdirSync("/dev/shm").filter((n) => n.startsWith("gentle-ai-sim-warm-"));

describe("relay-conformance run --warm", () => {
  it("passes every clause on every profile with our relay, and leaves no server or spool folder behind", () => {
    const dir = mkdtempSync(join(tmpdir(), "rc-warm-test-"));
    const before = spools();
    try {
      const r = spawnSync(launcher, ["run", "--warm", "--quiet", "--seed", "11", "--json", join(dir, "r.json")], { cwd: root, encoding: "utf8" });
      expect(r.status, r.stdout + r.stderr).toBe(0);
      const report = ReportSchema.parse(JSON.parse(readFileSync(join(dir, "r.json"), "utf8")));
      expect(report.simulator).toBe("warm");
      expect(report.profiles).toEqual(["2.3.0", "2.4.0", "2.5.0"]);
      expect(report.summary).toEqual({ passed: CATALOGUE.length, failed: 0, skipped: 0, errored: 0 });
      expect(spools()).toEqual(before);
      expect(spawnSync("pgrep", ["-f", "warm-server.cjs"]).stdout.toString()).toBe("");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("still fails a broken relay on its clause, and reports a process run as such", () => {
    const warm = spawnSync(launcher, ["run", "--warm", "--quiet", "--relay", "test/broken-relays/adds-bom.ts", "--grep", "^(RESULT-FILE-EXACT|PI-STDIN-EXACT)$", "--profile", "2.4.0", "--seed", "1"], { cwd: root, encoding: "utf8" });
    expect(warm.status).toBe(1);
    expect(warm.stdout).toMatch(/^RESULT-FILE-EXACT {2}fail {4}fail$/m);
    expect(warm.stdout).toMatch(/^PI-STDIN-EXACT {5}pass {4}pass$/m);
    const dir = mkdtempSync(join(tmpdir(), "rc-warm-test-"));
    try {
      const cold = spawnSync(launcher, ["run", "--quiet", "--grep", "^PI-ARGV-FIXED$", "--profile", "2.4.0", "--json", join(dir, "r.json")], { cwd: root, encoding: "utf8" });
      expect(cold.status).toBe(0);
      expect(ReportSchema.parse(JSON.parse(readFileSync(join(dir, "r.json"), "utf8"))).simulator).toBe("process");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
