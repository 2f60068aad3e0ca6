// Each broken relay must fail exactly the clause its defect violates (a control clause keeps passing),
// and our relay must pass the whole catalogue on every profile.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CATALOGUE, selectClauses } from "../../../../conformance/clauses/index.ts";
import { packageRoot } from "../../../../conformance/paths.ts";
import type { Report } from "../../../../conformance/report/report-schema.ts";
import { runCatalogue } from "../../../../conformance/runner/run-catalogue.ts";

const root = packageRoot();
const counterexampleDir = mkdtempSync(join(tmpdir(), "rc-broken-cx-"));
afterAll(() => rmSync(counterexampleDir, { recursive: true, force: true }));

async function run(relay: string, grep: string, profiles: Report["profiles"] = ["2.4.0"], runs = 3): Promise<Report> {
  return runCatalogue({
    relayModule: join(root, relay),
    clauses: selectClauses(grep, CATALOGUE),
    profiles,
    runs,
    seed: 1,
    timeoutMs: 20_000,
    concurrency: 2,
    counterexampleDir,
  });
}

const statuses = (report: Report): Record<string, string> => Object.fromEntries(report.clauses.map((c) => [c.id, c.status]));

describe("broken relays fail the clause their defect violates", () => {
  it.each([
    ["adds-bom.ts", "RESULT-FILE-EXACT", "PI-STDIN-EXACT"],
    ["trims-newline.ts", "RESULT-FILE-EXACT", "SUBMIT-ARGV-EXACT"],
    ["utf8-roundtrip.ts", "RESULT-FILE-EXACT", "PI-ARGV-FIXED"],
    ["substitutes-every-token.ts", "SUBMIT-ARGV-EXACT", "RESULT-FILE-EXACT"],
    ["retries-refused-submit.ts", "NO-RETRY", "PI-ARGV-FIXED"],
    ["drops-handshake.ts", "HANDSHAKE-GENTLE-AI-ONLY", "FORM-MISSING"],
    ["handshake-to-pi.ts", "PI-ENV-UNTOUCHED", "SUBMIT-CWD-HANDSHAKE"],
    ["pi-mutation-unknown.ts", "MUTATION-OUTCOME-BY-STAGE", "PI-ARGV-FIXED"],
    ["cwd-from-process.ts", "TARGET-CWD-HONOURED", "PI-ARGV-FIXED"],
    // SIGTERM still ends a child that does not trap it: the older timeout clause cannot see this defect.
    ["sigterm-on-timeout.ts", "TIMEOUT-HARD-KILL", "MATERIALIZE-TIMEOUT"],
  ])("%s fails %s (and passes %s)", async (relay, failing, control) => {
    const report = await run(`test/conformance/clauses/broken-relays/${relay}`, `^(${failing}|${control})$`);
    expect(statuses(report)).toEqual({ [failing]: "fail", [control]: "pass" });
    expect(report.summary).toEqual({ passed: 1, failed: 1, skipped: 0, errored: 0 });
  });

  it.each([
    ["cwd-from-request.ts", "TARGET-CWD-HONOURED"],
    ["sigkill-on-timeout.ts", "TIMEOUT-HARD-KILL"],
  ])("the control %s, through the same interception without the defect, passes %s", async (relay, clause) => {
    const report = await run(`test/conformance/clauses/broken-relays/${relay}`, `^${clause}$`);
    expect(statuses(report)).toEqual({ [clause]: "pass" });
  });

  it.each([
    ["adds-bom.ts", "PROP-BYTES-EXACT"],
    ["substitutes-every-token.ts", "PROP-SUBMIT-FORM-EXACT"],
  ])("%s is caught by the generated property %s", async (relay, clause) => {
    const report = await run(`test/conformance/clauses/broken-relays/${relay}`, `^${clause}$`, ["2.4.0"], 30);
    const result = report.clauses[0];
    expect(result?.status).toBe("fail");
    expect(result?.message).toMatch(/property .* failed \(seed -?\d+, path ".*"\): .* counterexample saved to .*; re-run with `relay-conformance replay /);
  });

  it("a hanging relay is killed per case and reported, and the run goes on", async () => {
    const report = await runCatalogue({
      relayModule: join(root, "test/conformance/clauses/broken-relays/hangs.ts"),
      clauses: selectClauses("^(PI-ARGV-FIXED|API-CONSTANTS)$", CATALOGUE),
      profiles: ["2.4.0"],
      runs: 1,
      seed: 1,
      timeoutMs: 1500,
      concurrency: 2,
      counterexampleDir,
    });
    expect(statuses(report)).toEqual({ "PI-ARGV-FIXED": "fail", "API-CONSTANTS": "pass" });
    expect(report.clauses[0]?.message).toMatch(
      /^2\.4\.0: \[happy-path\] relay did not settle within 1500ms \(load-scaled; \d+\.\d s wall\): its adapter child and process tree were killed and replaced; output tail: \(none\); pi was never launched$/,
    );
  });
});

describe("our relay", () => {
  it("passes every clause on every profile", async () => {
    const report = await run("relay/index.ts", ".*", ["2.3.0", "2.4.0", "2.5.0"], 4);
    expect(report.clauses.filter((c) => c.status !== "pass").map((c) => `${c.id}: ${c.message}`)).toEqual([]);
    expect(report.summary.failed).toBe(0);
  }, 300_000);
});
