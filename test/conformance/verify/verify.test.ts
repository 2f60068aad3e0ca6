import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { main } from "../../../conformance/main.ts";
import { paths } from "../../../conformance/goldens/paths.ts";
import { VerifyReportSchema, type VerifyReport } from "../../../conformance/verify/report-schema.ts";
import { profileOfVersion } from "../../../conformance/cli/profile.ts";
import { readGolden, shippedGoldens } from "../../../conformance/goldens/golden-file.ts";
import { packageRoot } from "../../../conformance/paths.ts";
import { PROBE_IDS } from "../../support/verify-probes.ts";
import { spawnProcess } from "../../support/spawn-process.ts";

const launcher = join(packageRoot(), "conformance/bin/relay-conformance");

const SLOW = 420_000;
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "verify-test-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * Runs `verify` through the CLI's bin with the simulator configured for `profile` through the caller's environment.
 * A process of its own, so the tests using it can run concurrently (each run mostly waits on its simulator and relay
 * children) without sharing this worker's process.env.
 */
async function verify(
  profile: string,
  extra: string[],
): Promise<{ code: number; out: string; err: string; report: VerifyReport }> {
  // Per run, not per profile: a concurrent run must never read a file another one is rewriting.
  const run = `${profile}-${extra.join("_").replace(/\W/g, "")}`;
  const scenario = join(dir, `scenario-${run}.json`);
  writeFileSync(scenario, JSON.stringify({ name: `verify-${profile}`, profile }));
  const json = join(dir, `report-${run}.json`);
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  env.GENTLE_AI_SIM_SCENARIO = scenario;
  const cli = await spawnProcess(launcher, ["verify", "--binary", paths.simGentleAi(), "--json", json, ...extra], {
    env,
    cwd: dir,
    guardMs: SLOW - 10_000,
  });
  expect(cli.signal).toBeNull();
  return {
    code: cli.code ?? -1,
    out: cli.stdoutText,
    err: cli.stderrText,
    report: VerifyReportSchema.parse(JSON.parse(readFileSync(json, "utf8"))),
  };
}

// The self-checks, the caller-environment check and the drift checks run concurrently: each verify has its own
// process (or, in-process, the only change to process.env, which the spawned runs override) and its own files.
describe.concurrent("simulator fidelity self-check", () => {
  it.each(["2.3.0", "2.4.0", "2.5.0"])(
    "the %s simulator passes verify for its own profile, goldens included",
    async (profile) => {
      const { code, out, err, report } = await verify(profile, []);
      expect(err).toBe("");
      expect(report.profile).toBe(profile);
      expect(report.profileSource).toBe("version");
      expect(report.simulator).toBe(true);
      expect(report.probes.filter((p) => p.status === "drift" || p.status === "inconclusive")).toEqual([]);
      expect(report.probes.map((p) => p.id)).toEqual(PROBE_IDS);
      expect(report.goldens.map((g) => [g.golden, g.status])).toEqual(
        shippedGoldens()
          .map((p) => readGolden(p))
          .filter((g) => g.source.kind === "simulator" && g.profile === profile)
          .map((g) => [g.name, "pass"])
          .sort(),
      );
      expect(report.drift).toBe(false);
      expect(out.endsWith("result: no drift\n")).toBe(true);
      expect(code).toBe(0);
    },
    SLOW,
  );
});

describe.concurrent("caller environment", () => {
  it(
    "resolves a relative GENTLE_AI_SIM_SCENARIO against the caller's cwd, not the probe's",
    async () => {
      writeFileSync(join(dir, "relative-2.3.0.json"), JSON.stringify({ name: "relative", profile: "2.3.0" }));
      const out: string[] = [];
      const err: string[] = [];
      const previous = process.env.GENTLE_AI_SIM_SCENARIO;
      process.env.GENTLE_AI_SIM_SCENARIO = "relative-2.3.0.json";
      try {
        const code = await main(["verify", "--binary", paths.simGentleAi(), "--no-goldens"], {
          stdout: (t) => out.push(t),
          stderr: (t) => err.push(t),
          cwd: dir,
        });
        expect(err.join("")).toBe("");
        expect(out.join("")).toContain('version: "gentle-ai 2.3.0\\n"');
        expect(code).toBe(0);
      } finally {
        if (previous === undefined) delete process.env.GENTLE_AI_SIM_SCENARIO;
        else process.env.GENTLE_AI_SIM_SCENARIO = previous;
      }
    },
    SLOW,
  );
});

describe.concurrent("drift", () => {
  it(
    "reports drift when the 2.3.0 simulator is verified as 2.4.0",
    async () => {
      const { code, out, report } = await verify("2.3.0", ["--profile", "2.4.0", "--no-goldens"]);
      expect(code).toBe(1);
      expect(report.profileSource).toBe("flag");
      expect(report.drift).toBe(true);
      const drifted = report.probes.filter((p) => p.status === "drift").map((p) => p.id);
      expect(drifted).toEqual([
        "version-output",
        "unknown-flag-shape",
        "relay-flags",
        "handshake-gate",
        "status-submission-form",
        "materialize-deterministic-read-only",
        "refusal-codes",
        "role-verbs",
      ]);
      expect(report.probes.find((p) => p.id === "unknown-flag-shape")?.findings).toEqual([
        'stdout differs at byte 0: expected "{\\n  \\"schema\\": \\"gentle-ai.review-integrat"…, got "flag provided but not defined: -x\\nUsage:"…',
        'stderr differs at byte 40: expected "Error: flag provided but not defined: -x [invalid_request]\\n", got "Error: flag provided but not defined: -x\\n"',
      ]);
      expect(out).toContain("  DRIFT  relay-flags  ");
      expect(out.endsWith("result: DRIFT (8 checks)\n")).toBe(true);
    },
    SLOW,
  );

  it(
    "reports drift when the 2.4.0 simulator is verified as 2.5.0 (handshake wording; the submission form is the same)",
    async () => {
      const { code, report } = await verify("2.4.0", ["--profile", "2.5.0", "--no-goldens"]);
      expect(code).toBe(1);
      expect(report.probes.filter((p) => p.status === "drift").map((p) => p.id)).toEqual([
        "version-output",
        "handshake-gate",
      ]);
    },
    SLOW,
  );
});

describe("bad input", () => {
  it("exits 2 for a missing binary, an unknown profile and an underivable version", async () => {
    const dev = join(dir, "gentle-ai-dev");
    writeFileSync(dev, "#!/bin/sh\necho 'gentle-ai dev'\n");
    chmodSync(dev, 0o755);
    const cases: [string[], string][] = [
      [
        ["verify", "--binary", join(dir, "nope")],
        `relay-conformance: --binary ${join(dir, "nope")} is not an executable file (ENOENT)\n`,
      ],
      [
        ["verify", "--binary", dev, "--profile", "9.9.9"],
        'relay-conformance: unknown profile "9.9.9" (expected 2.3.0, 2.4.0, 2.5.0)\n',
      ],
      [
        ["verify", "--binary", dev],
        `relay-conformance: cannot derive the contract profile from \`${dev} version\` output "gentle-ai dev\\n"; pass --profile\n`,
      ],
      [["verify"], "relay-conformance: verify needs --binary <path>\n"],
    ];
    for (const [argv, message] of cases) {
      const err: string[] = [];
      expect(await main(argv, { stdout: () => undefined, stderr: (t) => err.push(t), cwd: dir })).toBe(2);
      expect(err.join("")).toBe(`${message}Run \`relay-conformance verify --help\` for usage.\n`);
    }
  });

  it("maps versions to profiles and publishes the report schema", () => {
    expect(
      ["2.2.2", "2.3.0", "2.4.0-rc.1", "2.4.0", "2.4.1-main.56d50aa", "2.5.0", "2.6.1", "dev"].map(profileOfVersion),
    ).toEqual(["2.3.0", "2.3.0", "2.3.0", "2.4.0", "2.4.0", "2.5.0", "2.5.0", undefined]);
  });
});
