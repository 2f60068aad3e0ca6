// A plain JavaScript relay (no TypeScript) runs through the same adapter child.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";
import { afterAll, describe, expect, it } from "vitest";
import { CATALOGUE, selectClauses } from "../../../conformance/clauses/index.ts";
import { packageRoot } from "../../../conformance/paths.ts";
import { runCatalogue } from "../../../conformance/runner/run-catalogue.ts";

const dir = mkdtempSync(join(tmpdir(), "rc-js-relay-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("relay-conformance run --relay <file.mjs>", () => {
  it("loads a bundled JS relay and passes the same clauses", async () => {
    const out = join(dir, "relay.mjs");
    await build({
      entryPoints: [join(packageRoot(), "relay/index.ts")],
      bundle: true,
      platform: "node",
      format: "esm",
      outfile: out,
      logLevel: "silent",
    });
    const report = await runCatalogue({
      relayModule: out,
      clauses: selectClauses("^(SUBMIT-ARGV-EXACT|RESULT-FILE-EXACT|FORM-CHECK-ORDER|API-FAILURE-KINDS)$", CATALOGUE),
      profiles: ["2.5.0"],
      runs: 1,
      seed: 1,
      timeoutMs: 20_000,
      concurrency: 2,
      counterexampleDir: dir,
    });
    expect(report.clauses.map((c) => [c.id, c.status])).toEqual([
      ["FORM-CHECK-ORDER", "pass"],
      ["SUBMIT-ARGV-EXACT", "pass"],
      ["RESULT-FILE-EXACT", "pass"],
      ["API-FAILURE-KINDS", "pass"],
    ]);
  });
});
