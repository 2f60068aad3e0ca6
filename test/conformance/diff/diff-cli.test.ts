// `diff` end to end without a gentle-ai build: the simulator against itself must match on a lifecycle script, and a
// build that differs by one byte must be caught at that byte, deterministically.
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cli as runCli, type CliRun } from "../../support/cli.ts";
import { DiffReportSchema } from "../../../conformance/diff/report-schema.ts";
import { paths } from "../../../conformance/goldens/paths.ts";

const SLOW = 300_000;
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "diff-cli-test-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const cli = (args: string[]): Promise<CliRun> => runCli(args, { cwd: dir });

describe("relay-conformance diff", () => {
  it(
    "the simulator against itself: a repository lifecycle matches call for call, and two runs give one report",
    async () => {
      const script = join(dir, "walk.txtar");
      writeFileSync(
        script,
        [
          "title a short walk",
          "repo",
          "mode enable scope=global",
          "transition consent=granted",
          "status agent=pi",
          "relay status=last slot=0",
          "gentle-ai review status --cwd $WORK --contract gentle-ai.review-integration/v2 --next-transition",
          "-- repo/src/app.go --",
          "package app",
          "-- work/src/app.go --",
          "package app // changed",
          "",
        ].join("\n"),
      );
      const reports: string[] = [];
      for (const n of [1, 2]) {
        const json = join(dir, `self-${n}.json`);
        const r = await cli(["diff", "--binary", paths.simGentleAi(), "--script", script, "--json", json]);
        expect([r.code, r.stderr]).toEqual([0, ""]);
        const report = DiffReportSchema.parse(JSON.parse(readFileSync(json, "utf8")));
        expect(report.scenarios.map((s) => [s.id, s.status, s.divergences.length])).toEqual([["walk", "pass", 0]]);
        // mode, STATUS + START, STATUS, materialize + pi + submit (the slot of that STATUS), STATUS.
        expect(report.summary.calls).toBe(8);
        expect(r.stdout).toBe(
          "PASS     walk (8 calls)\nPASS: 1 of 1 scenarios match (0 diverge, 0 skipped, 0 harness errors), 8 calls against gentle-ai 2.4.0 (profile 2.4.0)\n",
        );
        reports.push(JSON.stringify({ ...report, binary: null }));
      }
      expect(reports[1]).toBe(reports[0]);
    },
    SLOW,
  );

  it(
    "--generated alone: the simulator against itself, one PASS line about the generated calls and none about scenarios",
    async () => {
      const json = join(dir, "gen.json");
      const r = await cli(["diff", "--binary", paths.simGentleAi(), "--generated", "3", "--seed", "7", "--json", json]);
      expect([r.code, r.stderr]).toEqual([0, ""]);
      const report = DiffReportSchema.parse(JSON.parse(readFileSync(json, "utf8")));
      const g = report.generated!;
      expect([report.scenarios, g.seed, g.divergence, g.calls >= 3, g.runs >= 1]).toEqual([
        [],
        7,
        undefined,
        true,
        true,
      ]);
      const worlds = `${g.runs} world${g.runs === 1 ? "" : "s"}`;
      expect(r.stdout).toBe(
        `PASS: generated: ${g.calls} calls in ${worlds}, seed 7, against gentle-ai 2.4.0 (profile 2.4.0): no divergence\n`,
      );
    },
    SLOW,
  );

  it(
    "a build that differs by one byte diverges at that byte, with its call and both sides' bytes (exit 1)",
    async () => {
      const fake = join(dir, "gentle-ai-fake");
      writeFileSync(
        fake,
        `#!/bin/sh\nif [ "$1" = version ]; then printf 'gentle-ai 2.4.1\\n'; exit 0; fi\nexec ${paths.simGentleAi()} "$@"\n`,
      );
      chmodSync(fake, 0o755);
      const script = join(dir, "version.txtar");
      writeFileSync(
        script,
        "title version\nrepo\ngentle-ai version\ngentle-ai review --help\n-- repo/README.md --\nfixture\n",
      );
      const r = await cli(["diff", "--binary", fake, "--profile", "2.4.0", "--script", script]);
      expect(r.code).toBe(1);
      expect(r.stdout.split("\n")).toEqual([
        "DIVERGE  version (1 of 2 calls)",
        "    phase 1, call 1: gentle-ai version",
        '    environment: no handshake; stdin ""',
        "    stdout differs at byte 14",
        '      binary:    "gentle-ai 2.4.1\\n" (16 bytes)',
        '      simulator: "gentle-ai 2.4.0\\n" (16 bytes)',
        "FAIL: 0 of 1 scenarios match (1 diverge, 0 skipped, 0 harness errors), 2 calls against gentle-ai 2.4.1 (profile 2.4.0)",
        "",
      ]);
    },
    SLOW,
  );
});
