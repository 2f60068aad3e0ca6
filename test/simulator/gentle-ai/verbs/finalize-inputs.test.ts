// review finalize in the repository world, against real gentle-ai bytes (2.4.0 = 301fb2ad, 2.5.0 = fb55ef7b, both
// built from source and run through `relay-conformance diff` on golden/diff/flags-finalize.txtar): the --cwd
// resolution, the --lineage checks of each profile, and the caller inputs read in gentle-ai's order before any plan
// check; an untyped failure saves a defect report in the repository and names it.
import { existsSync, mkdirSync, readFileSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { V2 } from "../../../support/contract.ts";
import { oracleFreshTarget } from "../../../support/gentle-ai-digests.ts";
import { SimWorld, simWorlds } from "../../../support/sim-world.ts";

const worlds = {
  "2.4.0": simWorlds({ client: true, scenario: { profile: "2.4.0" } }),
  "2.5.0": simWorlds({ client: true, scenario: { profile: "2.5.0" } }),
};
const PROFILES = ["2.4.0", "2.5.0"] as const;

/** A repository with review mode on and, when `started`, a one-lens lineage over an edit of src/app.ts. */
async function repository(s: SimWorld, started: boolean): Promise<string> {
  const repo = s.repo("r", { "src/app.ts": "export const value = 1;\n" });
  await s.run(["review", "mode", "enable", "--scope", "global", "--cwd", repo, "--json"]);
  s.write(repo, "src/app.ts", "export const value = 2;\n");
  if (!started) return realpathSync(repo);
  const { identity, lineage } = oracleFreshTarget(repo, ["src/app.ts"]);
  const r = await s.run([
    "review",
    "start",
    `--cwd=${repo}`,
    `--contract=${V2}`,
    `--target=${identity}`,
    "--projection=workspace",
    `--lineage=${lineage}`,
    "--consent=granted",
  ]);
  expect([r.code, r.stderrText]).toEqual([0, ""]);
  return realpathSync(repo);
}

/** The stderr line of an untyped failure: the text, then the report saved under the repository's git common dir. */
function withDefectReport(text: string, repo: string): RegExp {
  const dir = join(repo, ".git", "gentle-ai", "defect-reports").replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  const url = "https://github.com/Gentleman-Programming/gentle-ai/issues/new/choose".replace(/[./]/g, "\\$&");
  const head = text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  return new RegExp(
    `^Error: ${head} A defect report was saved at (${dir}/operation-outcome-unknown-[0-9a-f]{12}\\.md) -- file it at ${url}\\.\\n$`,
  );
}

const ALL =
  "(see `gentle-ai review status --cwd <repo> --contract gentle-ai.review-integration/v1 --next-transition` for the exact lineage/target/lens/order bindings)";
const LINEAGE_ID = "lineage_id must be a canonical lowercase kebab-case identifier of at most 128 bytes";

describe.each(PROFILES)(
  "finalize inputs in gentle-ai's order, profile %s (real bytes, the same in both)",
  (profile) => {
    const cases: [string, string[], string][] = [
      ["a missing --evidence", ["--evidence=x y"], "read final review evidence: open x y: no such file or directory"],
      [
        "a missing --validation",
        ["-validation", "x y"],
        "read targeted validation: open x y: no such file or directory",
      ],
      [
        "a missing --refuter, last value wins",
        ["--refuter=a", "--refuter=b"],
        "read refuter outcomes: open b: no such file or directory",
      ],
      [
        "validation before refuter before evidence",
        ["--validation=missing", "--refuter=missing2", "--evidence=missing3"],
        "read targeted validation: open missing: no such file or directory",
      ],
      [
        "refuter before evidence",
        ["--refuter=missing2", "--evidence=missing3"],
        "read refuter outcomes: open missing2: no such file or directory",
      ],
      [
        "--captured-evidence while reviewing",
        ["--captured-evidence"],
        'cannot capture verification evidence from compact state "reviewing"',
      ],
      ["an empty inline artifact", ["--result-artifact="], "decode reviewer artifact 1: EOF"],
      [
        "a non-JSON inline artifact",
        ["--result-artifact=x y"],
        "decode reviewer artifact 1: invalid character 'x' looking for beginning of value",
      ],
      [
        "a mistyped manifest field",
        ['--result-artifact={"selected_order":"x"}'],
        "decode reviewer artifact 1: json: cannot unmarshal string into Go struct field reviewResultArtifact.selected_order of type int",
      ],
      [
        "a manifest out of order",
        ['--result-artifact={"selected_order":1}'],
        "reviewer artifact 1 is out of selected-lens order",
      ],
      [
        "an unbound manifest",
        ["--result-artifact={}"],
        "verify reviewer artifact 1: artifact manifest does not match frozen lineage, target, lens, and order",
      ],
      [
        "one artifact per selected lens, counted before any is decoded",
        ["--result-artifact=a", "--result-artifact=b"],
        `review finalize requires all 1 original reviewer artifact(s); capture each missing one with \`gentle-ai review capture-result\` ${ALL}`,
      ],
      [
        "an empty manifest file name",
        ["--result-artifact-file="],
        "read reviewer artifact manifest 1: stat : no such file or directory",
      ],
      [
        "manifest files are read before the count",
        ["--result-artifact-file=a", "--result-artifact-file=b"],
        "read reviewer artifact manifest 1: stat a: no such file or directory",
      ],
      [
        "no source reads no reviewer results",
        ["--evidence=in.txt"],
        `review finalize requires all 1 original reviewer result(s); capture each missing one with \`gentle-ai review capture-result\` ${ALL}`,
      ],
    ];
    it.each(cases)("%s", async (_name, args, text) => {
      const s = worlds[profile]();
      const repo = await repository(s, true);
      s.write(repo, "in.txt", "ok\n");
      const r = await s.run(["review", "finalize", "--cwd", repo, ...args], { cwd: repo });
      expect([r.code, r.stdoutText, r.stderrText]).toEqual([1, "", `Error: ${text}\n`]);
    });

    it("a manifest that is no regular file, and an empty one", async () => {
      const s = worlds[profile]();
      const repo = await repository(s, true);
      mkdirSync(join(repo, "dir"));
      s.write(repo, "empty.json", "");
      const dir = await s.run(["review", "finalize", "--cwd", repo, "--result-artifact-file=dir"], { cwd: repo });
      expect(dir.stderrText).toBe(
        "Error: read reviewer artifact manifest 1: artifact manifest input must be a regular file\n",
      );
      const empty = await s.run(["review", "finalize", "--cwd", repo, "--result-artifact-file=empty.json"], {
        cwd: repo,
      });
      expect(empty.stderrText).toBe("Error: decode reviewer artifact 1: EOF\n");
    });

    it("--cwd: an empty path is an untyped failure with a defect report; a missing one names its lstat", async () => {
      const s = worlds[profile]();
      const repo = await repository(s, true);
      const empty = await s.run(["review", "finalize", "--cwd="], { cwd: repo });
      const m = withDefectReport("resolve review repository root: snapshot repository path is required", repo).exec(
        empty.stderrText,
      );
      expect([empty.code, empty.stdoutText, m !== null]).toEqual([1, "", true]);
      expect(readFileSync(m![1]!, "utf8")).toContain(
        "reason_code: operation_outcome_unknown\noperation: review.finalize\nphase: native_running\n",
      );
      // The report goes to the repository at --cwd; "b" holds none, so the line ends with the error.
      const missing = await s.run(["review", "finalize", "--cwd=a", "--cwd=b"], { cwd: repo });
      expect([missing.code, missing.stderrText]).toEqual([
        1,
        `Error: resolve review repository root: lstat ${repo}/b: no such file or directory\n`,
      ]);
    });

    it("a malformed --lineage is an untyped failure with a defect report, worded by the profile's first check", async () => {
      const s = worlds[profile]();
      const repo = await repository(s, true);
      const r = await s.run(["review", "finalize", "--cwd", repo, "-lineage", "x y"], { cwd: repo });
      const text =
        profile === "2.4.0" ? LINEAGE_ID : `recover deleting staged approved compact review authority: ${LINEAGE_ID}`;
      expect(r.stderrText).toMatch(withDefectReport(text, repo));
    });
  },
);

describe("a lineage the repository does not hold", () => {
  it("2.4.0: an explicit one fails to load its state file; discovery finds nothing; both untyped", async () => {
    const s = worlds["2.4.0"]();
    const repo = await repository(s, true);
    const r = await s.run(["review", "finalize", "--cwd", repo, "--lineage=a", "--lineage=b"], { cwd: repo });
    const state = join(repo, ".git", "gentle-ai", "review-transactions", "v2", "b", "review-state.json");
    expect(r.stderrText).toMatch(
      withDefectReport(`load compact facade review lineage: open ${state}: no such file or directory`, repo),
    );
    const fresh = worlds["2.4.0"]();
    const bare = await repository(fresh, false);
    const none = await fresh.run(["review", "finalize", "--cwd", bare, "--evidence=missing"], { cwd: bare });
    const text =
      "no discoverable compact facade review lineage found; run gentle-ai review start to begin one, or pass --cwd if it was started from a different repository path";
    expect(none.stderrText).toMatch(withDefectReport(text, bare));
  });

  it("2.5.0: absent, a preflight refusal without a report", async () => {
    const s = worlds["2.5.0"]();
    const repo = await repository(s, true);
    const r = await s.run(["review", "finalize", "--cwd", repo, "--lineage=a", "--lineage=b"], { cwd: repo });
    expect(r.stderrText).toBe(
      'Error: no compact facade review lineage "b" was found; run gentle-ai review start --lineage b to begin a fresh compact review, or use gentle-ai review-resume --cwd <repo> --lineage b for explicit read-only historical compatibility\n',
    );
    const fresh = worlds["2.5.0"]();
    const bare = await repository(fresh, false);
    const none = await fresh.run(["review", "finalize", "--cwd", bare], { cwd: bare });
    expect(none.stderrText).toBe(
      "Error: no discoverable compact facade review lineage found; run gentle-ai review start to begin one, or use gentle-ai review-resume --cwd <repo> --lineage <lineage> for explicit read-only historical compatibility\n",
    );
    expect(existsSync(join(bare, ".git", "gentle-ai", "defect-reports"))).toBe(false);
  });
});
