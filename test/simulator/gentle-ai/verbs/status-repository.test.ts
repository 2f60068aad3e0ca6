// STATUS in the repository world (cli/review_facade.go runReviewStatus, review_next_transition.go:144-176,
// review_intended_untracked.go): the fresh target, the untracked selection, the empty candidate, the kill switch,
// and the lineage START created; scenarios that pin a lineage, and cwds outside a repository, keep the seeded world.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { identitiesFor, SEED_WORLD } from "../../../../simulator/state/identities.ts";
import { V2 } from "../../../support/contract.ts";
import {
  oracleIdentity,
  oracleInventoryDigest,
  oraclePathsDigest,
  oracleRepositoryRef,
  oracleStartLineage,
} from "../../../support/gentle-ai-digests.ts";
import { candidateTreeOf, git, treeOf } from "../../../support/git.ts";
import { SimWorld, simWorlds } from "../../../support/sim-world.ts";
import { json } from "../../../support/spawn-process.ts";

// Worlds as gentle-pi's client sees them, with a scenario that pins no lineage.
const sandbox = simWorlds({ client: true, scenario: { profile: "2.4.0" } });
const sandbox25 = simWorlds({ client: true, scenario: { profile: "2.5.0" } });
const STATUS = (repo: string, ...extra: string[]) => [
  "review",
  "status",
  "--cwd",
  repo,
  "--contract",
  V2,
  "--agent",
  "pi",
  "--next-transition",
  ...extra,
];

async function enabled(s: SimWorld, repo: string): Promise<void> {
  const run = await s.run(["review", "mode", "enable", "--scope", "global", "--cwd", repo, "--json"]);
  expect(run.code).toBe(0);
}

describe("repository STATUS without a lineage", () => {
  it("a clean worktree collects the base ref it cannot derive (status-v5.captured.json shape)", async () => {
    const s = sandbox();
    const repo = s.repo("r", { "app.ts": "export const value = 1;\n" });
    await enabled(s, repo);
    const run = await s.run(STATUS(repo));
    expect([run.code, run.stderrText]).toEqual([0, ""]);
    const tree = treeOf(repo);
    const identity = oracleIdentity(tree, tree, []);
    expect(json(run)).toEqual({
      schema: "gentle-ai.review-integration.status/v5",
      contract: V2,
      operation: "review.status",
      applicability: "unrelated",
      receipt: { status: "not_applicable" },
      action: "start",
      replayability: "not_replayable",
      target_identity: identity,
      projection: {
        schema: "gentle-ai.review-integration.projection/v1",
        kind: "current-changes",
        projection: "workspace",
        base_tree: tree,
        initial_review_tree: tree,
        current_candidate_tree: tree,
        paths_digest: oraclePathsDigest([]),
        paths: [],
        intended_untracked: [],
        intended_untracked_proof: "sha256:b97229718d4c7fe50a8892eb474ae5aa6491697bccb400e3e31dbaca4894d2f3",
        initial_snapshot_identity: identity,
        current_snapshot_identity: identity,
      },
      repair: {
        schema: "gentle-ai.review-authority-repair-assessment/v1",
        status: "unsupported",
        counts: {
          lineages: 0,
          compact_lineages: 0,
          legacy_lineages: 0,
          events: 0,
          bytes: 0,
          eligible_candidates: 0,
          unsupported_lineages: 0,
          conflicts: 0,
        },
        supported_operations: ["review/complete-fix", "review/validate-fix"],
        authorization_schema: "gentle-ai.review-repair-authorization/v1",
      },
      candidates: [],
      forecast: {
        horizon: "partial",
        steps: [
          {
            step: 1,
            kind: "collect",
            reason_code: "empty_candidate_base_ref_required",
            description: "empty candidate base ref required",
          },
        ],
      },
      next_transition: {
        kind: "collect",
        reason_code: "empty_candidate_base_ref_required",
        collect: {
          inputs: [
            {
              name: "base_ref",
              schema: "gentle-ai.review-base-ref-selection/v1",
              capture_operation: "external.select_base_ref",
              arguments: [
                { name: "target_identity", value: identity },
                { name: "projection", value: "workspace" },
                { name: "base_tree", value: tree },
                { name: "candidate_tree", value: tree },
              ],
            },
          ],
        },
      },
    });
  });

  it("untracked files require a selection; the inventory digest binds it", async () => {
    const s = sandbox();
    const repo = s.repo("r", { ".github/workflows/relay.yml": "name: relay\n" });
    await enabled(s, repo);
    s.write(repo, ".github/workflows/relay.yml", "name: relay\non: push\n");
    s.write(repo, "selected.txt", "selected\n");
    s.write(repo, "excluded.txt", "excluded\n");
    const doc = json(await s.run(STATUS(repo)));
    expect(doc.next_transition.reason_code).toBe("intended_untracked_selection_required");
    const input = doc.next_transition.collect.inputs[0];
    expect([input.name, input.schema, input.capture_operation]).toEqual([
      "intended_untracked_selection",
      "gentle-ai.review-intended-untracked-selection/v1",
      "external.select_intended_untracked",
    ]);
    expect(input.arguments.slice(4)).toEqual([
      { name: "eligible_paths_json", value: '["excluded.txt","selected.txt"]' },
      { name: "expected_untracked_inventory", value: oracleInventoryDigest(["excluded.txt", "selected.txt"]) },
    ]);
    // Only the tracked edit is in the candidate until a selection is declared.
    expect(doc.projection.paths).toEqual([".github/workflows/relay.yml"]);
  });

  it("a declared selection offers START, exactly bound to the selected candidate", async () => {
    const s = sandbox();
    const repo = s.repo("r", { ".github/workflows/relay.yml": "name: relay\n" });
    await enabled(s, repo);
    s.write(repo, ".github/workflows/relay.yml", "name: relay\non: push\n");
    s.write(repo, "selected.txt", "selected\n");
    s.write(repo, "excluded.txt", "excluded\n");
    const inventory = oracleInventoryDigest(["excluded.txt", "selected.txt"]);
    const selectors = [
      "--untracked-scope=select",
      `--expected-untracked-inventory=${inventory}`,
      "--intended-untracked=selected.txt",
    ];
    const doc = json(await s.run(STATUS(repo, ...selectors)));
    // The candidate tree is HEAD plus the tracked edit plus selected.txt, built without touching the real index.
    const candidate = candidateTreeOf(repo, [".github/workflows/relay.yml", "selected.txt"]);
    const base = treeOf(repo);
    const paths = [".github/workflows/relay.yml", "selected.txt"];
    const identity = oracleIdentity(base, candidate, paths);
    expect(doc.target_identity).toBe(identity);
    expect(doc.projection).toMatchObject({
      base_tree: base,
      current_candidate_tree: candidate,
      paths,
      intended_untracked: ["selected.txt"],
    });
    // Recorded from gentle-ai 2.4.0 built from 301fb2ad: while the derived lineage name is free the START names
    // none (reviewAvailableStartLineage); fb55ef7b names its worktree-and-target lineage (below).
    const tokens = [
      `--cwd=${repo}`,
      `--contract=${V2}`,
      `--target=${identity}`,
      "--projection=workspace",
      "--agent=pi",
      "--consent=relay",
      ...selectors,
    ];
    expect(doc.next_transition.kind).toBe("execute");
    expect(doc.next_transition.reason_code).toBe("fresh_target_ready");
    const execute = doc.next_transition.execute;
    expect(execute.operation).toBe("review.start");
    expect(execute.command).toBe(["gentle-ai", "review", "start", ...tokens].join(" "));
    expect(execute.arguments.map((a: { token: string }) => a.token)).toEqual(tokens);
    expect(execute.preconditions).toEqual([{ name: "target_identity", value: identity }]);
    expect(execute.binding).toEqual({ target_identity: identity });
    expect(doc.forecast.steps[0].description).toBe("Target is unreviewed and ready for initial review start");
    expect(git(repo, "diff", "--cached", "--name-only")).toBe("");
    // At 2.5.0 (fb55ef7b) the atomic route binds the START to the worktree-and-target lineage.
    const s25 = sandbox25();
    const repo25 = s25.repo("r", { ".github/workflows/relay.yml": "name: relay\n" });
    await enabled(s25, repo25);
    s25.write(repo25, ".github/workflows/relay.yml", "name: relay\non: push\n");
    s25.write(repo25, "selected.txt", "selected\n");
    s25.write(repo25, "excluded.txt", "excluded\n");
    const doc25 = json(await s25.run(STATUS(repo25, ...selectors)));
    const lineage = oracleStartLineage(oracleRepositoryRef(repo25), doc25.target_identity as string);
    expect(doc25.next_transition.execute.arguments.map((a: { token: string }) => a.token)).toEqual([
      ...tokens.slice(0, 4).map((t) => t.replace(repo, repo25).replace(identity, doc25.target_identity as string)),
      `--lineage=${lineage}`,
      ...tokens.slice(4),
    ]);
    expect(doc25.next_transition.execute.binding).toEqual({
      lineage_id: lineage,
      target_identity: doc25.target_identity,
    });
  });

  it("a stale inventory digest is refused with gentle-ai's text", async () => {
    const s = sandbox();
    const repo = s.repo("r", { "a.ts": "1\n" });
    s.write(repo, "new.txt", "x\n");
    const run = await s.run(
      STATUS(
        repo,
        "--untracked-scope=select",
        `--expected-untracked-inventory=${oracleInventoryDigest([])}`,
        "--intended-untracked=new.txt",
      ),
    );
    expect(run.code).toBe(1);
    expect(run.stderrText).toBe("Error: The negotiated review request is invalid. [invalid_request]\n");
    expect(json(run).cause).toBe(
      "untracked inventory changed; rerun `gentle-ai review status --next-transition` before selecting paths",
    );
  });

  it("while the kill switch is off the fresh target stops with rdd_disabled, even with untracked files", async () => {
    const s = sandbox();
    const repo = s.repo("r", { "a.ts": "1\n" });
    s.write(repo, "a.ts", "2\n");
    s.write(repo, "new.txt", "x\n");
    const doc = json(await s.run(STATUS(repo)));
    expect(doc.next_transition).toEqual({ kind: "stop", reason_code: "rdd_disabled" });
    expect(doc.forecast).toEqual({
      horizon: "terminal",
      steps: [{ step: 1, kind: "stop", reason_code: "rdd_disabled", description: "rdd disabled" }],
    });
  });

  it("STATUS is read-only: no lineage, no repository state, the real index untouched", async () => {
    const s = sandbox();
    const repo = s.repo("r", { "a.ts": "1\n" });
    s.write(repo, "a.ts", "2\n");
    await s.run(STATUS(repo));
    expect(existsSync(join(repo, ".git", "gentle-ai"))).toBe(false);
    expect(git(repo, "status", "--porcelain")).toBe("M a.ts");
  });
});

describe("the seeded world is unchanged", () => {
  it("a scenario that pins a lineage answers its seeded lineage inside a repository", async () => {
    const s = sandbox({ profile: "2.4.0", lineage: {} });
    const repo = s.repo("r", { "a.ts": "1\n" });
    const doc = json(await s.run(STATUS(repo), { simState: true }));
    expect(doc.applicability).toBe("current_target");
    expect(doc.authority.lineage_id).toBe(identitiesFor("gentle-relay-conformance", SEED_WORLD).lineageId);
  });

  it("a lineage-less scenario outside any repository keeps the seeded lineage", async () => {
    const s = sandbox();
    const doc = json(
      await s.run(["review", "status", "--contract", V2, "--agent", "pi", "--next-transition"], { simState: true }),
    );
    expect(doc.applicability).toBe("current_target");
  });
});
