// The lifecycle verbs on a lineage START created from a real repository: the relay's materialize call binds the
// repository's own slot subject and paths, and the capture verbs find the lineage from the repository they run in.
import { describe, expect, it } from "vitest";
import { git, json, lifecycleSandboxes, oracleIdentity, oracleRepositoryRef, oracleStartLineage, treeOf, V2 } from "./helpers.ts";

const sandbox = lifecycleSandboxes();

describe("lineage verbs in the repository world", () => {
  it("materialize binds the repository lineage's slot: its subject hash and its real changed paths", async () => {
    const s = sandbox();
    const repo = s.repo("r", { "src/app.ts": "export const value = 1;\n" });
    await s.run(["review", "mode", "enable", "--scope", "global", "--cwd", repo, "--json"]);
    s.write(repo, "src/app.ts", "export const value = 2;\n");
    const base = treeOf(repo);
    git(repo, "add", "src/app.ts");
    const candidate = git(repo, "write-tree");
    git(repo, "reset", "-q");
    const identity = oracleIdentity(base, candidate, ["src/app.ts"]);
    const lineage = oracleStartLineage(oracleRepositoryRef(repo), identity);
    const started = json(
      await s.run(["review", "start", `--cwd=${repo}`, `--contract=${V2}`, `--target=${identity}`, "--projection=workspace", `--lineage=${lineage}`, "--agent=pi", "--consent=granted"]),
    );
    // A medium-risk source edit gets the one consolidated reliability lens (risk.go SelectReviewLenses).
    expect([started.risk_level, started.selected_lenses]).toEqual(["medium", ["review-reliability"]]);
    const status = json(await s.run(["review", "status", "--cwd", repo, "--contract", V2, "--agent", "pi", "--lineage", lineage, "--next-transition"]));
    const slot = status.next_transition.collect.inputs[0];
    const tokens = slot.arguments.map((a: { token: string }) => a.token) as string[];
    expect(tokens.some((t) => t.endsWith(`=${started.artifact_subjects[0].subject_hash}`))).toBe(true);
    const materialize = await s.run(["review", "capture-result", ...tokens], { cwd: repo });
    expect([materialize.code, materialize.stderr]).toEqual([0, ""]);
    const [first, ...rest] = materialize.stdout.split("\n");
    expect(first!.startsWith("GENTLE_AI_REVIEW_BINDING ")).toBe(true);
    expect(JSON.parse(first!.slice("GENTLE_AI_REVIEW_BINDING ".length)).subject_hash).toBe(started.artifact_subjects[0].subject_hash);
    expect(rest.join("\n")).toContain("src/app.ts");
    // From outside the repository the published rctx1_ handle leads back to it (repository_locator.go
    // reviewRepositoryContextPath): the same prompt, byte for byte.
    const elsewhere = await s.run(["review", "capture-result", ...tokens], { cwd: s.dir });
    expect([elsewhere.code, elsewhere.stdout]).toEqual([0, materialize.stdout]);
  });
});
