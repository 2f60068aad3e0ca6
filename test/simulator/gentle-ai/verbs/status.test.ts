// review status per profile and contract (review_facade.go:821-1320, review_next_transition.go,
// review_status_contract.go), the handshake on the status surface, version and review help. Expected shapes, key
// orders, names and texts come from gentle-ai's source, its published schemas and gentle-pi's captured
// status-v5*.captured.json; identities come from the scenario seed (simulator/state/identities.ts).
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { StatusV2Schema, StatusV5Schema } from "../../../../simulator/contract/status.ts";
import { HANDSHAKE, V2 } from "../../../support/contract.ts";
import { goIndent, goReviewJson, INVALID } from "../../../support/go-oracles.ts";
import { SimWorld, simWorlds } from "../../../support/sim-world.ts";

const sim = simWorlds();

const V1 = "gentle-ai.review-integration/v1";
const STATUS = ["review", "status", "--contract", V2, "--cwd", ".", "--projection", "workspace"];
const NOT_ELIGIBLE =
  "the active runtime is not eligible for immutable receipt review; exit receipt-driven review with `gentle-ai review mode disable --scope clone --cwd <repo>`; supported immutable review runtimes: claude-code, opencode, codex";
const TRANSPORT_MSG = "The active runtime cannot provide immutable receipt-review transport.";
const REVIEWER = "https://gentle-ai.dev/schema/review/reviewer/v1";
/** status/v5's members in gentle-ai's order, before the ones --next-transition adds (forecast, transition, context). */
const STATUS_V5_KEYS = [
  "schema",
  "contract",
  "operation",
  "applicability",
  "authority",
  "receipt",
  "action",
  "replayability",
  "frozen",
  "target_identity",
  "projection",
  "repair",
  "candidates",
];
const ALL = ["review-risk", "review-resilience", "review-readability", "review-reliability"] as const;

type Json = Record<string, unknown>;
interface Arg {
  name: string;
  value: string;
  token?: string;
}
interface Input extends Json {
  name: string;
  capture_operation: string;
  arguments: Arg[];
}
interface Status extends Json {
  next_transition: { kind: string; reason_code: string; collect?: { inputs: Input[] }; execute?: Json };
}

async function status(
  s: SimWorld,
  extra: readonly string[],
  env: Record<string, string> = HANDSHAKE,
  base = STATUS,
): Promise<Status> {
  const r = await s.invoke([...base, ...extra], { env });
  expect([r.stderrText, r.code]).toEqual(["", 0]);
  const doc = JSON.parse(r.stdoutText) as Status;
  expect(r.stdoutText).toBe(goReviewJson(doc)); // Go indent, compact manifest entries, nothing else
  return doc;
}

function transportFailure(cause: string, version: 1 | 2 = 2): string {
  return goIndent({
    schema: `gentle-ai.review-integration.failure/v${version}`,
    contract: `gentle-ai.review-integration/v${version}`,
    operation: "review.status",
    phase: "preflight",
    code: "immutable_review_transport_unsupported",
    message: TRANSPORT_MSG,
    mutation_outcome: "not_started",
    authority_applicability: "not_evaluated",
    retry_safe: false,
    replayability: "not_replayable",
    required_inputs: [],
    next_action: "stop",
    cause,
  });
}

/** review_operation_contract.go:1129-1142: the read-only catch-all, pre_native, retry-safe, no cause. */
function readOnlyFailure(version: 1 | 2, lineageId?: string): string {
  return goIndent({
    schema: `gentle-ai.review-integration.failure/v${version}`,
    contract: `gentle-ai.review-integration/v${version}`,
    operation: "review.status",
    phase: "pre_native",
    code: "operation_failed",
    message: "The negotiated read-only review operation failed safely.",
    mutation_outcome: "not_started",
    authority_applicability: "not_evaluated",
    retry_safe: true,
    replayability: "not_replayable",
    ...(lineageId === undefined ? {} : { lineage_id: lineageId }),
    required_inputs: [],
    next_action: "retry",
  });
}

describe("status/v5 for a reviewing lineage", () => {
  it("matches the captured real-binary layout (2.4.0, --agent pi under the handshake)", async () => {
    const s = sim({ profile: "2.4.0", lineage: { lenses: ["review-reliability"] } });
    const ids = s.ids;
    const st = await status(s, ["--agent", "pi", "--next-transition"]);
    // Key order of gentle-pi tests/fixtures/devbinary/status-v5-capture-result-submission.captured.json.
    expect(Object.keys(st)).toEqual([...STATUS_V5_KEYS, "forecast", "next_transition", "repository_context"]);
    expect(StatusV5Schema.safeParse(st).success).toBe(true);
    expect(st["authority"]).toEqual({
      version: "compact-v2",
      lineage_id: ids.lineageId,
      state: "reviewing",
      generation: 1,
      revision: ids.revision(0),
    });
    expect(st["frozen"]).toMatchObject({ tier: "medium" }); // one selected lens: medium (SelectReviewLenses)
    expect(st["projection"]).toEqual({
      schema: "gentle-ai.review-integration.projection/v1",
      kind: "current-changes",
      projection: "workspace",
      base_tree: ids.baseTree,
      initial_review_tree: ids.candidateTree,
      current_candidate_tree: ids.candidateTree,
      paths_digest: ids.pathsDigest,
      paths: ids.paths,
      intended_untracked: [],
      intended_untracked_proof: "sha256:b97229718d4c7fe50a8892eb474ae5aa6491697bccb400e3e31dbaca4894d2f3",
      initial_snapshot_identity: ids.targetIdentity,
      current_snapshot_identity: ids.targetIdentity,
    });
    expect(st["repair"]).toEqual({
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
    });
    expect(st["forecast"]).toEqual({
      horizon: "partial",
      steps: [
        {
          step: 1,
          kind: "collect",
          reason_code: "reviewer_results_required",
          description: "Reviewer lens artifacts required for current revision",
        },
      ],
    });
    expect(st["repository_context"]).toEqual({
      capability: "review.opaque_repository_context",
      handle: ids.repositoryContext,
      revision: ids.revision(0),
      target_identity: ids.targetIdentity,
      event_id: ids.eventId(0),
      outcome: "applied",
    });
    const input = st.next_transition.collect!.inputs[0]!;
    expect(Object.keys(input)).toEqual([
      "name",
      "schema",
      "capture_operation",
      "arguments",
      "submission",
      "artifact_subject",
      "base_tree",
      "candidate_tree",
      "changed_path_manifest",
    ]);
    const binding = s.binding("review-reliability", 0);
    expect(input.arguments).toEqual(
      [...binding, "--agent=pi", "--materialize=true"].map((token) => {
        const [flag, ...rest] = token.slice(2).split("=");
        return { name: flag!, value: rest.join("="), token };
      }),
    );
    expect(input.arguments.map((a) => a.name)).toEqual([
      "lineage",
      "expected-revision",
      "target",
      "repository-context",
      "lens",
      "order",
      "subject-hash",
      "agent",
      "materialize",
    ]);
    expect(input["submission"]).toEqual({
      operation_token: "capture-result",
      argument_tokens: [...binding, "--input={{value}}"],
      value: { slot: "reviewer_result", domain: "artifact_path_or_stdin", schema: REVIEWER, substitution_location: 7 },
    });
    expect(input["artifact_subject"]).toEqual({
      schema: "gentle-ai.review-artifact-subject/v2",
      subject_hash: ids.subjectHash("review-reliability"),
      lineage_id: ids.lineageId,
      authority_revision: ids.revision(0),
      target_identity: ids.targetIdentity,
      base_tree: ids.baseTree,
      candidate_tree: ids.candidateTree,
      changed_path_manifest_sha256: ids.manifestSha256,
      lens: "review-reliability",
      selected_order: 0,
    });
    expect(input["changed_path_manifest"]).toEqual(
      ids.manifest.map((m) => ({
        path: m.path,
        status: m.status,
        old_mode: m.status === "A" ? "000000" : "100644",
        new_mode: "100644",
        deleted: false,
        type_changed: false,
        mode_only: false,
        intended_untracked: false,
      })),
    );
  });

  it("renders the same 8-token submission at location 7 on 2.5.0 (no source supports a 9-token form)", async () => {
    const s = sim({ profile: "2.5.0" });
    const st = await status(s, ["--agent", "pi", "--next-transition"]);
    expect(st.next_transition.collect!.inputs[1]!["submission"]).toEqual({
      operation_token: "capture-result",
      argument_tokens: [...s.binding("review-resilience", 1), "--input={{value}}"],
      value: { slot: "reviewer_result", domain: "artifact_path_or_stdin", schema: REVIEWER, substitution_location: 7 },
    });
  });

  it("appends agent only for the capture runtimes claude-code and codex; opencode and no agent get the bare binding", async () => {
    for (const profile of ["2.3.0", "2.4.0", "2.5.0"] as const) {
      const s = sim({ profile });
      for (const [agent, tail] of [
        [[], []],
        [["--agent=codex"], ["--agent=codex"]],
        [["--agent", "claude-code"], ["--agent=claude-code"]],
        [["--agent=opencode"], []],
      ] as const) {
        const st = await status(s, [...agent, "--next-transition"]);
        const input = st.next_transition.collect!.inputs[0]!;
        expect(input.arguments.map((a) => a.token)).toEqual([...s.binding("review-risk", 0), ...tail]);
        expect(input["submission"]).toBeUndefined();
        expect(StatusV5Schema.safeParse(st).success).toBe(true);
      }
    }
  });

  it("omits the transition, forecast and repository context without --next-transition", async () => {
    const st = await status(sim({ profile: "2.4.0" }), []);
    expect(Object.keys(st)).toEqual(STATUS_V5_KEYS);
  });

  it("finalizes captured results with the contract and agent a capture runtime needs (status-v5-repository-context.captured.json)", async () => {
    const s = sim({ profile: "2.4.0", lineage: { lenses: ["review-reliability"], captured: ["review-reliability"] } });
    const ids = s.ids;
    const st = await status(s, ["--agent", "claude-code", "--next-transition"]);
    const execute = st.next_transition.execute!;
    expect(Object.keys(execute)).toEqual([
      "operation",
      "command",
      "arguments",
      "preconditions",
      "binding",
      "artifacts",
    ]);
    expect(execute["command"]).toBe(
      `gentle-ai review finalize --lineage=${ids.lineageId} --captured-results=true --contract=${V2} --agent=claude-code`,
    );
    expect(execute["arguments"]).toEqual([
      { name: "lineage", value: ids.lineageId, token: `--lineage=${ids.lineageId}` },
      { name: "captured_results", value: "true", token: "--captured-results=true" },
      { name: "contract", value: V2, token: `--contract=${V2}` },
      { name: "agent", value: "claude-code", token: "--agent=claude-code" },
    ]);
    expect(execute["preconditions"]).toEqual([
      { name: "state", value: "reviewing" },
      { name: "captured_artifacts", value: "complete" },
    ]);
    expect(execute["binding"]).toEqual({
      lineage_id: ids.lineageId,
      revision: ids.revision(0),
      target_identity: ids.targetIdentity,
      repository_context: ids.repositoryContext,
    });
    const [artifact] = execute["artifacts"] as Json[];
    expect(Object.keys(artifact!)).toEqual([
      "schema",
      "capability",
      "sha256",
      "lineage_id",
      "target_identity",
      "lens",
      "selected_order",
      "subject_hash",
      "admission_decision",
    ]);
    expect(artifact).toMatchObject({
      schema: "gentle-ai.review-result-artifact/v2",
      lens: "review-reliability",
      selected_order: 0,
      subject_hash: ids.subjectHash("review-reliability"),
      admission_decision: "completed",
    });
    const plain = await status(s, ["--next-transition"]);
    expect(plain.next_transition.execute!["command"]).toBe(
      `gentle-ai review finalize --lineage=${ids.lineageId} --captured-results=true`,
    );
  });

  it("classifies the action for reviewing as stop: required inputs unavailable", async () => {
    const st = await status(sim({ profile: "2.4.0" }), ["--action-eligibility"]);
    const e = st["eligibility"] as { allowed_actions: Json[]; forbidden_actions: Json[] };
    expect(e.allowed_actions).toEqual([
      { action: "stop", reason_code: "forbidden_required_inputs_unavailable", required_inputs: [] },
    ]);
    expect(e.forbidden_actions.map((f) => f["action"])).toEqual([
      "review.abandon",
      "review.finalize",
      "review.invalidate",
      "review.quarantine-legacy",
      "review.reclaim",
      "review.reconcile-authority",
      "review.reconcile-authority-batch",
      "review.recover",
      "review.repair",
      "review.retry_final_verification",
      "review.start",
      "review.validate",
    ]);
    expect(new Set(e.forbidden_actions.map((f) => f["reason_code"]))).toEqual(
      new Set(["forbidden_required_inputs_unavailable"]),
    );
  });
});

describe("targets the lineage does not govern", () => {
  it("a free explicit --lineage with --next-transition is a fresh START target", async () => {
    const s = sim({ profile: "2.4.0" });
    const ids = s.ids;
    const st = await status(s, [
      "--agent",
      "pi",
      "--lineage",
      "review-other",
      "--next-transition",
      "--action-eligibility",
    ]);
    expect(StatusV5Schema.safeParse(st).success).toBe(true);
    expect(st).toMatchObject({
      applicability: "unrelated",
      receipt: { status: "not_applicable" },
      action: "start",
      replayability: "not_replayable",
      target_identity: ids.targetIdentity,
      candidates: [],
    });
    expect(st).not.toHaveProperty("authority");
    expect(st).not.toHaveProperty("frozen");
    const root = s.dir;
    const argv = [
      `--cwd=${root}`,
      `--contract=${V2}`,
      `--target=${ids.targetIdentity}`,
      "--projection=workspace",
      "--lineage=review-other",
      "--agent=pi",
      "--consent=relay",
    ];
    expect(st.next_transition).toEqual({
      kind: "execute",
      reason_code: "fresh_target_ready",
      execute: {
        operation: "review.start",
        command: `gentle-ai review start ${argv.join(" ")}`,
        arguments: argv.map((token) => {
          const [flag, ...rest] = token.slice(2).split("=");
          return { name: flag!, value: rest.join("="), token };
        }),
        preconditions: [{ name: "target_identity", value: ids.targetIdentity }],
        binding: { lineage_id: "review-other", target_identity: ids.targetIdentity },
      },
    });
    expect((st["eligibility"] as { allowed_actions: Json[] }).allowed_actions).toEqual([
      { action: "review.start", reason_code: "eligible_current_target", required_inputs: [] },
    ]);
  });

  it("the staged projection of a workspace lineage is unrelated; an unknown --lineage without --next-transition falls back to the governing one", async () => {
    const s = sim({ profile: "2.4.0" });
    const staged = await status(s, ["--projection", "staged"]);
    expect(staged).toMatchObject({
      applicability: "unrelated",
      action: "start",
      target_identity: s.ids.stagedTargetIdentity,
    });
    expect((staged["projection"] as Json)["projection"]).toBe("staged");
    const other = await status(s, ["--lineage", "review-other"]);
    expect(other).toMatchObject({ applicability: "current_target", authority: { lineage_id: s.ids.lineageId } });
  });
});

describe("review-integration/v1: status/v2", () => {
  it("renders the legacy capture context and never reads --agent", async () => {
    const s = sim({ profile: "2.4.0", lineage: { lenses: ["review-risk"] } });
    const ids = s.ids;
    const base = ["review", "status", "--contract", V1, "--cwd", "."];
    const st = await status(s, ["--agent", "pi", "--next-transition"], {}, base);
    expect(st).toMatchObject({ schema: "gentle-ai.review-integration.status/v2", contract: V1 });
    expect(st).not.toHaveProperty("forecast");
    const input = st.next_transition.collect!.inputs[0]!;
    expect(Object.keys(input)).toEqual([
      "name",
      "schema",
      "capture_operation",
      "arguments",
      "artifact_subject",
      "candidate_diff",
      "changed_path_manifest",
    ]);
    expect(input.arguments.map((a) => a.name)).toEqual([
      "lineage",
      "expected-revision",
      "target",
      "repository-context",
      "lens",
      "order",
    ]);
    const diff = input["candidate_diff"] as { encoding: string; data: string; sha256: string; byte_size: number };
    const bytes = Buffer.from(diff.data, "base64");
    expect(diff).toEqual({
      encoding: "base64",
      data: ids.candidateDiff.toString("base64"),
      sha256: "sha256:" + createHash("sha256").update(bytes).digest("hex"),
      byte_size: bytes.length,
    });
    const subject = input["artifact_subject"] as Json;
    expect(Object.keys(subject)).toEqual([
      "schema",
      "subject_hash",
      "lineage_id",
      "authority_revision",
      "target_identity",
      "candidate_diff_sha256",
      "changed_path_manifest_sha256",
      "lens",
      "selected_order",
    ]);
    // artifactSubjectHashV1 (artifact_subject.go:142): domain tag, NUL, the compact preimage without subject_hash.
    const { subject_hash: hash, ...preimage } = subject;
    expect(hash).toBe(
      "sha256:" +
        createHash("sha256")
          .update("gentle-ai.review-artifact-subject/v1\u0000" + JSON.stringify(preimage))
          .digest("hex"),
    );
    // Without --next-transition the document is exactly the published status/v2 shape.
    expect(StatusV2Schema.safeParse(await status(s, ["--agent", "pi"], {}, base)).success).toBe(true);
  });
});

describe("flags and refusals", () => {
  it("prints the real usage on -h (review_facade.go:822-847)", async () => {
    const r = await sim().invoke(["review", "status", "-h"]);
    expect([r.stderrText, r.code]).toEqual(["", 0]);
    expect(r.stdoutText).toBe(
      "Usage: gentle-ai review status [flags]\n\nRead every compact-v2 and shipped legacy-v1 authority from the shared Git common directory without mutation.\n\nFlags:\n" +
        [
          [
            "action-eligibility",
            "",
            "include optional machine-readable review action eligibility in negotiated output",
            "false",
          ],
          ["agent", " <value>", "generated active runtime identity for negotiated lifecycle routing", ""],
          ["base-ref", " <value>", "optional negotiated immutable base-to-HEAD target", ""],
          ["base-tree", " <value>", "optional negotiated resolved immutable overlay base tree", ""],
          ["committed-only", "", "acknowledge that --base-ref selects committed-only review scope", "false"],
          ["contract", " <value>", "optional negotiated review integration contract", ""],
          ["cwd", " <value>", "repository path", "."],
          ["expected-untracked-inventory", " <value>", "sha256 inventory digest from review status", ""],
          ["gate", " <value>", "lifecycle gate for an approved receipt transition", "pre-commit"],
          ["intended-untracked", " <value>", "repo-relative untracked path to include; repeat for each path", ""],
          ["lineage", " <value>", "optional explicit lineage selector for negotiated target status", ""],
          [
            "next-transition",
            "",
            "include the optional canonical native next transition in negotiated output",
            "false",
          ],
          ["projection", " <value>", "negotiated target projection: workspace or staged", "workspace"],
          ["recovery-actor", " <value>", "authorized recovery actor", ""],
          ["recovery-authorization", " <value>", "exact authorized recovery binding", ""],
          ["recovery-reason", " <value>", "authorized recovery reason", ""],
          ["recovery-successor-lineage", " <value>", "authorized successor lineage for a recovery transition", ""],
          ["repair-actor", " <value>", "authorized classified repair actor", ""],
          ["repair-authorization", " <value>", "exact classified repair authorization binding", ""],
          ["repair-reason", " <value>", "authorized classified repair reason", ""],
          ["untracked-scope", " <value>", "explicit untracked scope: exclude or select", ""],
          ["workspace-overlay", "", "select a negotiated base-ref workspace overlay target", "false"],
        ]
          .map(([n, p, u, d]) => `  --${n}${p}\n      ${u}${d === "" ? "" : ` (default "${d}")`}\n`)
          .join("") +
        "  -h, --help\n      show this help\n",
    );
  });

  it("refuses a positional argument with Go's %q cause (review_facade.go:855)", async () => {
    const s = sim();
    const [neg, plain] = await Promise.all([s.invoke([...STATUS, "extra"]), s.invoke(["review", "status", "extra"])]);
    expect([neg.code, neg.stderrText]).toEqual([1, `Error: ${INVALID} [invalid_request]\n`]);
    expect(JSON.parse(neg.stdoutText)).toMatchObject({
      code: "invalid_request",
      cause: 'unexpected review status argument "extra"',
    });
    expect([plain.code, plain.stdoutText, plain.stderrText]).toEqual([
      1,
      "",
      'Error: unexpected review status argument "extra"\n',
    ]);
  });

  it("answers the read-only catch-all for plain Go errors: projection, gate, base selectors, lineage format", async () => {
    const s = sim({ profile: "2.4.0" });
    const L = s.ids.lineageId;
    const cases: [string[], 1 | 2, string | undefined][] = [
      [["--projection", "bogus"], 2, undefined],
      [["--projection=bogus", "--lineage", L], 2, L],
      [["--gate", "nightly"], 2, undefined],
      [["--committed-only"], 2, undefined],
      [["--base-tree", "a".repeat(40)], 2, undefined],
      [["--lineage", "Not_A_Lineage", "--next-transition"], 2, undefined],
    ];
    for (const [extra, version, lineageId] of cases) {
      const r = await s.invoke([...STATUS, ...extra]);
      expect([r.code, r.stderrText]).toEqual([
        1,
        "Error: The negotiated read-only review operation failed safely. [operation_failed]\n",
      ]);
      expect(r.stdoutText).toBe(readOnlyFailure(version, lineageId));
    }
    const v1 = await s.invoke(["review", "status", "--contract", V1, "--projection", "bogus"]);
    expect(v1.stdoutText).toBe(readOnlyFailure(1));
  });

  it("checks --agent only on the v2 contract (review_facade.go:869)", async () => {
    const s = sim({ profile: "2.4.0" });
    const v1 = await s.invoke(["review", "status", "--contract", V1, "--agent", "not-a-runtime"]);
    expect([v1.code, v1.stderrText]).toEqual([0, ""]);
    const v2 = await s.invoke([...STATUS, "--agent", "not-a-runtime"]);
    expect(v2.code).toBe(1);
    expect(JSON.parse(v2.stdoutText)).toMatchObject({ code: "immutable_review_transport_unsupported" });
  });

  it("refuses a second --untracked-scope as flag does for reviewSingleValueFlag", async () => {
    const r = await sim().invoke([...STATUS, "--untracked-scope=exclude", "--untracked-scope=select"]);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdoutText)).toMatchObject({
      code: "invalid_request",
      cause:
        'invalid value "select" for flag -untracked-scope: untracked scope flags may only be specified once; rerun gentle-ai review start with one declaration',
    });
  });

  it("validates an untracked declaration against the (empty) inventory", async () => {
    const s = sim();
    const cause = async (extra: string[]): Promise<unknown> =>
      JSON.parse((await s.invoke([...STATUS, ...extra])).stdoutText)["cause"];
    expect(await cause(["--untracked-scope=exclude"])).toBe(
      "untracked selection requires --untracked-scope and --expected-untracked-inventory; rerun `gentle-ai review status --next-transition`",
    );
    expect(await cause(["--untracked-scope=maybe", "--expected-untracked-inventory=x"])).toBe(
      '--untracked-scope must be exclude or select, got "maybe"; rerun `gentle-ai review status --next-transition`',
    );
    expect(await cause(["--untracked-scope=exclude", "--expected-untracked-inventory=sha256:00"])).toBe(
      "untracked inventory changed; rerun `gentle-ai review status --next-transition` before selecting paths",
    );
    expect(await cause(["--projection=staged", "--untracked-scope=exclude"])).toBe(
      "staged projection does not accept intended-untracked selection; remove those flags and rerun `gentle-ai review status --projection staged`",
    );
  });

  it("routes flag errors per class: negotiated envelope vs plain usage on stdout", async () => {
    const s = sim({ profile: "2.4.0" });
    const [neg, v1, plain] = await Promise.all([
      s.invoke([...STATUS, "--bogus", "--lineage", s.ids.lineageId]),
      s.invoke(["review", "status", "--contract", V1, "--lineage", s.ids.lineageId, "--next-transition=maybe"]),
      s.invoke(["review", "status", "--bogus"]),
    ]);
    expect(neg.stderrText).toBe(`Error: ${INVALID} [invalid_request]\n`);
    expect(JSON.parse(neg.stdoutText)).toMatchObject({
      schema: "gentle-ai.review-integration.failure/v2",
      cause: "flag provided but not defined: -bogus",
    });
    expect(JSON.parse(neg.stdoutText)).not.toHaveProperty("lineage_id");
    expect(v1.stderrText).toBe(`Error: ${INVALID} [invalid_request]\n`);
    expect(JSON.parse(v1.stdoutText)).toMatchObject({
      schema: "gentle-ai.review-integration.failure/v1",
      operation: "review.status",
      cause: 'invalid boolean value "maybe" for -next-transition: parse error',
    });
    expect(plain.code).toBe(1);
    expect(plain.stderrText).toBe("Error: flag provided but not defined: -bogus\n");
    expect(
      plain.stdoutText.startsWith("flag provided but not defined: -bogus\nUsage: gentle-ai review status [flags]\n\n"),
    ).toBe(true);
  });

  it("without --contract: the negotiated outputs and target selectors require one (review_facade.go:1305-1310)", async () => {
    const s = sim();
    const err = async (extra: string[]): Promise<string> => (await s.invoke(["review", "status", ...extra])).stderrText;
    expect(await err(["--next-transition"])).toBe(
      `Error: --action-eligibility and --next-transition require --contract ${V1} or ${V2}\n`,
    );
    for (const selector of [
      ["--lineage", "x"],
      ["--projection", "staged"],
      ["--gate=pre-push"],
      ["--committed-only=false"],
      ["--agent", "pi"],
      ["--intended-untracked", "a"],
    ])
      expect(await err(selector)).toBe(`Error: review status target selectors require --contract ${V1}\n`);
  });
});

describe("handshake on the status surface", () => {
  it("refuses pi without the handshake with immutable_review_transport_unsupported (2.4.0) and always at 2.3.0", async () => {
    const s24 = sim({ profile: "2.4.0" });
    const s23 = sim({ profile: "2.3.0" });
    const s25 = sim({ profile: "2.5.0" });
    const [a, b, c, d] = await Promise.all([
      s24.run([...STATUS, "--agent", "pi", "--next-transition"], {
        env: { GENTLE_PI_REVIEW_RELAY_CONTRACT: "gentle-pi.review-relay/v0" },
      }),
      s23.run([...STATUS, "--agent", "pi", "--next-transition"], { env: HANDSHAKE }),
      s25.run([...STATUS, "--agent", "pi", "--next-transition"]),
      s24.run([...STATUS, "--agent", "pi", "--agent", "pi", "--next-transition"], { env: HANDSHAKE }),
    ]);
    const stderr = `Error: ${TRANSPORT_MSG} [immutable_review_transport_unsupported]\n`;
    for (const r of [a, b, c, d]) {
      expect(r.code).toBe(1);
      expect(r.stderrText).toBe(stderr);
    }
    expect(a.stdoutText).toBe(transportFailure(NOT_ELIGIBLE));
    expect(b.stdoutText).toBe(transportFailure(NOT_ELIGIBLE));
    expect(c.stdoutText).toBe(
      transportFailure(
        "the active runtime is not eligible for immutable receipt review; pi is eligible only while GENTLE_PI_REVIEW_RELAY_CONTRACT declares the exact relay contract this binary admits, which the gentle-pi host exports on every invocation it relays; export it in this shell and re-run",
      ),
    );
    expect(d.stdoutText).toBe(
      transportFailure("negotiated lifecycle STATUS requires exactly one generated runtime identity"),
    );
  });
});

describe("refuter role", () => {
  it("offers provider_refuter_required to pi once every lens is captured, finalize otherwise", async () => {
    const s = sim({ profile: "2.4.0", lineage: { refuter: true, lenses: ["review-risk"], captured: ["review-risk"] } });
    const ids = s.ids;
    const [pi, plain] = [
      await status(s, ["--agent", "pi", "--next-transition"]),
      await status(s, ["--next-transition"]),
    ];
    const tok = (name: string, value: string): Arg => ({ name, value, token: `--${name}=${value}` });
    expect(pi.next_transition).toEqual({
      kind: "collect",
      reason_code: "provider_refuter_required",
      collect: {
        inputs: [
          {
            name: "provider_refuter",
            schema: "https://gentle-ai.dev/schema/review/refuter/v1",
            capture_operation: "review.capture-refuter",
            arguments: [
              tok("lineage", ids.lineageId),
              tok("expected-revision", ids.revision(0)),
              tok("target", ids.targetIdentity),
              tok("repository-context", ids.repositoryContext),
              tok("agent", "pi"),
              tok("execute", "true"),
            ],
          },
        ],
      },
    });
    expect(plain.next_transition.reason_code).toBe("captured_results_ready");
  });

  it("hands OpenCode the Go-issued provider task (review_provider_roles.go:45)", async () => {
    const s = sim({ profile: "2.4.0", lineage: { refuter: true, lenses: ["review-risk"], captured: ["review-risk"] } });
    const ids = s.ids;
    const st = await status(s, ["--agent", "opencode", "--next-transition"]);
    expect(StatusV5Schema.safeParse(st).success).toBe(true);
    const input = st.next_transition.collect!.inputs[0]!;
    expect(input).toEqual({
      name: "provider_refuter",
      schema: "https://gentle-ai.dev/schema/review/refuter/v1",
      capture_operation: "external.run_provider_role",
      arguments: [
        { name: "lineage", value: ids.lineageId },
        { name: "expected-revision", value: ids.revision(0) },
        { name: "target", value: ids.targetIdentity },
        { name: "repository-context", value: ids.repositoryContext },
        { name: "agent", value: "opencode" },
        { name: "role", value: "refuter" },
      ],
      provider_task: {
        agent: "review-refuter",
        role: "refuter",
        prompt: `GENTLE_AI_REVIEW_PROVIDER_TASK {"lineage_id":"${ids.lineageId}","revision":"${ids.revision(0)}","target_identity":"${ids.targetIdentity}","repository_context":"${ids.repositoryContext}","role":"refuter"}`,
      },
    });
  });
});

describe("every lens of every profile validates", () => {
  it.each(["2.3.0", "2.4.0", "2.5.0"] as const)("profile %s", async (profile) => {
    const s = sim({ profile, lineage: { lenses: [...ALL], captured: ["review-risk"] } });
    for (const extra of [
      [],
      ["--next-transition"],
      ["--next-transition", "--action-eligibility"],
      ["--agent=codex", "--next-transition"],
    ]) {
      const st = await status(s, extra);
      const parsed = StatusV5Schema.safeParse(st);
      expect(parsed.error?.issues ?? []).toEqual([]);
    }
  });
});

describe("the shipped scenarios", () => {
  it("print status/v5 documents in every golden/scenarios/*.json", async () => {
    const { readdirSync, readFileSync } = await import("node:fs");
    const { join } = await import("node:path");
    const { ROOT } = await import("../../../support/sim-world.ts");
    const dir = join(ROOT, "golden/scenarios");
    const files = readdirSync(dir).filter((f) => f.endsWith(".json"));
    expect(files.length).toBeGreaterThan(10);
    for (const file of files) {
      const scenario = JSON.parse(readFileSync(join(dir, file), "utf8")) as {
        profile?: string;
        lineage?: { state?: string };
      };
      const s = sim(scenario as never);
      const runs = scenario.profile === "2.3.0" ? [[]] : [[], ["--agent", "pi"]];
      for (const agent of runs) {
        const doc = await status(s, [...agent, "--next-transition", "--action-eligibility"]);
        const parsed = StatusV5Schema.safeParse(doc);
        if (scenario.profile === "2.3.0" && scenario.lineage?.state === "correction_required") {
          // (deviation) profile 2.3.0 renders the 2.2.x-era correction inputs (gentle-ai's review-integration/v1
          // shapes: no submission, the record schema), which status-v5.schema.json does not admit.
          expect(parsed.success, file).toBe(false);
          expect(
            parsed.error!.issues.every((i) => i.path[0] === "next_transition"),
            file,
          ).toBe(true);
        } else expect(parsed.error?.issues ?? [], file).toEqual([]);
      }
    }
  });
});

describe("the zod mirror rejects the old (wrong) shapes", () => {
  type Mutation = [string, (d: Json) => void];
  const at = (d: Json, path: string): Json => path.split(".").reduce<Json>((o, k) => o[k] as Json, d);
  const lensInput = (d: Json): Json => ((d["next_transition"] as Json)["collect"] as { inputs: Json[] }).inputs[0]!;
  const mutations: Mutation[] = [
    ["repair status not_required", (d) => void (at(d, "repair")["status"] = "not_required")],
    ["repair counts renamed", (d) => void (at(d, "repair")["counts"] = { orphaned_results: 0 })],
    ["frozen tier large", (d) => void (at(d, "frozen")["tier"] = "large")],
    ["projection without kind", (d) => void delete at(d, "projection")["kind"]],
    ["projection mode field", (d) => void (at(d, "projection")["mode"] = "workspace")],
    ["artifact_subject without schema", (d) => void delete (lensInput(d)["artifact_subject"] as Json)["schema"]],
    [
      "manifest entry with additions",
      (d) => void ((lensInput(d)["changed_path_manifest"] as Json[])[0]!["additions"] = 1),
    ],
    ["upper-case argument name", (d) => void ((lensInput(d)["arguments"] as Json[])[0]!["name"] = "Lineage")],
    [
      "nine-token submission at 8",
      (d) => {
        const sub = lensInput(d)["submission"] as { argument_tokens: string[]; value: Json };
        sub.argument_tokens.splice(7, 0, "--agent=pi");
        sub.value["substitution_location"] = 8;
      },
    ],
    ["forecast horizon terminal on collect", (d) => void (at(d, "forecast")["horizon"] = "terminal")],
    ["forecast without next_transition", (d) => void delete d["next_transition"]],
  ];
  it.each(mutations)("%s", async (_name, mutate) => {
    const s = sim({ profile: "2.4.0", lineage: { lenses: ["review-risk"] } });
    const doc = await status(s, ["--agent", "pi", "--next-transition"]);
    expect(StatusV5Schema.safeParse(doc).success).toBe(true);
    const copy = JSON.parse(JSON.stringify(doc)) as Json;
    mutate(copy);
    expect(StatusV5Schema.safeParse(copy).success).toBe(false);
  });

  it("rejects string preconditions, a binding-less execute and a forecast on status/v2", async () => {
    const s = sim({ profile: "2.4.0", lineage: { lenses: ["review-risk"], captured: ["review-risk"] } });
    const doc = await status(s, ["--next-transition"]);
    const strings = JSON.parse(JSON.stringify(doc)) as Json;
    ((strings["next_transition"] as Json)["execute"] as Json)["preconditions"] = ["state=reviewing"];
    expect(StatusV5Schema.safeParse(strings).success).toBe(false);
    const unbound = JSON.parse(JSON.stringify(doc)) as Json;
    delete ((unbound["next_transition"] as Json)["execute"] as Json)["binding"];
    expect(StatusV5Schema.safeParse(unbound).success).toBe(false);
    const v1 = await status(s, [], {}, ["review", "status", "--contract", V1]);
    expect(StatusV2Schema.safeParse(v1).success).toBe(true);
    expect(StatusV2Schema.safeParse({ ...v1, forecast: doc["forecast"] }).success).toBe(false);
  });

  it("rejects the old correction request and classification shapes", async () => {
    const plan = await status(
      sim({ profile: "2.4.0", lineage: { state: "correction_required", correction: { stage: "plan_required" } } }),
      ["--next-transition"],
    );
    const renamed = JSON.parse(JSON.stringify(plan)) as Json;
    ((renamed["next_transition"] as Json)["correction_request"] as Json)["schema"] =
      "gentle-ai.review-correction-request/v1";
    expect(StatusV5Schema.safeParse(renamed).success).toBe(false);
    const missing = JSON.parse(JSON.stringify(plan)) as Json;
    delete (missing["next_transition"] as Json)["correction_request"];
    expect(StatusV5Schema.safeParse(missing).success).toBe(false);
    const evidence = await status(
      sim({ profile: "2.4.0", lineage: { state: "correction_required", correction: { stage: "evidence_required" } } }),
      ["--next-transition"],
    );
    expect(StatusV5Schema.safeParse(evidence).success).toBe(true);
    const fix = JSON.parse(JSON.stringify(evidence)) as Json;
    (fix["validation_request"] as Json)["fix_classifications"] = [{ finding_id: "R1-001", classification: "fix" }];
    expect(StatusV5Schema.safeParse(fix).success).toBe(false);
  });
});

describe("version, review help and unknown verbs", () => {
  it("prints the profile version for version/--version/-v", async () => {
    const runs = await Promise.all(
      (["2.3.0", "2.4.0", "2.5.0"] as const).flatMap((p) => {
        const s = sim({ profile: p });
        return ["version", "--version", "-v"].map((v) => s.run([v]).then((r) => ({ p, r })));
      }),
    );
    for (const { p, r } of runs) expect([r.stdoutText, r.stderrText, r.code]).toEqual([`gentle-ai ${p}\n`, "", 0]);
  });

  it("prints review help on stdout and refuses unknown verbs (role verbs are unknown before 2.4.0)", async () => {
    const s24 = sim({ profile: "2.4.0" });
    const s23 = sim({ profile: "2.3.0" });
    const [help, unknown, role23] = await Promise.all([
      s24.run(["review", "--help"]),
      s24.run(["review", "consent"]),
      s23.run(["review", "capture-refuter", "--agent=pi"]),
    ]);
    expect(help.code).toBe(0);
    expect(help.stdoutText).toBe(
      "Usage: gentle-ai review <capture-result|capture-refuter|capture-validation|lens-context|capture-evidence|preserve-result|capabilities|start|finalize|validate|status|repair|invalidate|abandon|recover|retry-final-verification|reclaim|store-reset|inspect-authority|inspect-candidate|dispose-result|reopen-results|schema|opencode-transport|bind-sdd> [flags]\n\n" +
        "Ordinary review facade; repository scope, authority, canonical artifacts, and lifecycle transitions are derived by Go. Provider transports relay opaque bytes only; Go materializes, admits, captures, and decides delivery. Use review retry-final-verification only for a provider-proven completed failed final-verification tooling incident. Generic review recover remains unchanged. Use review repair --preflight for provider-owned classified authority repair.\n",
    );
    expect([unknown.stdoutText, unknown.stderrText, unknown.code]).toEqual([
      "",
      'Error: unknown review command "consent"\n',
      1,
    ]);
    expect([role23.stdoutText, role23.stderrText, role23.code]).toEqual([
      "",
      'Error: unknown review command "capture-refuter"\n',
      1,
    ]);
  });
});
