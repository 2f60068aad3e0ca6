// `relay-conformance fidelity` on small schema trees written here: exit codes, the per-kind lines, --json.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cli } from "../../support/cli.ts";
import { FidelityReportSchema } from "../../../conformance/fidelity/report-schema.ts";
import { permissiveContracts } from "../../support/permissive-contracts.ts";

const made: string[] = [];
afterEach(() => {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A checkout publishing, for every mirrored kind, a schema that only pins its `schema` constant (plus `extra`). */
function permissiveTree(extra: Record<string, object> = {}, omit: readonly string[] = []): string {
  const dir = mkdtempSync(join(tmpdir(), "fidelity-cli-test-"));
  made.push(dir);
  for (const [path, bytes] of permissiveContracts(extra, omit)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), bytes);
  }
  return dir;
}

const ONE_LANE = ["--scenario", "builtin", "--profile", "2.4.0"];
const STATUS_V5 = "gentle-ai.review-integration.status/v5";

describe("relay-conformance fidelity", () => {
  it("exits 0 when every document is valid, one line per kind, progress on stderr", { timeout: 60_000 }, async () => {
    const r = await cli(["fidelity", "--contracts", permissiveTree(), ...ONE_LANE]);
    expect(r.stdout.split("\n")[0]).toMatch(
      /^fidelity: \d+ documents from 1 scenarios × 1 profiles \(2\.4\.0\), against .*contracts\/review-integration$/,
    );
    expect(r.stdout).toMatch(
      new RegExp(
        `^valid    ${STATUS_V5.replace(/[./]/g, "\\$&")} +v2/schemas/status-v5\\.schema\\.json  \\d+ valid$`,
        "m",
      ),
    );
    expect(r.stdout).not.toContain("INVALID");
    expect(r.stdout).toMatch(/^result: all \d+ document kinds valid\n$/m);
    expect(r.stderr).toBe("fidelity: swept 1/1 scenario × profile lanes\n");
    expect(r.code).toBe(0);
  });

  it(
    "exits 1 naming the kind, the scenario, the profile, the call and the JSON path of each violation",
    { timeout: 60_000 },
    async () => {
      const dir = permissiveTree({ [STATUS_V5]: { required: ["schema", "no_such_member"] } });
      const json = join(dir, "report.json");
      const r = await cli(["fidelity", "--contracts", dir, ...ONE_LANE, "--json", json]);
      expect(r.code).toBe(1);
      expect(r.stdout).toMatch(
        new RegExp(
          `^INVALID  ${STATUS_V5.replace(/[./]/g, "\\$&")} +v2/schemas/status-v5\\.schema\\.json  (\\d+) of \\1 invalid$`,
          "m",
        ),
      );
      expect(r.stdout).toContain(
        `\n    builtin 2.4.0: gentle-ai review status --cwd . --contract gentle-ai.review-integration/v2 --next-transition\n      $: must have required property 'no_such_member'\n`,
      );
      expect(r.stdout).toMatch(/^result: 1 of \d+ document kinds invalid\n$/m);
      const report = FidelityReportSchema.parse(JSON.parse(readFileSync(json, "utf8")));
      expect(report.verdict).toBe("invalid");
      const status = report.kinds.find((k) => k.kind === STATUS_V5)!;
      expect(status.invalid.length).toBe(status.documents);
      expect(status.invalid[0]).toEqual({
        scenario: "builtin",
        profile: "2.4.0",
        call: "gentle-ai review status --cwd . --contract gentle-ai.review-integration/v2 --next-transition",
        issues: [{ path: "$", message: "must have required property 'no_such_member'" }],
      });
    },
  );

  it("a kind the tree no longer publishes is a published-contract change: exit 1", { timeout: 60_000 }, async () => {
    const r = await cli(["fidelity", "--contracts", permissiveTree({}, [STATUS_V5]), ...ONE_LANE]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(
      "      $: this tree publishes no v2/schemas/status-v5.schema.json: published contract changed\n",
    );
  });

  it.each([
    [["fidelity"], "relay-conformance: fidelity needs --contracts <dir> (a gentle-ai checkout)\n"],
    [["fidelity", "--contracts", "/no/such/dir"], "relay-conformance: /no/such/dir: no such directory\n"],
    [
      ["fidelity", "--contracts", "/", "--scenario", "nope"],
      'relay-conformance: unknown scenario "nope" (expected one of builtin, ',
    ],
    [["fidelity", "--contracts", "/", "--profile", "9.9.9"], 'relay-conformance: unknown profile "9.9.9"'],
  ])("bad input %j exits 2 with one line", async (args, first) => {
    const r = await cli(args);
    expect(r.code).toBe(2);
    expect(r.stderr.startsWith(first)).toBe(true);
    expect(r.stdout).toBe("");
  });

  it("a folder without contracts/review-integration exits 2 before any call", async () => {
    const dir = mkdtempSync(join(tmpdir(), "fidelity-cli-test-"));
    made.push(dir);
    const r = await cli(["fidelity", "--contracts", dir]);
    expect(r.code).toBe(2);
    expect(r.stderr.split("\n")[0]).toBe(
      `relay-conformance: ${dir}: no contracts/review-integration/v1/schemas or v2/schemas (expected a gentle-ai checkout or an unpacked source release)`,
    );
  });
});
