// review mode enable|disable|status against gentle-ai's kill switch (cli/review_mode.go, reviewtransaction/rdd_mode.go,
// cli/review_mode_test.go): where each source lives, which source decides, the clone-local generations, the refusals.
import { existsSync, readdirSync, readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { oracleOverrideRevision } from "../../../support/gentle-ai-digests.ts";
import { simWorlds } from "../../../support/sim-world.ts";
import { json } from "../../../support/spawn-process.ts";
import { ReviewModeSchema } from "../../../../simulator/contract/review-mode.ts";

// Worlds as gentle-pi's client sees them, with a scenario that pins no lineage.
const sandbox = simWorlds({ client: true, scenario: { profile: "2.4.0" } });
const SWITCH = ["gentle-ai", "review-mode", "rar-authority", "v1", "rdd-mode"];
const LEGACY = ["gentle-ai", "review-transactions", "rar-authority", "v1", "rdd-mode"];

function generations(repo: string, where: string[]): string[] {
  const dir = join(repo, ".git", ...where);
  return existsSync(dir)
    ? readdirSync(dir)
        .filter((n) => n.startsWith("gen-"))
        .sort()
    : [];
}

describe("review mode", () => {
  it("status of an install nobody configured: off, decided by default, exact bytes, nothing created", async () => {
    const s = sandbox();
    const repo = s.repo("r");
    const run = await s.run(["review", "mode", "status", "--cwd", repo, "--json"]);
    expect(run.code).toBe(0);
    expect(run.stderrText).toBe("");
    expect(run.stdoutText).toBe(
      '{\n  "schema": "gentle-ai.review-mode/v1",\n  "operation": "status",\n  "scope": "both",\n  "status": {\n' +
        '    "schema": "gentle-ai.rdd-mode-status/v1",\n    "global": "",\n    "clone_local": "",\n    "effective": "off",\n' +
        '    "source": "default"\n  }\n}\n',
    );
    expect(existsSync(join(s.home, ".gentle-ai"))).toBe(false);
    expect(existsSync(join(repo, ".git", "gentle-ai"))).toBe(false);
  });

  it("-h after `--` still ends the call with exit 0, and prints nothing: the parser never saw it (real 2.4.0 and 2.5.0)", async () => {
    const s = sandbox();
    const repo = s.repo("r");
    const run = await s.run(["review", "mode", "enable", "--cwd", repo, "--", "-h"]);
    expect([run.code, run.stdoutText, run.stderrText]).toEqual([0, "", ""]);
    expect(existsSync(join(s.home, ".gentle-ai"))).toBe(false);
  });

  it("an empty --cwd is refused, never read as the working folder: status fails closed to clone_local (real 2.4.0 and 2.5.0)", async () => {
    const s = sandbox();
    const run = await s.run(["review", "mode", "status", "-cwd=", "--json"]);
    expect(run.code).toBe(1);
    expect(run.stderrText).toBe(
      "Error: resolve review mode repository identity: snapshot repository path is required\n",
    );
    expect(json(run)).toEqual({
      schema: "gentle-ai.review-mode/v1",
      operation: "status",
      scope: "both",
      status: {
        schema: "gentle-ai.rdd-mode-status/v1",
        global: "",
        clone_local: "",
        effective: "off",
        source: "clone_local",
      },
    });
  });

  it("the human summary names the deciding source", async () => {
    const s = sandbox();
    const repo = s.repo("r");
    const run = await s.run(["review", "mode", "status", "--cwd", repo]);
    expect(run.stdoutText).toBe(
      "receipt-driven development: off (decided by default)\n  global:      unset\n  clone-local: unset\n",
    );
  });

  it("global enable writes HOME/.gentle-ai/state.json and turns every clone on", async () => {
    const s = sandbox();
    const a = s.repo("a");
    const b = s.repo("b");
    const enabled = json(await s.run(["review", "mode", "enable", "--scope", "global", "--cwd", a, "--json"]));
    expect(enabled).toEqual({
      schema: "gentle-ai.review-mode/v1",
      operation: "enable",
      scope: "global",
      status: {
        schema: "gentle-ai.rdd-mode-status/v1",
        global: "on",
        clone_local: "",
        effective: "on",
        source: "global",
      },
    });
    const state = JSON.parse(readFileSync(join(s.home, ".gentle-ai", "state.json"), "utf8")) as Record<string, unknown>;
    expect(state["rdd_mode"]).toBe("on");
    expect(String(state["rdd_mode_recorded_at"])).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
    expect(json(await s.run(["review", "mode", "status", "--cwd", b, "--json"])).status.effective).toBe("on");
  });

  it("clone scope disables only this clone; enable clears the override (TestReviewModeCloneScopeDisablesOnlyThisClone)", async () => {
    const s = sandbox();
    const a = s.repo("a");
    const b = s.repo("b");
    await s.run(["review", "mode", "enable", "--scope", "global", "--cwd", a, "--json"]);
    const disabled = ReviewModeSchema.parse(
      json(await s.run(["review", "mode", "disable", "--scope", "clone", "--cwd", a, "--json"])),
    );
    expect(disabled.scope).toBe("clone");
    expect(disabled.status).toMatchObject({
      global: "on",
      clone_local: "off",
      effective: "off",
      source: "clone_local",
      reach: "machine",
    });
    // One immutable generation, published in the switch root and mirrored where older builds read it.
    expect(generations(a, SWITCH)).toEqual(["gen-0000000001.json"]);
    const first = readFileSync(join(a, ".git", ...SWITCH, "gen-0000000001.json"), "utf8");
    expect(readFileSync(join(a, ".git", ...LEGACY, "gen-0000000001.json"), "utf8")).toBe(first);
    const record = JSON.parse(first) as Record<string, unknown>;
    expect(record).toMatchObject({ schema: "gentle-ai.rdd-mode-override/v1", generation: 1, mode: "off" });
    expect(record["revision"]).toBe(oracleOverrideRevision(record));
    expect(disabled.status.revision).toBe(record["revision"]);
    // The other clone inherits nothing.
    expect(json(await s.run(["review", "mode", "status", "--cwd", b, "--json"])).status).toEqual({
      schema: "gentle-ai.rdd-mode-status/v1",
      global: "on",
      clone_local: "",
      effective: "on",
      source: "global",
    });
    const status = json(await s.run(["review", "mode", "status", "--cwd", a, "--json"])).status;
    expect(status.reach).toBeUndefined(); // status never reports reach (RDDModeReachUnreported)
    expect(status.source).toBe("clone_local");
    const enabled = json(await s.run(["review", "mode", "enable", "--scope", "clone", "--cwd", a, "--json"]));
    expect(enabled.status).toMatchObject({ clone_local: "", effective: "on", source: "global", reach: "machine" });
    const second = JSON.parse(readFileSync(join(a, ".git", ...SWITCH, "gen-0000000002.json"), "utf8")) as Record<
      string,
      unknown
    >;
    expect(second).toMatchObject({ generation: 2, mode: "inherit", previous_revision: record["revision"] });
    expect(enabled.status.revision).toBe(oracleOverrideRevision(second));
  });

  it("a repeated clone disable publishes no new generation (TestReviewModeCloneScopeDisableIsIdempotent)", async () => {
    const s = sandbox();
    const a = s.repo("a");
    await s.run(["review", "mode", "disable", "--scope", "clone", "--cwd", a, "--json"]);
    const again = await s.run(["review", "mode", "disable", "--scope", "clone", "--cwd", a, "--json"]);
    expect(again.code).toBe(0);
    expect(generations(a, SWITCH)).toEqual(["gen-0000000001.json"]);
  });

  it("clone enable while the global source is off is refused and creates nothing (TestReviewModeCloneScopeEnableRejectsGlobalOffWithoutLocalOverride)", async () => {
    const s = sandbox();
    const a = s.repo("a");
    mkdirSync(join(s.home, ".gentle-ai"));
    writeFileSync(
      join(s.home, ".gentle-ai", "state.json"),
      JSON.stringify({ installed_agents: null, rdd_mode: "off" }),
    );
    const run = await s.run(["review", "mode", "enable", "--cwd", a, "--scope", "clone", "--json"]);
    expect(run.code).toBe(1);
    expect(run.stderrText).toBe(
      "Error: receipt-driven development is disabled: start is rejected because the global mode source keeps it off; turn reviews on with gentle-ai review mode enable --scope=global\n",
    );
    expect(json(run).status).toEqual({
      schema: "gentle-ai.rdd-mode-status/v1",
      global: "off",
      clone_local: "",
      effective: "off",
      source: "global",
    });
    expect(existsSync(join(a, ".git", "gentle-ai"))).toBe(false);
  });

  it("a stale --expected-revision loses the compare-and-set", async () => {
    const s = sandbox();
    const a = s.repo("a");
    const run = await s.run([
      "review",
      "mode",
      "disable",
      "--scope",
      "clone",
      "--cwd",
      a,
      "--expected-revision",
      "sha256:" + "0".repeat(64),
      "--json",
    ]);
    expect(run.code).toBe(1);
    expect(run.stderrText).toBe(
      `Error: clone-local review mode revision mismatch: expected "sha256:${"0".repeat(64)}" but the clone-local head is ""\n`,
    );
    expect(generations(a, SWITCH)).toEqual([]);
  });

  it("refuses an unknown subcommand, scope or argument with gentle-ai's texts", async () => {
    const s = sandbox();
    const a = s.repo("a");
    const verb = await s.run(["review", "mode", "toggle"]);
    expect([verb.code, verb.stdoutText, verb.stderrText]).toEqual([
      1,
      "",
      'Error: unknown review mode command "toggle"\n',
    ]);
    const scope = await s.run(["review", "mode", "enable", "--scope", "both", "--cwd", a]);
    expect([scope.code, scope.stderrText]).toEqual([1, 'Error: unknown review mode scope "both"\n']);
    const extra = await s.run(["review", "mode", "status", "--cwd", a, "extra"]);
    expect([extra.code, extra.stderrText]).toEqual([1, 'Error: unexpected review mode argument "extra"\n']);
  });

  it("help prints the usage and the opt-in explanation", async () => {
    const s = sandbox();
    const run = await s.run(["review", "mode", "--help"]);
    expect(run.code).toBe(0);
    expect(run.stdoutText.split("\n")[0]).toBe(
      "Usage: gentle-ai review mode <enable|disable|status> [--cwd <repo>] [--scope <global|clone>] [--expected-revision <revision>] [--json]",
    );
  });

  it("concurrent clone disables publish exactly one generation and never a torn record", async () => {
    const s = sandbox();
    const a = s.repo("a");
    const runs = await Promise.all(
      [1, 2, 3, 4].map(() => s.run(["review", "mode", "disable", "--scope", "clone", "--cwd", a, "--json"])),
    );
    expect(runs.filter((r) => r.code === 0).length).toBeGreaterThanOrEqual(1);
    for (const r of runs.filter((r) => r.code !== 0))
      expect(r.stderrText).toMatch(/^Error: clone-local review mode revision mismatch: /);
    expect(generations(a, SWITCH)).toEqual(["gen-0000000001.json"]);
    const record = JSON.parse(readFileSync(join(a, ".git", ...SWITCH, "gen-0000000001.json"), "utf8")) as Record<
      string,
      unknown
    >;
    expect(record["revision"]).toBe(oracleOverrideRevision(record));
  });
});
