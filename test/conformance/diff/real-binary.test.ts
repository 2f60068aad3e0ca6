// The differential lane: with GENTLE_AI_REAL_BINARY naming a gentle-ai build and GENTLE_AI_REAL_BINARY_PROFILE its
// simulator profile, the whole shipped corpus must show no divergence. Build it outside this repository
// (docs/differential.md); without it the lane skips with one line, as gentle-pi's devbinary lane does.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "../../../conformance/main.ts";
import { DiffReportSchema } from "../../../conformance/diff/report-schema.ts";

const binary = process.env.GENTLE_AI_REAL_BINARY;
const profile = process.env.GENTLE_AI_REAL_BINARY_PROFILE;
const why =
  "GENTLE_AI_REAL_BINARY and GENTLE_AI_REAL_BINARY_PROFILE are not set (a gentle-ai build): the differential lane is skipped";

describe.skipIf(binary === undefined || profile === undefined)(
  binary === undefined || profile === undefined ? why : `differential lane against ${binary} (${profile})`,
  () => {
    it("the shipped corpus runs with no divergence", { timeout: 3_600_000 }, async () => {
      const dir = mkdtempSync(join(tmpdir(), "diff-lane-"));
      try {
        let stdout = "";
        const code = await main(["diff", "--binary", binary!, "--profile", profile!, "--json", join(dir, "d.json")], {
          stdout: (t) => (stdout += t),
          stderr: () => undefined,
          cwd: dir,
        });
        const report = DiffReportSchema.parse(JSON.parse(readFileSync(join(dir, "d.json"), "utf8")));
        expect(report.summary.errors, stdout).toBe(0);
        expect(report.summary.diverged, stdout).toBe(0);
        expect(code).toBe(0);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  },
);
