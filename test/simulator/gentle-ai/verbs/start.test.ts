// review start against a real repository (cli/review_facade.go runReviewFacadeStart, review_consent_contract.go,
// review_start_contract.go, review_mode.go authorizeReviewStart): the consent question, the created and replayed
// lineage, the decline, the refusals, where the lineage is kept, and concurrent STARTs of one candidate.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { V2 } from "../../../support/contract.ts";
import {
  oracleContextHandle,
  oracleFreshTarget,
  oracleIdentity,
  oracleManifestDigest,
  oracleRepositoryRef,
  oracleSubjectHash,
} from "../../../support/gentle-ai-digests.ts";
import { treeOf } from "../../../support/git.ts";
import { SimWorld, simWorlds } from "../../../support/sim-world.ts";
import { json } from "../../../support/spawn-process.ts";
import { ConsentV3Schema } from "../../../../simulator/contract/consent.ts";
import { StartDeclinedSchema, StartV3Schema } from "../../../../simulator/contract/start.ts";

// Worlds as gentle-pi's client sees them, with a scenario that pins no lineage.
const sandbox = simWorlds({ client: true, scenario: { profile: "2.4.0" } });
const WORKFLOW = ".github/workflows/deploy.yml";
const STORE = [".git", "gentle-ai", "review-transactions", "gentle-ai-sim"];

/** The devtests' candidate: a workflow file grows from one line to six (a shell_source, high-risk change). */
async function workflowCandidate(
  s: SimWorld,
  enable = true,
): Promise<{ repo: string; identity: string; base: string; candidate: string; lineage: string }> {
  const repo = s.repo("r", { [WORKFLOW]: "name: x\n" });
  if (enable)
    expect((await s.run(["review", "mode", "enable", "--scope", "global", "--cwd", repo, "--json"])).code).toBe(0);
  s.write(repo, WORKFLOW, "name: x\non: push\njobs:\n  deploy:\n    steps:\n      - run: curl -s | bash\n");
  return { repo, ...oracleFreshTarget(repo, [WORKFLOW]) };
}

function startArgs(c: { repo: string; identity: string; lineage: string }, ...extra: string[]): string[] {
  return [
    "review",
    "start",
    `--cwd=${c.repo}`,
    `--contract=${V2}`,
    `--target=${c.identity}`,
    "--projection=workspace",
    `--lineage=${c.lineage}`,
    "--agent=pi",
    ...extra,
  ];
}

describe("review start", () => {
  it("--consent relay answers consent/v3: the tier's reason, its evidence, and two runnable candidate-bound answers", async () => {
    const s = sandbox();
    const c = await workflowCandidate(s);
    const run = await s.run(startArgs(c, "--consent=relay"));
    expect([run.code, run.stderrText]).toEqual([0, ""]);
    ConsentV3Schema.parse(json(run));
    const stem = `gentle-ai review start --contract ${V2} --cwd ${c.repo} --target ${c.identity} --projection workspace --agent pi --lineage ${c.lineage}`;
    expect(json(run)).toEqual({
      schema: "gentle-ai.review-integration.consent/v3",
      contract: V2,
      operation: "review.start",
      action: "consent_required",
      agent: "pi",
      blocking: true,
      target_identity: c.identity,
      projection: "workspace",
      risk_level: "high",
      changed_files: 1,
      changed_lines: 5,
      headline: "Gentle AI can review this change before you call it done.",
      reason: `this change gets a deeper review because it touches shell scripting in ${WORKFLOW}.`,
      value: "Reviewing takes a bit longer, and it makes the result substantially safer.",
      risk_evidence: [`shell scripting in ${WORKFLOW}`],
      choices: [
        {
          answer: "granted",
          label: "Run the review now",
          effect:
            "Reviews this exact frozen candidate now; nothing is granted for later candidates, so each later medium- or high-risk candidate asks again.",
          invocation: `${stem} --consent granted`,
        },
        {
          answer: "declined",
          label: "Not now, just this once",
          effect:
            "Skips the review for this exact candidate only; no review lineage or receipt is created, and ordinary delivery is unmanaged by candidate choice. The next candidate is asked again. This is not the kill switch.",
          invocation: `${stem} --consent declined`,
        },
      ],
      off_path: {
        note: "To turn reviews off for good, run 'gentle-ai review mode disable'.",
        command: "gentle-ai review mode disable",
      },
    });
    expect(existsSync(join(c.repo, ...STORE))).toBe(false);
  });

  it("the granted answer creates the lineage: start/v3 bound to the frozen trees, manifest and subjects", async () => {
    const s = sandbox();
    const c = await workflowCandidate(s);
    const consent = json(await s.run(startArgs(c, "--consent=relay")));
    const granted = consent.choices[0].invocation.split(" ").slice(1) as string[];
    const run = await s.run(granted);
    expect([run.code, run.stderrText]).toEqual([0, ""]);
    const doc = json(run);
    StartV3Schema.parse(doc);
    const manifest = [
      {
        path: WORKFLOW,
        status: "M",
        old_mode: "100644",
        new_mode: "100644",
        deleted: false,
        type_changed: false,
        mode_only: false,
        intended_untracked: false,
      },
    ];
    const manifestDigest = oracleManifestDigest(manifest);
    const revision = doc.repository_context.revision as string;
    expect(revision).toMatch(/^sha256:[0-9a-f]{64}$/);
    const lenses = ["review-risk", "review-resilience", "review-readability", "review-reliability"];
    expect(doc).toEqual({
      schema: "gentle-ai.review-integration.start/v3",
      contract: V2,
      operation: "review.start",
      action: "created",
      lenses_required: true,
      lineage_id: c.lineage,
      state: "reviewing",
      risk_level: "high",
      selected_lenses: lenses,
      projection: "workspace",
      base_tree: c.base,
      candidate_tree: c.candidate,
      changed_files: 1,
      changed_lines: 5,
      correction_budget: 3,
      risk_reasons: [{ code: "shell_source", signal: "shell_process", path: WORKFLOW }],
      artifact_subjects: lenses.map((lens, order) => {
        const subject = {
          lineage_id: c.lineage,
          authority_revision: revision,
          target_identity: c.identity,
          base_tree: c.base,
          candidate_tree: c.candidate,
          changed_path_manifest_sha256: manifestDigest,
          lens,
          selected_order: order,
        };
        return {
          schema: "gentle-ai.review-artifact-subject/v2",
          subject_hash: oracleSubjectHash(subject),
          lineage_id: c.lineage,
          authority_revision: revision,
          target_identity: c.identity,
          base_tree: c.base,
          candidate_tree: c.candidate,
          changed_path_manifest_sha256: manifestDigest,
          lens,
          selected_order: order,
        };
      }),
      changed_path_manifest: manifest,
      repository_context: {
        capability: "review.opaque_repository_context",
        handle: oracleContextHandle(c.lineage, c.identity, revision, oracleRepositoryRef(c.repo)),
        revision,
        target_identity: c.identity,
        // Recorded from gentle-ai 2.4.0 built from 301fb2ad: START reports its repository-context event (the event id
        // itself is an inferred hash); fb55ef7b's atomic START prints none.
        event_id: expect.stringMatching(/^sha256:[0-9a-f]{64}$/) as string,
        outcome: "applied",
      },
    });
    // Without GENTLE_AI_SIM_STATE the lineage lives under the clone's Git common directory, and the handle is
    // published under HOME (repository_locator.go reviewRepositoryContextPath).
    expect(readdirSync(join(c.repo, ...STORE))).toEqual([c.lineage]);
    const published = JSON.parse(
      readFileSync(
        join(s.home, ".gentle-ai", "review-contexts", "v1", `${doc.repository_context.handle}.json`),
        "utf8",
      ),
    );
    expect(published).toMatchObject({
      schema: "gentle-ai.review-repository-context/v1",
      lineage_id: c.lineage,
      repository_root: c.repo,
    });
    // The same candidate resumes the same lineage.
    expect(json(await s.run(granted)).action).toBe("resumed");
  });

  it("the lineage then answers STATUS with its real projection and tier", async () => {
    const s = sandbox();
    const c = await workflowCandidate(s);
    await s.run(startArgs(c, "--consent=granted"));
    const doc = json(
      await s.run([
        "review",
        "status",
        "--cwd",
        c.repo,
        "--contract",
        V2,
        "--agent",
        "pi",
        "--lineage",
        c.lineage,
        "--next-transition",
      ]),
    );
    expect(doc.applicability).toBe("current_target");
    expect(doc.authority.lineage_id).toBe(c.lineage);
    expect(doc.authority.state).toBe("reviewing");
    expect(doc.target_identity).toBe(c.identity);
    expect(doc.frozen).toEqual({ tier: "high", original_changed_lines: 5, correction_budget: 3 });
    expect(doc.projection).toMatchObject({
      base_tree: c.base,
      initial_review_tree: c.candidate,
      paths: [WORKFLOW],
      initial_snapshot_identity: c.identity,
    });
    expect(doc.next_transition.reason_code).toBe("reviewer_results_required");
    expect(doc.next_transition.collect.inputs).toHaveLength(4);
  });

  it("the declined answer reports the typed decline and creates nothing (start-v3-consent-declined shape)", async () => {
    const s = sandbox();
    const c = await workflowCandidate(s);
    const run = await s.run(startArgs(c, "--consent=declined"));
    expect([run.code, run.stderrText]).toEqual([0, ""]);
    StartDeclinedSchema.parse(json(run));
    expect(json(run)).toEqual({
      operation: "review/start",
      action: "declined",
      lenses_required: false,
      lineage_id: "",
      state: "",
      risk_level: "high",
      selected_lenses: [],
      lens_bindings: [],
      projection: "workspace",
      target_identity: c.identity,
      changed_files: 1,
      changed_lines: 5,
      correction_budget: 0,
      risk_evidence: [`shell scripting in ${WORKFLOW}`],
      consent: "declined_this_candidate",
    });
    expect(existsSync(join(c.repo, ...STORE))).toBe(false);
    const status = json(
      await s.run(["review", "status", "--cwd", c.repo, "--contract", V2, "--agent", "pi", "--next-transition"]),
    );
    expect([status.applicability, status.receipt.status, status.authority]).toEqual([
      "unrelated",
      "not_applicable",
      undefined,
    ]);
  });

  it("with GENTLE_AI_SIM_STATE set the lineage lives under the state folder, not in the repository", async () => {
    const s = sandbox();
    const c = await workflowCandidate(s);
    expect(json(await s.run(startArgs(c, "--consent=granted"), { simState: true })).action).toBe("created");
    expect(existsSync(join(c.repo, ...STORE))).toBe(false);
    const key = oracleRepositoryRef(c.repo).replace("sha256:", "");
    expect(readdirSync(join(s.stateDir, "repositories", key))).toContain(c.lineage);
  });

  it("concurrent STARTs of one candidate create one lineage and replay it", async () => {
    const s = sandbox();
    const c = await workflowCandidate(s);
    const runs = await Promise.all([1, 2, 3].map(() => s.run(startArgs(c, "--consent=granted"))));
    expect(runs.map((r) => r.code)).toEqual([0, 0, 0]);
    // Recorded from gentle-ai 2.4.0 built from 301fb2ad: a repeated START resumes (fb55ef7b answers "replayed").
    expect(runs.map((r) => json(r).action).sort()).toEqual(["created", "resumed", "resumed"]);
    expect(readdirSync(join(c.repo, ...STORE))).toEqual([c.lineage]);
  });

  it("a target that no longer matches the workspace is stale_target_identity", async () => {
    const s = sandbox();
    const c = await workflowCandidate(s);
    s.write(c.repo, WORKFLOW, "name: moved\n");
    const run = await s.run(startArgs(c, "--consent=granted"));
    expect(run.code).toBe(1);
    expect(run.stderrText).toBe(
      "Error: The negotiated review request no longer matches the live workspace snapshot; re-derive the exact next transition before retrying. [stale_target_identity]\n",
    );
    expect(json(run)).toMatchObject({
      schema: "gentle-ai.review-integration.failure/v2",
      operation: "review.start",
      phase: "preflight",
      code: "stale_target_identity",
      mutation_outcome: "not_started",
      lineage_id: c.lineage,
      next_action: "review.status",
      cause: "review start target does not match the freshly built snapshot",
    });
  });

  it("an empty candidate is empty_candidate_scope and names base_ref", async () => {
    const s = sandbox();
    const repo = s.repo("r", { "app.ts": "export const value = 1;\n" });
    const tree = treeOf(repo);
    const identity = oracleIdentity(tree, tree, []);
    const run = await s.run([
      "review",
      "start",
      `--cwd=${repo}`,
      `--contract=${V2}`,
      `--target=${identity}`,
      "--projection=workspace",
      "--consent=relay",
    ]);
    expect(run.code).toBe(1);
    expect(run.stderrText).toBe(
      "Error: The review candidate has no pending changes to freeze; name the base to compare against before retrying. [empty_candidate_scope]\n",
    );
    expect(json(run)).toMatchObject({
      code: "empty_candidate_scope",
      required_inputs: ["base_ref"],
      next_action: "correct_request",
      cause:
        "the candidate has no pending changes; already-committed work can be reviewed by rerunning review start with --base-ref <commit> naming the base to compare against",
    });
  });

  it("the kill switch refuses START before anything is persisted (rdd_disabled)", async () => {
    const s = sandbox();
    const c = await workflowCandidate(s, false);
    const run = await s.run(startArgs(c, "--consent=granted"));
    expect(run.code).toBe(1);
    expect(run.stderrText).toBe(
      "Error: Receipt-driven development is disabled; this operation never started. [rdd_disabled]\n",
    );
    expect(json(run)).toMatchObject({
      phase: "pre_native",
      code: "rdd_disabled",
      retry_safe: false,
      next_action: "stop",
      cause:
        "receipt-driven development is disabled: start is rejected because the default mode source keeps it off; turn reviews on with gentle-ai review mode enable --scope=global",
    });
    expect(existsSync(join(c.repo, ...STORE))).toBe(false);
  });

  it("undeclared untracked files refuse START with the exact declaration to rerun", async () => {
    const s = sandbox();
    const c = await workflowCandidate(s);
    s.write(c.repo, "notes.txt", "x\n");
    const run = await s.run(startArgs(c, "--consent=granted"));
    expect(run.code).toBe(1);
    const cause = json(run).cause as string;
    expect(cause).toMatch(
      /^untracked files require an explicit declaration; run `gentle-ai review status --next-transition`, then rerun with --untracked-scope=exclude --expected-untracked-inventory=sha256:[0-9a-f]{64} or --untracked-scope=select --intended-untracked=<repo-relative-path> --expected-untracked-inventory=sha256:[0-9a-f]{64}$/,
    );
  });

  it("the binding checks of a negotiated START (validateReviewStartBinding)", async () => {
    const s = sandbox();
    const c = await workflowCandidate(s);
    const missing = await s.run(["review", "start", `--cwd=${c.repo}`, `--contract=${V2}`, "--projection=workspace"]);
    expect(json(missing).cause).toBe(
      "negotiated review start requires exactly one --contract, --target, and --projection",
    );
    const consent = await s.run(startArgs(c, "--consent=maybe"));
    expect(json(consent).cause).toBe(
      "review start --consent accepts exactly relay, granted, or declined; rerun gentle-ai review start with one of those values",
    );
    const plain = await s.run(["review", "start", `--cwd=${c.repo}`, `--target=${c.identity}`]);
    expect([plain.code, plain.stdoutText, plain.stderrText]).toEqual([
      1,
      "",
      "Error: review start --target requires --contract gentle-ai.review-integration/v1\n",
    ]);
  });
});

// The plain START's refusals of its own inputs, as gentle-ai 2.4.0 (301fb2ad) and 2.5.0 (fb55ef7b) print them
// (recorded through `relay-conformance diff`, golden/diff/flags-start.txtar). An untyped one names its defect report.
const NOTICE =
  "Gentle AI reviewed this change without asking, because this session has no terminal to answer on. Run 'gentle-ai review mode disable' to turn reviews off, or 'gentle-ai review mode status' to see the current setting.\n";
const DEFECT =
  / A defect report was saved at \S+\/operation-outcome-unknown-[0-9a-f]{12}\.md -- file it at https:\/\/github\.com\/Gentleman-Programming\/gentle-ai\/issues\/new\/choose\.\n$/;

/** The stderr of a plain START in the candidate's repository, without its defect-report clause (asserted present). */
async function plainStartError(s: SimWorld, repo: string, ...flags: string[]): Promise<string> {
  const run = await s.run(["review", "start", ...flags], { cwd: repo });
  expect([run.code, run.stdoutText]).toEqual([1, ""]);
  expect(run.stderrText).toMatch(DEFECT);
  return run.stderrText.replace(DEFECT, "");
}

describe("review start: the plain form's input refusals (real 2.4.0 and 2.5.0 bytes)", () => {
  it("a blank --cwd names no repository, for START and for the plain STATUS", async () => {
    const s = sandbox();
    const c = await workflowCandidate(s);
    expect(await plainStartError(s, c.repo, "--cwd=")).toBe(
      "Error: resolve review repository root: snapshot repository path is required",
    );
    const status = await s.run(["review", "status", "--cwd= "], { cwd: c.repo });
    expect([status.code, status.stdoutText, status.stderrText]).toEqual([
      1,
      "",
      "Error: resolve review repository root: snapshot repository path is required\n",
    ]);
  });

  it("an unsupported --contract, even empty, is validateReviewIntegrationContract's untyped error", async () => {
    const s = sandbox();
    const c = await workflowCandidate(s);
    expect(await plainStartError(s, c.repo, `--cwd=${c.repo}`, "-contract=")).toBe(
      `Error: unsupported review integration contract ""; retry with gentle-ai review capabilities --contract gentle-ai.review-integration/v1 or gentle-ai review capabilities --contract ${V2}`,
    );
  });

  it("--base-ref over dirty tracked files needs --committed-only; --workspace-overlay needs a workspace --base-ref", async () => {
    const s = sandbox();
    const c = await workflowCandidate(s);
    expect(await plainStartError(s, c.repo, `--cwd=${c.repo}`, "--base-ref=no such ref")).toBe(
      "Error: review start with --base-ref omits dirty tracked changes; rerun with --committed-only to acknowledge committed-only review scope",
    );
    for (const flags of [
      ["--workspace-overlay"],
      ["--workspace-overlay", "--base-ref=HEAD", "--committed-only"],
      ["--workspace-overlay", "--base-ref=HEAD", "--projection=staged"],
    ])
      expect(await plainStartError(s, c.repo, `--cwd=${c.repo}`, ...flags)).toBe(
        "Error: --workspace-overlay requires --base-ref with workspace projection and is incompatible with --committed-only",
      );
  });

  it("2.4.0: an unreadable --policy and a non-canonical --lineage are untyped, after the notice", async () => {
    const s = sandbox();
    const c = await workflowCandidate(s);
    expect(await plainStartError(s, c.repo, `--cwd=${c.repo}`, "--policy=x y")).toBe(
      `${NOTICE}Error: read facade review policy: open x y: no such file or directory`,
    );
    expect(await plainStartError(s, c.repo, `--cwd=${c.repo}`, "--policy=.")).toBe(
      "Error: read facade review policy: read .: is a directory",
    );
    expect(await plainStartError(s, c.repo, `--cwd=${c.repo}`, "--lineage=x y")).toBe(
      "Error: create compact facade review: lineage_id must be a canonical lowercase kebab-case identifier of at most 128 bytes",
    );
  });

  it("2.5.0: the same two refusals are preflight errors of the atomic START, the policy path trimmed", async () => {
    const s = sandbox({ profile: "2.5.0" });
    const c = await workflowCandidate(s);
    const policy = await s.run(["review", "start", `--cwd=${c.repo}`, "--policy= x y "], { cwd: c.repo });
    expect([policy.code, policy.stdoutText, policy.stderrText]).toEqual([
      1,
      "",
      `${NOTICE}Error: prepare compact atomic facade review: read facade review policy: open x y: no such file or directory\n`,
    ]);
    const lineage = await s.run(["review", "start", `--cwd=${c.repo}`, "--lineage=X"], { cwd: c.repo });
    expect(lineage.stderrText).toBe(
      "Error: prepare compact atomic facade review: build compact atomic START state: lineage_id must be a canonical lowercase kebab-case identifier of at most 128 bytes\n",
    );
  });

  it("2.4.0: an unstored --lineage resumes the lineage already reviewing the candidate; 2.5.0 creates it", async () => {
    for (const [profile, action, lineage] of [
      ["2.4.0", "resumed", "first"],
      ["2.5.0", "created", "second"],
    ] as const) {
      const s = sandbox({ profile });
      const c = await workflowCandidate(s);
      expect(json(await s.run(["review", "start", `--cwd=${c.repo}`, "--lineage=first"])).action).toBe("created");
      const second = json(await s.run(["review", "start", `--cwd=${c.repo}`, "--lineage=second"]));
      expect([second.action, second.lineage_id]).toEqual([action, lineage]);
    }
  });
});

describe("review start: the transport capability admission of a claimed --agent (real 2.4.0 and 2.5.0 bytes)", () => {
  // These worlds export the relay handshake (a client's view), so pi is among the supported runtimes.
  const GUIDANCE =
    "; exit receipt-driven review with `gentle-ai review mode disable --scope clone --cwd <repo>`; supported immutable review runtimes: claude-code, opencode, codex, pi\n";

  it("an agent with no capability manifest is refused before the contract is looked at", async () => {
    for (const profile of ["2.4.0", "2.5.0"] as const) {
      const s = sandbox({ profile });
      const c = await workflowCandidate(s);
      const run = await s.run(["review", "start", `--cwd=${c.repo}`, "-agent=PI"]);
      expect([run.code, run.stdoutText, run.stderrText]).toEqual([
        1,
        "",
        `Error: unrecognised review runtime capability claim for "PI": unsupported agent capability manifest: "PI"${GUIDANCE}`,
      ]);
    }
  });

  it("2.5.0: a manifest agent other than the four transports is dormant; 2.4.0 lets it reach the binding check", async () => {
    const dormant = sandbox({ profile: "2.5.0" });
    const c5 = await workflowCandidate(dormant);
    expect((await dormant.run(["review", "start", `--cwd=${c5.repo}`, "--agent= cursor "])).stderrText).toBe(
      `Error: runtime "cursor" does not advertise review transport capability${GUIDANCE}`,
    );
    const advertised = sandbox();
    const c4 = await workflowCandidate(advertised);
    expect((await advertised.run(["review", "start", `--cwd=${c4.repo}`, "--agent= cursor "])).stderrText).toBe(
      "Error: review start --agent requires a negotiated --contract\n",
    );
  });
});

describe("the kill switch over a started repository lineage", () => {
  // gentle-ai 2.4.0 (301fb2ad) and 2.5.0 (fb55ef7b) name the source that keeps review off (rdd_mode.go:214-229);
  // the texts are the real builds' (golden/diff/lifecycle-mode.txtar, found by diff --generated at seed 1).
  const refused = (source: string, enable: string): string =>
    `Error: receipt-driven development is disabled: advancing an existing review is rejected because the ${source} mode source keeps it off; the review is frozen, not discarded; turn reviews on with ${enable} to continue it from where it stopped\n`;

  it("FINALIZE names global after a global disable, clone_local after a clone disable", async () => {
    const s = sandbox();
    const c = await workflowCandidate(s);
    expect((await s.run(startArgs(c, "--consent=granted"))).code).toBe(0);
    const finalize = ["review", "finalize", "--cwd", c.repo];
    expect((await s.run(["review", "mode", "disable", "--cwd", c.repo])).code).toBe(0);
    const global = await s.run(finalize);
    expect([global.code, global.stderrText]).toEqual([
      1,
      refused("global", "gentle-ai review mode enable --scope=global"),
    ]);
    expect((await s.run(["review", "mode", "enable", "--cwd", c.repo])).code).toBe(0);
    expect((await s.run(["review", "mode", "disable", "--scope", "clone", "--cwd", c.repo])).code).toBe(0);
    const clone = await s.run(finalize);
    expect([clone.code, clone.stderrText]).toEqual([
      1,
      refused(
        "clone_local",
        "gentle-ai review mode enable --scope=global then gentle-ai review mode enable --scope=clone",
      ),
    ]);
  });
});
