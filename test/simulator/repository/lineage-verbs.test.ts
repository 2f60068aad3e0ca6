// The lifecycle verbs on a lineage START created from a real repository: the relay's materialize call binds the
// repository's own slot subject and paths, and the capture verbs find the lineage from the repository they run in.
import { realpathSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { V2 } from "../../support/contract.ts";
import { oracleFixDiffIdentity, oracleFreshTarget } from "../../support/gentle-ai-digests.ts";
import { candidateTreeOf, git } from "../../support/git.ts";
import { SimWorld, simWorlds } from "../../support/sim-world.ts";
import { json } from "../../support/spawn-process.ts";

// Worlds as gentle-pi's client sees them, with a scenario that pins no lineage.
const sandbox = simWorlds({ client: true, scenario: { profile: "2.4.0" } });
const sandbox25 = simWorlds({ client: true, scenario: { profile: "2.5.0" } });

/** A started one-lens lineage over an edit of src/app.ts, and its reviewer slot's capture tokens. */
async function startedLineage(
  s: SimWorld,
): Promise<{ repo: string; lineage: string; subject: string; tokens: string[] }> {
  const repo = s.repo("r", { "src/app.ts": "export const value = 1;\n" });
  await s.run(["review", "mode", "enable", "--scope", "global", "--cwd", repo, "--json"]);
  s.write(repo, "src/app.ts", "export const value = 2;\n");
  const { identity, lineage } = oracleFreshTarget(repo, ["src/app.ts"]);
  const started = json(
    await s.run([
      "review",
      "start",
      `--cwd=${repo}`,
      `--contract=${V2}`,
      `--target=${identity}`,
      "--projection=workspace",
      `--lineage=${lineage}`,
      "--consent=granted",
    ]),
  );
  const status = json(
    await s.run(["review", "status", "--cwd", repo, "--contract", V2, "--lineage", lineage, "--next-transition"]),
  );
  const tokens = status.next_transition.collect.inputs[0].arguments.map((a: { token: string }) => a.token) as string[];
  return { repo, lineage, subject: started.artifact_subjects[0].subject_hash, tokens };
}

/**
 * A negotiated START by pi (`--agent=pi`) over `edit` as the new src/app.ts: the repository, lineage and START answer.
 */
async function startedForPi(
  s: SimWorld,
  edit: string,
): Promise<{ repo: string; lineage: string; started: ReturnType<typeof json> }> {
  const repo = s.repo("r", { "src/app.ts": "export const value = 1;\n" });
  await s.run(["review", "mode", "enable", "--scope", "global", "--cwd", repo, "--json"]);
  s.write(repo, "src/app.ts", edit);
  const { identity, lineage } = oracleFreshTarget(repo, ["src/app.ts"]);
  const start = [
    "review",
    "start",
    `--cwd=${repo}`,
    `--contract=${V2}`,
    `--target=${identity}`,
    "--projection=workspace",
    `--lineage=${lineage}`,
    "--agent=pi",
    "--consent=granted",
  ];
  return { repo, lineage, started: json(await s.run(start)) };
}

/** Captures one reviewer result for the slot, with the given findings. */
async function capture(
  s: SimWorld,
  l: { repo: string; subject: string; tokens: string[] },
  findings: object[],
): Promise<void> {
  const result = {
    subject_hash: l.subject,
    inspection: { status: "completed", paths: ["src/app.ts"] },
    findings,
    evidence: ["inspected src/app.ts:1"],
  };
  s.write(s.dir, "result.json", JSON.stringify(result));
  const r = await s.run(["review", "capture-result", ...l.tokens, `--input=${s.dir}/result.json`], { cwd: l.repo });
  expect([r.code, r.stderrText]).toEqual([0, ""]);
}

/**
 * A clean review of the lineage through passed verification evidence to approval: FINALIZE's answer and the evidence
 * hash.
 */
async function approve(
  s: SimWorld,
  l: { repo: string; lineage: string; subject: string; tokens: string[] },
): Promise<{ fin: Awaited<ReturnType<SimWorld["run"]>>; evidenceHash: string }> {
  await capture(s, l, []);
  await s.run(["review", "finalize", `--lineage=${l.lineage}`, "--captured-results=true"], { cwd: l.repo });
  s.write(s.dir, "evidence.txt", "ok 1 - npm test: 12 passed\n");
  const st = json(
    await s.run(["review", "status", "--cwd", l.repo, "--contract", V2, "--lineage", l.lineage, "--next-transition"]),
  );
  const sub = st.next_transition.collect.inputs[0].submission;
  const argv = (sub.argument_tokens as string[]).map((t) =>
    t.replace("{{outcome}}", "passed").replace("{{input}}", `${s.dir}/evidence.txt`),
  );
  const evidence = await s.run(["review", sub.operation_token, ...argv], { cwd: l.repo });
  expect(evidence.code).toBe(0);
  const fin = await s.run(["review", "finalize", `--lineage=${l.lineage}`, "--captured-evidence=true"], {
    cwd: l.repo,
  });
  return { fin, evidenceHash: json(evidence).raw_payload_sha256 };
}

const BLOCKER = {
  location: "src/app.ts:1",
  severity: "BLOCKER",
  claim: "the new value breaks the caller",
  proof_refs: ["src/app.ts:1"],
  evidence_class: "deterministic",
  causal_disposition: "introduced",
};

describe("lineage verbs in the repository world", () => {
  it("materialize binds the repository lineage's slot: its subject hash and its real changed paths", async () => {
    const s = sandbox();
    const { repo, lineage, started } = await startedForPi(s, "export const value = 2;\n");
    // A medium-risk source edit gets the one consolidated reliability lens (risk.go SelectReviewLenses).
    expect([started.risk_level, started.selected_lenses]).toEqual(["medium", ["review-reliability"]]);
    const status = json(
      await s.run([
        "review",
        "status",
        "--cwd",
        repo,
        "--contract",
        V2,
        "--agent",
        "pi",
        "--lineage",
        lineage,
        "--next-transition",
      ]),
    );
    const slot = status.next_transition.collect.inputs[0];
    const tokens = slot.arguments.map((a: { token: string }) => a.token) as string[];
    expect(tokens.some((t) => t.endsWith(`=${started.artifact_subjects[0].subject_hash}`))).toBe(true);
    const materialize = await s.run(["review", "capture-result", ...tokens], { cwd: repo });
    expect([materialize.code, materialize.stderrText]).toEqual([0, ""]);
    const [first, ...rest] = materialize.stdoutText.split("\n");
    expect(first!.startsWith("GENTLE_AI_REVIEW_BINDING ")).toBe(true);
    expect(JSON.parse(first!.slice("GENTLE_AI_REVIEW_BINDING ".length)).subject_hash).toBe(
      started.artifact_subjects[0].subject_hash,
    );
    expect(rest.join("\n")).toContain("src/app.ts");
    // From outside the repository the published rctx1_ handle leads back to it (repository_locator.go
    // reviewRepositoryContextPath): the same prompt, byte for byte.
    const elsewhere = await s.run(["review", "capture-result", ...tokens], { cwd: s.dir });
    expect([elsewhere.code, elsewhere.stdoutText]).toEqual([0, materialize.stdoutText]);
  });

  it("FINALIZE decides by the captured findings: a corroborated deterministic BLOCKER opens the correction (compact.go:1290-1379)", async () => {
    const s = sandbox();
    const l = await startedLineage(s);
    await capture(s, l, [BLOCKER]);
    const finalized = json(
      await s.run(["review", "finalize", `--lineage=${l.lineage}`, "--captured-results=true"], { cwd: l.repo }),
    );
    expect(finalized.state).toBe("correction_required");
    const status = json(
      await s.run(["review", "status", "--cwd", l.repo, "--contract", V2, "--lineage", l.lineage, "--next-transition"]),
    );
    expect(status.next_transition.reason_code).toBe("correction_plan_required");
    // The reliability lens numbers its findings R3- (reviewer_envelope.go:151); proof is proof_refs joined.
    expect(status.next_transition.correction_request.fix_finding_ids).toEqual(["R3-001"]);
    expect(status.next_transition.correction_request.findings[0]).toMatchObject({
      ...BLOCKER,
      id: "R3-001",
      lens: "reliability",
      evidence: "src/app.ts:1",
    });
  });

  it("a correction applied in the workspace is the corrected candidate; its fix-diff identity binds the fix ledger", async () => {
    const s = sandbox();
    const l = await startedLineage(s);
    await capture(s, l, [BLOCKER]);
    await s.run(["review", "finalize", `--lineage=${l.lineage}`, "--captured-results=true"], { cwd: l.repo });
    const plan = json(
      await s.run(["review", "status", "--cwd", l.repo, "--contract", V2, "--lineage", l.lineage, "--next-transition"]),
    );
    // The provider-owned submission: its operation token and argument tokens with the value substituted.
    const submission = plan.next_transition.collect.inputs[0].submission;
    const forecast = (submission.argument_tokens as string[]).map((t) => t.replace("{{value}}", "1"));
    const planned = await s.run(["review", submission.operation_token, ...forecast], { cwd: l.repo });
    expect([planned.code, planned.stderrText]).toEqual([0, ""]);
    const waiting = json(
      await s.run(["review", "status", "--cwd", l.repo, "--contract", V2, "--lineage", l.lineage, "--next-transition"]),
    );
    expect(waiting.next_transition.reason_code).toBe("corrected_candidate_unavailable");
    s.write(l.repo, "src/app.ts", "export const value = 3;\n");
    const corrected = json(
      await s.run(["review", "status", "--cwd", l.repo, "--contract", V2, "--lineage", l.lineage, "--next-transition"]),
    );
    // A validation request exists and no evidence is captured yet (review_next_transition.go:252-258).
    expect(corrected.next_transition.reason_code).toBe("correction_repository_verification_required");
    // snapshotIdentityForProjection(fix-diff, frozen candidate → corrected candidate, [R3-001]) (snapshot.go:1524).
    const frozenTree = plan.projection.initial_review_tree as string;
    const correctedTree = candidateTreeOf(l.repo, ["src/app.ts"]);
    const fixDiff = oracleFixDiffIdentity(frozenTree, correctedTree, ["src/app.ts"], ["R3-001"]);
    expect(corrected.validation_request.correction_target_identity).toBe(fixDiff);
    expect(
      corrected.next_transition.collect.inputs[0].arguments.find((a: { name: string }) => a.name === "target").value,
    ).toBe(fixDiff);
  });

  it("FINALIZE without --lineage finds the live lineage, and with no result source refuses by its lens count (recorded from 301fb2ad and fb55ef7b)", async () => {
    const s = sandbox();
    const l = await startedLineage(s);
    const r = await s.run(["review", "finalize", "--cwd", l.repo]);
    expect([r.code, r.stdoutText, r.stderrText]).toEqual([
      1,
      "",
      "Error: review finalize requires all 1 original reviewer result(s); capture each missing one with `gentle-ai review capture-result` (see `gentle-ai review status --cwd <repo> --contract gentle-ai.review-integration/v1 --next-transition` for the exact lineage/target/lens/order bindings)\n",
    ]);
  });

  it("without a severe finding the review asks for final verification (validating), not approval", async () => {
    const s = sandbox();
    const l = await startedLineage(s);
    await capture(s, l, []);
    const finalized = json(
      await s.run(["review", "finalize", `--lineage=${l.lineage}`, "--captured-results=true"], { cwd: l.repo }),
    );
    expect(finalized.state).toBe("validating");
  });

  it("at 2.5.0 a lineage governs its live target; a selector-free --next-transition is Go's fresh START target (review_facade.go:977-984)", async () => {
    const s = sandbox25();
    const l = await startedLineage(s);
    const assessed = json(await s.run(["review", "status", "--cwd", l.repo, "--contract", V2]));
    expect([assessed.applicability, assessed.authority.lineage_id, assessed.action]).toEqual([
      "current_target",
      l.lineage,
      "finalize",
    ]);
    const fresh = json(await s.run(["review", "status", "--cwd", l.repo, "--contract", V2, "--next-transition"]));
    expect([fresh.applicability, fresh.authority, fresh.next_transition.reason_code]).toEqual([
      "unrelated",
      undefined,
      "fresh_target_ready",
    ]);
    // The START it offers is bound to the worktree's atomic lineage, which the created lineage already is.
    expect(fresh.next_transition.execute.binding.lineage_id).toBe(l.lineage);
  });

  it("at 2.4.0 the lineage governs a selector-free --next-transition too (recorded from gentle-ai 2.4.0 built from 301fb2ad)", async () => {
    const s = sandbox();
    const l = await startedLineage(s);
    const next = json(await s.run(["review", "status", "--cwd", l.repo, "--contract", V2, "--next-transition"]));
    expect([next.applicability, next.authority.lineage_id, next.action, next.next_transition.reason_code]).toEqual([
      "current_target",
      l.lineage,
      "finalize",
      "reviewer_results_required",
    ]);
  });

  it("an explicit reviewing lineage over a drifted workspace resumes its frozen candidate (target_status.go:236-251, 573-577)", async () => {
    const s = sandbox();
    const l = await startedLineage(s);
    const before = json(
      await s.run(["review", "status", "--cwd", l.repo, "--contract", V2, "--lineage", l.lineage, "--next-transition"]),
    );
    s.write(l.repo, "src/app.ts", "export const value = 99;\n");
    const drifted = json(
      await s.run(["review", "status", "--cwd", l.repo, "--contract", V2, "--lineage", l.lineage, "--next-transition"]),
    );
    expect([drifted.applicability, drifted.target_identity, drifted.projection.current_snapshot_identity]).toEqual([
      "current_target",
      before.target_identity,
      before.target_identity,
    ]);
    expect(drifted.next_transition.reason_code).toBe("reviewer_results_required");
    // Without the explicit selector nothing governs the drifted workspace.
    const unselected = json(await s.run(["review", "status", "--cwd", l.repo, "--contract", V2]));
    expect([unselected.applicability, unselected.action]).toEqual(["unrelated", "start"]);
  });
});

describe("lineage verbs in the repository world, against real gentle-ai bytes", () => {
  it("the prompt's patch block is the candidate's real tree diff (real 2.4.0 301fb2ad / 2.5.0 fb55ef7b bytes)", async () => {
    const s = sandbox();
    const { repo, lineage } = await startedForPi(
      s,
      "export const value = 2;\nexport function login(user: string): boolean {\n  return user.length > 0;\n}\n",
    );
    const status = json(
      await s.run([
        "review",
        "status",
        "--cwd",
        repo,
        "--contract",
        V2,
        "--agent",
        "pi",
        "--lineage",
        lineage,
        "--next-transition",
      ]),
    );
    const tokens = status.next_transition.collect.inputs[0].arguments.map(
      (a: { token: string }) => a.token,
    ) as string[];
    const prompt = (await s.run(["review", "capture-result", ...tokens], { cwd: repo })).stdoutText;
    // The real binaries printed exactly this tail for this edit (git blob ids follow the content alone).
    expect(prompt.slice(prompt.indexOf("GENTLE_AI_REVIEW_NAME_STATUS\n"))).toBe(
      [
        "GENTLE_AI_REVIEW_NAME_STATUS",
        "M\tsrc/app.ts",
        "GENTLE_AI_REVIEW_NAME_STATUS_END",
        "GENTLE_AI_REVIEW_NUMSTAT",
        "4\t1\tsrc/app.ts",
        "GENTLE_AI_REVIEW_NUMSTAT_END",
        "GENTLE_AI_REVIEW_PATCH 0 src/app.ts",
        "diff --git a/src/app.ts b/src/app.ts",
        "index efeee5db16c087416d13e29bc506c998eeaf0827..82aff2a90dd212dce95cedaa6649f0a5310b5f9b 100644",
        "--- a/src/app.ts",
        "+++ b/src/app.ts",
        "@@ -1 +1,4 @@",
        "-export const value = 1;",
        "+export const value = 2;",
        "+export function login(user: string): boolean {",
        "+  return user.length > 0;",
        "+}",
        "GENTLE_AI_REVIEW_PATCH_END",
        "GENTLE_AI_REVIEW_CONTEXT_END",
        "",
      ].join("\n"),
    );
  });

  it("2.4.0: an approval names its receipt's gate and path; nothing is burned (real 2.4.0 301fb2ad bytes)", async () => {
    const s = sandbox();
    const l = await startedLineage(s);
    const { fin } = await approve(s, l);
    expect([fin.code, fin.stderrText]).toEqual([0, ""]);
    const doc = json(fin);
    expect(Object.keys(doc)).toEqual(["operation", "lineage_id", "state", "action", "store_revision", "receipt_path"]);
    expect([doc.state, doc.action, doc.receipt_path]).toEqual([
      "approved",
      "validate delivery with gentle-ai review validate --gate <gate>",
      `${realpathSync(l.repo)}/.git/gentle-ai/review-transactions/v2/${l.lineage}/review-receipt.json`,
    ]);
  });

  it("2.4.0: the approved receipt decides the gates; pre-commit waits for the staged candidate (301fb2ad shapes)", async () => {
    const s = sandbox();
    const l = await startedLineage(s);
    const { evidenceHash } = await approve(s, l);
    const status = async (): Promise<ReturnType<typeof json>> =>
      json(await s.run(["review", "status", "--cwd", l.repo, "--contract", V2, "--next-transition"]));
    const unstaged = await status();
    expect([
      unstaged.applicability,
      unstaged.authority.state,
      unstaged.receipt.status,
      unstaged.next_transition,
    ]).toEqual([
      "current_target",
      "approved",
      "present",
      { kind: "stop", reason_code: "staged_delivery_candidate_required" },
    ]);
    const denied = await s.run(["review", "validate", "--cwd", l.repo, "--gate=pre-commit"]);
    expect([denied.code, json(denied).context.denial, denied.stderrText]).toEqual([
      1,
      { stage: "receipt-discovery", code: "receipt_unrelated" },
      "Error: review lifecycle gate denied: invalidated: no terminal review receipt governs this candidate; review it with gentle-ai review start\n",
    ]);
    const postApply = await s.run(["review", "validate", "--cwd", l.repo, "--gate=post-apply"]);
    const context = json(postApply).context;
    expect([
      postApply.code,
      json(postApply).result,
      context.lineage_id,
      context.store_revision,
      context.evidence_hash,
    ]).toEqual([0, "allow", l.lineage, unstaged.authority.revision, evidenceHash]);
    git(l.repo, "add", "-A");
    const staged = await status();
    expect([
      staged.next_transition.reason_code,
      staged.next_transition.execute.command,
      staged.next_transition.execute.selector_arguments,
    ]).toEqual(["approved_receipt_ready", `gentle-ai review validate --lineage=${l.lineage} --gate=pre-commit`, []]);
    const allowed = await s.run([
      "review",
      "validate",
      "--cwd",
      l.repo,
      "--gate=pre-commit",
      `--contract=${V2}`,
      `--lineage=${l.lineage}`,
    ]);
    expect([allowed.code, json(allowed).schema, json(allowed).result.result]).toEqual([
      0,
      "gentle-ai.review-integration.operation/v2",
      "allow",
    ]);
  });

  it("a corrected workspace lets FINALIZE reach the captured-evidence check (real 2.4.0 / 2.5.0 cause)", async () => {
    const s = sandbox();
    const l = await startedLineage(s);
    await capture(s, l, [BLOCKER]);
    await s.run(["review", "finalize", `--lineage=${l.lineage}`, "--captured-results=true"], { cwd: l.repo });
    const plan = json(
      await s.run(["review", "status", "--cwd", l.repo, "--contract", V2, "--lineage", l.lineage, "--next-transition"]),
    );
    const submission = plan.next_transition.collect.inputs[0].submission;
    await s.run(
      [
        "review",
        submission.operation_token,
        ...(submission.argument_tokens as string[]).map((t) => t.replace("{{value}}", "1")),
      ],
      { cwd: l.repo },
    );
    s.write(l.repo, "src/app.ts", "export const value = 3;\n");
    s.write(s.dir, "v.json", "{}");
    const fin = await s.run(
      [
        "review",
        "finalize",
        "--contract",
        V2,
        `--lineage=${l.lineage}`,
        `--validation=${s.dir}/v.json`,
        "--captured-evidence=true",
      ],
      { cwd: l.repo },
    );
    expect([fin.code, JSON.parse(fin.stdoutText).cause]).toEqual([1, "captured verification evidence is missing"]);
  });
});

describe.each([
  ["2.4.0", sandbox, "review repository context binding is invalid"],
  ["2.5.0", sandbox25, "review repository context is stale or has no live matching authority"],
] as const)(
  "per-revision repository contexts, profile %s (real 301fb2ad / fb55ef7b bytes)",
  (_profile, world, staleCause) => {
    it("FINALIZE's new revision gets a new handle; the reviewing handle is refused as the build refuses it", async () => {
      const s = world();
      const l = await startedLineage(s);
      const reviewingHandle = l.tokens.find((t) => t.startsWith("--repository-context="))!;
      await capture(s, l, []);
      await s.run(["review", "finalize", `--lineage=${l.lineage}`, "--captured-results=true"], { cwd: l.repo });
      const st = json(
        await s.run([
          "review",
          "status",
          "--cwd",
          l.repo,
          "--contract",
          V2,
          "--lineage",
          l.lineage,
          "--next-transition",
        ]),
      );
      const validatingHandle = (
        st.next_transition.collect.inputs[0].arguments as { name: string; token: string }[]
      ).find((a) => a.name === "repository-context")!.token;
      expect(validatingHandle).toMatch(/^--repository-context=rctx1_[0-9a-f]{64}$/);
      expect(validatingHandle).not.toBe(reviewingHandle);
      // The reviewing slot's tokens after the authority moved on (review_facade's opaque route,
      // repository_locator.go:383-420).
      const stale = await s.run(["review", "capture-result", ...l.tokens, "--agent=pi", "--materialize=true"], {
        cwd: l.repo,
        env: { GENTLE_PI_REVIEW_RELAY_CONTRACT: "gentle-pi.review-relay/v1" },
      });
      expect(stale.code).toBe(1);
      expect(JSON.parse(stale.stdoutText).cause).toBe(
        `repository_context_unavailable: provider-issued review repository context operation failed; cause: ${staleCause}; refresh the exact native next_transition before retrying`,
      );
    });
  },
);
