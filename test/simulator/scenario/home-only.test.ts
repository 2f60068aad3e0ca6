// A client that sets only HOME, as gentle-pi's devtests do: no GENTLE_AI_SIM_* variable, so the built-in default
// scenario answers, and inside a repository that repository decides, exactly as under a lineage-less scenario file.
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { defaultStateDir } from "../../../simulator/runtime/env-config.ts";
import { V2 } from "../../support/contract.ts";
import { oracleFreshTarget } from "../../support/gentle-ai-digests.ts";
import { simWorlds } from "../../support/sim-world.ts";
import { json } from "../../support/spawn-process.ts";

// Worlds as gentle-pi's client sees them, with a scenario that pins no lineage.
const sandbox = simWorlds({ client: true, scenario: { profile: "2.4.0" } });
const STATUS = (repo: string) => [
  "review",
  "status",
  "--cwd",
  repo,
  "--contract",
  V2,
  "--agent",
  "pi",
  "--next-transition",
];

describe("a client that sets only HOME", () => {
  it("walks mode enable, STATUS, consent and START on the repository, with the bytes a lineage-less scenario gives", async () => {
    const s = sandbox();
    const repo = s.repo("r", { "app.ts": "export const value = 1;\n" });
    const enable = ["review", "mode", "enable", "--scope", "global", "--cwd", repo, "--json"];
    const homeOnlyEnable = await s.run(enable, { homeOnly: true });
    expect([homeOnlyEnable.code, homeOnlyEnable.stderrText]).toEqual([0, ""]);
    // Review mode is kept where gentle-ai keeps it: under HOME.
    expect(existsSync(join(s.home, ".gentle-ai", "state.json"))).toBe(true);

    s.write(repo, "app.ts", "export const value = 2;\n");
    const { identity, lineage } = oracleFreshTarget(repo, ["app.ts"]);

    const homeOnly = await s.run(STATUS(repo), { homeOnly: true });
    const withScenario = await s.run(STATUS(repo));
    expect([homeOnly.code, homeOnly.stderrText]).toEqual([0, ""]);
    // No seeded lineage: the fresh target of this repository, offering START.
    expect(json(homeOnly).action).toBe("start");
    expect(json(homeOnly).target_identity).toBe(identity);
    expect(homeOnly.stdoutText).toBe(withScenario.stdoutText);

    const start = [
      "review",
      "start",
      `--cwd=${repo}`,
      `--contract=${V2}`,
      `--target=${identity}`,
      "--projection=workspace",
      `--lineage=${lineage}`,
      "--agent=pi",
    ];
    const consent = await s.run([...start, "--consent=relay"], { homeOnly: true });
    expect([consent.code, consent.stderrText]).toEqual([0, ""]);
    const granted = await s.run([...start, "--consent=granted"], { homeOnly: true });
    expect([granted.code, granted.stderrText]).toEqual([0, ""]);
    expect(json(granted)).toMatchObject({ action: "created", lineage_id: lineage, state: "reviewing" });
    // The lineage lives in the repository, where gentle-ai keeps it, and nothing went to a simulator state folder.
    expect(readdirSync(join(repo, ".git", "gentle-ai", "review-transactions", "gentle-ai-sim"))).toEqual([lineage]);
    expect(existsSync(defaultStateDir(null, { TMPDIR: s.dir }))).toBe(false);

    // As the devtests ask after START: STATUS of that lineage, now collecting the lens inputs.
    const after = json(await s.run([...STATUS(repo), "--lineage", lineage], { homeOnly: true }));
    expect(after.authority?.lineage_id).toBe(lineage);
    expect(after.authority?.state).toBe("reviewing");
  });

  it("outside any repository the built-in scenario's seeded lineage still answers", async () => {
    const s = sandbox();
    const run = await s.run(["review", "status", "--contract", V2, "--agent", "pi", "--next-transition"], {
      homeOnly: true,
    });
    expect([run.code, run.stderrText]).toEqual([0, ""]);
    expect(json(run).applicability).toBe("current_target");
  });
});
