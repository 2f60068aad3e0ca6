// Materialize, preflight, submission admission, slot rules and cross-process state of capture-result, against
// gentle-ai fb55ef7b (internal/cli/review_artifact.go RunReviewCaptureResult, compact_reviewer_capture.go).
import { createHash } from "node:crypto";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { HANDSHAKE, V2 } from "../../../support/contract.ts";
import { envelope, goIndent, goReviewJson, INVALID } from "../../../support/go-oracles.ts";
import { runSim, SimWorld, simWorlds } from "../../../support/sim-world.ts";
import type { Run } from "../../../support/spawn-process.ts";
import { LineageStateSchema } from "../../../../simulator/state/lineage-state.ts";
import {
  CapturePreflightSchema,
  CaptureResultDryRunSchema,
  ResultArtifactV2Schema,
} from "../../../../simulator/contract/capture-result.ts";
import { ReviewerResultSchema } from "../../../../simulator/contract/reviewer-result.ts";

const sim = simWorlds();

const STATUS = ["review", "status", "--contract", V2, "--cwd", ".", "--projection", "workspace"];
const EVIDENCE = "inspected every changed path of the frozen candidate";

function sha(text: string | Buffer): string {
  return createHash("sha256").update(text).digest("hex");
}

/** The v2 artifact subject of a slot (artifact_subject.go field order). */
function subjectJson(s: SimWorld, lens: string, order: number, revisionIndex = 0): string {
  const ids = s.ids;
  return (
    `{"schema":"gentle-ai.review-artifact-subject/v2","subject_hash":"${ids.subjectHash(lens as never)}","lineage_id":"${ids.lineageId}",` +
    `"authority_revision":"${ids.revision(revisionIndex)}","target_identity":"${ids.targetIdentity}","base_tree":"${ids.baseTree}",` +
    `"candidate_tree":"${ids.candidateTree}","changed_path_manifest_sha256":"${ids.manifestSha256}","lens":"${lens}","selected_order":${order}}`
  );
}

/**
 * The slot digest of an admitted piResult (compact_reviewer_capture.go:160-243): sha256 of the admitted-result
 * envelope around the canonical result, whose admission record carries the raw payload's digest.
 */
function slotDigest(s: SimWorld, lens: string, order: number, raw: string | Buffer, evidence = EVIDENCE): string {
  const subject = s.ids.subjectHash(lens as never);
  const paths = s.ids.manifest.map((m) => m.path).sort();
  const canonical = `{"subject_hash":"${subject}","inspection":{"status":"completed","paths":${JSON.stringify(paths)}},"lens":"${lens}","findings":[],"evidence":[${JSON.stringify(evidence)}]}`;
  const resultHash =
    "sha256:" +
    sha(`gentle-ai.lens-result/v1\u0000{"lens":"${lens}","findings":[],"evidence":[${JSON.stringify(evidence)}]}`);
  const admission =
    `{"schema":"gentle-ai.review-artifact-admission/v1","decision":"completed","subject_hash":"${subject}","raw_sha256":"sha256:${sha(raw)}",` +
    `"canonical_sha256":"sha256:${sha(canonical + "\n")}","result_hash":"${resultHash}","candidate_causal_finding_ids":[]}`;
  return (
    "sha256:" +
    sha(
      `{"schema":"gentle-ai.review-admitted-result/v2","subject":${subjectJson(s, lens, order)},"admission":${admission},"result":${canonical}}\n`,
    )
  );
}

/**
 * The artifact the provider prints for an admitted slot: the rart1_ reference via a repository context, else the path.
 */
function expectedArtifact(s: SimWorld, lens: string, order: number, digest: string, path?: string): string {
  const ids = s.ids;
  const subject = ids.subjectHash(lens as never);
  const preimage =
    `{"Schema":"gentle-ai.review-result-artifact/v2","Capability":"review.native_result_artifact","SHA256":"${digest}",` +
    `"LineageID":"${ids.lineageId}","TargetIdentity":"${ids.targetIdentity}","Lens":"${lens}","SubjectHash":"${subject}",` +
    `"SelectedOrder":${order},"AdmissionDecision":"completed"}`;
  return goIndent({
    schema: "gentle-ai.review-result-artifact/v2",
    capability: "review.native_result_artifact",
    ...(path === undefined ? { reference: "rart1_" + sha(preimage) } : { path }),
    sha256: digest,
    lineage_id: ids.lineageId,
    target_identity: ids.targetIdentity,
    lens,
    selected_order: order,
    subject_hash: subject,
    admission_decision: "completed",
  });
}

/** The capture preflight document (review_incident.go:29-41) with its manifest entries. */
function expectedPreflight(s: SimWorld, lens: string, order: number, root?: string): Record<string, unknown> {
  const ids = s.ids;
  return {
    schema: "gentle-ai.review-capture-preflight/v1",
    capability: "review.native_capture_preflight",
    ...(root === undefined ? {} : { repository_root: root }),
    lineage_id: ids.lineageId,
    target_identity: ids.targetIdentity,
    lens,
    selected_order: order,
    artifact_subject: JSON.parse(subjectJson(s, lens, order)) as unknown,
    base_tree: ids.baseTree,
    candidate_tree: ids.candidateTree,
    changed_path_manifest: ids.manifest.map((m) => ({
      path: m.path,
      status: m.status,
      old_mode: m.status === "A" ? "000000" : "100644",
      new_mode: m.status === "D" ? "000000" : "100644",
      deleted: m.status === "D",
      type_changed: false,
      mode_only: false,
      intended_untracked: false,
    })),
  };
}

function openLenses(r: Run): string[] {
  const status = JSON.parse(r.stdoutText) as {
    next_transition: { collect?: { inputs: { arguments: { name: string; value: string }[] }[] } };
  };
  return (status.next_transition.collect?.inputs ?? []).map((i) => i.arguments.find((a) => a.name === "lens")!.value);
}

describe("materialize", () => {
  it("prints deterministic prompt bytes carrying the full preflight, read-only and byte-identical on repeat", async () => {
    const s = sim({ profile: "2.4.0" });
    const argv = [
      "review",
      "capture-result",
      ...s.binding("review-readability", 2),
      "--agent=pi",
      "--materialize=true",
    ];
    const [a, b] = await Promise.all([s.run(argv, { env: HANDSHAKE }), s.run(argv, { env: HANDSHAKE })]);
    expect(a.code).toBe(0);
    expect(a.stderrText).toBe("");
    expect(a.stdout.equals(b.stdout)).toBe(true);
    const ids = s.ids;
    const lc = await s.run([
      "review",
      "lens-context",
      "--repository-context",
      ids.repositoryContext,
      "--lens",
      "review-readability",
    ]);
    expect([lc.stderrText, lc.code]).toEqual(["", 0]);
    expect(lc.stdout.equals(a.stdout)).toBe(true); // review_provider.go:62-78: the same lens-context block
    const lines = a.stdoutText.split("\n");
    expect(lines[0]).toBe(
      `GENTLE_AI_REVIEW_BINDING {"lineage":"${ids.lineageId}","target":"${ids.targetIdentity}","lens":"review-readability","order":2,` +
        `"revision":"${ids.revision(0)}","repository_context":"${ids.repositoryContext}","subject_hash":"${ids.subjectHash("review-readability")}"}`,
    );
    // review_lens_context.go:455-472: the whole preflight object, repository_root left empty.
    expect(lines[1]).toBe(`GENTLE_AI_REVIEW_CONTEXT ${JSON.stringify(expectedPreflight(s, "review-readability", 2))}`);
    expect(lines[2]).toBe("GENTLE_AI_REVIEW_INSTRUCTION");
    expect(lines[3]).toBe(
      "You are the R2 Readability lens of one bounded Gentle AI review. Inspect maintainability defects that obscure behavior: misleading names, duplicated or dead logic, unexplained business constants, unsafe complexity, and missing change context. Report style only when it hides a concrete defect or makes the change unsafe to maintain.",
    );
    expect(a.stdoutText).toContain(
      `Scope. The GENTLE_AI_REVIEW_PATCH sections below are the complete and only view of this candidate: all ${ids.manifest.length} changed paths are present in full, in the canonical manifest order carried by GENTLE_AI_REVIEW_CONTEXT.`,
    );
    expect(a.stdoutText).toContain(`Set subject_hash to exactly ${ids.subjectHash("review-readability")}.`);
    expect(a.stdoutText).toContain("findings and evidence must both be present, and evidence must be non-empty.\n");
    const schema = JSON.parse(
      a.stdoutText.split("GENTLE_AI_REVIEW_RESULT_SCHEMA\n")[1]!.split("\nGENTLE_AI_REVIEW_RESULT_SCHEMA_END")[0]!,
    ) as {
      $id: string;
      properties: { evidence: unknown };
    };
    expect(schema.$id).toBe("https://gentle-ai.dev/schema/review/reviewer/v1");
    expect(schema.properties.evidence).toMatchObject({
      type: "array",
      minItems: 1,
      items: { type: "string", pattern: "\\S" },
    });
    const headers = lines.filter(
      (l) =>
        /^GENTLE_AI_REVIEW_[A-Z_]+( |$)/.test(l) &&
        !l.startsWith("GENTLE_AI_REVIEW_BINDING") &&
        !l.startsWith("GENTLE_AI_REVIEW_CONTEXT "),
    );
    const patches = ids.manifest.flatMap((m, i) => [
      `GENTLE_AI_REVIEW_PATCH ${i} ${m.path}`,
      "GENTLE_AI_REVIEW_PATCH_END",
    ]);
    expect(headers).toEqual([
      "GENTLE_AI_REVIEW_INSTRUCTION",
      "GENTLE_AI_REVIEW_INSTRUCTION_END",
      "GENTLE_AI_REVIEW_RESULT_SCHEMA",
      "GENTLE_AI_REVIEW_RESULT_SCHEMA_END",
      "GENTLE_AI_REVIEW_NAME_STATUS",
      "GENTLE_AI_REVIEW_NAME_STATUS_END",
      "GENTLE_AI_REVIEW_NUMSTAT",
      "GENTLE_AI_REVIEW_NUMSTAT_END",
      ...patches,
      "GENTLE_AI_REVIEW_CONTEXT_END",
    ]);
    const ns = a.stdoutText.split("GENTLE_AI_REVIEW_NAME_STATUS\n")[1]!.split("\nGENTLE_AI_REVIEW_NAME_STATUS_END")[0]!;
    expect(ns).toBe(ids.manifest.map((m) => `${m.status}\t${m.path}`).join("\n"));
    expect(a.stdoutText.endsWith("GENTLE_AI_REVIEW_CONTEXT_END\n")).toBe(true);
    expect(s.state()).toBeUndefined(); // nothing persisted
  });
});

describe("review lens-context refusals (review_lens_context.go RunReviewLensContext)", () => {
  it("takes exactly the handle and the lens, refuses a caller-declared provider_contract and an unselected lens", async () => {
    const s = sim({ profile: "2.4.0", lineage: { lenses: ["review-risk"] } });
    const lc = (...rest: string[]) => s.run(["review", "lens-context", ...rest]);
    const [missing, contract, unknown, unselected] = await Promise.all([
      lc("--repository-context", s.ids.repositoryContext),
      lc("--repository-context", s.ids.repositoryContext, "--lens", "review-risk", "--delivery", "provider_contract"),
      lc("--repository-context", s.ids.repositoryContext, "--lens", "review-risk", "--delivery", "Runtime"),
      lc("--repository-context", s.ids.repositoryContext, "--lens", "review-reliability"),
    ]);
    expect([missing.code, missing.stdoutText, missing.stderrText]).toEqual([
      1,
      "",
      "Error: review lens-context requires the exact provider-issued repository context and lens carried by the collect transition; run `gentle-ai review lens-context --help` for the closed command form\n",
    ]);
    expect(contract.stderrText).toBe(
      "Error: review lens-context delivery provider_contract is reserved for Go-owned provider execution and cannot be declared by callers\n",
    );
    expect(unknown.stderrText).toBe(
      'Error: unknown reviewer context delivery "Runtime"; run `gentle-ai review lens-context --help` for the closed command form\n',
    );
    expect(unselected.stderrText).toBe(
      "Error: lens_context_lens_not_selected: provider-owned reviewer lens context was not produced; ask the parent orchestrator to refresh the exact native next transition by running gentle-ai review status --cwd <repo> --contract gentle-ai.review-integration/v2 --next-transition, then run this operation again with the tokens it returns\n",
    );
    const runtime = await lc(
      "--repository-context",
      s.ids.repositoryContext,
      "--lens",
      "review-risk",
      "--delivery=runtime_interception",
    );
    expect([runtime.code, runtime.stderrText]).toEqual([0, ""]);
  });
});

describe("--preflight (2.4.0)", () => {
  const s = sim({ profile: "2.4.0", lineage: { lenses: ["review-risk", "review-reliability"] } });

  it("without --input prints the capture preflight: repository_root only on the --cwd route", async () => {
    const ids = s.ids;
    const viaContext = await s.run(["review", "capture-result", ...s.binding("review-reliability", 1), "--preflight"]);
    expect([viaContext.stderrText, viaContext.code]).toEqual(["", 0]);
    expect(viaContext.stdoutText).toBe(goReviewJson(expectedPreflight(s, "review-reliability", 1)));
    CapturePreflightSchema.parse(JSON.parse(viaContext.stdoutText));
    const cwd = [
      "review",
      "capture-result",
      `--lineage=${ids.lineageId}`,
      `--target=${ids.targetIdentity}`,
      "--lens=review-risk",
      "--order=0",
      "--preflight",
      `--cwd=${s.dir}`,
    ];
    const viaCwd = await s.run(cwd);
    expect(viaCwd.stdoutText).toBe(goReviewJson(expectedPreflight(s, "review-risk", 0, s.dir)));
    const stale = await s.run([...cwd, `--subject-hash=sha256:${"c".repeat(64)}`]);
    expect(stale.stderrText).toBe(
      "Error: review capture preflight subject hash does not match the provider-owned authority; refresh the binding with gentle-ai review status --cwd <repo> --contract <same-contract> --next-transition [capture_binding_mismatch]\n",
    );
    expect(s.state()).toBeUndefined();
  });

  it("with --input prints the admission dry run and captures nothing", async () => {
    const ok = await s.run([
      "review",
      "capture-result",
      ...s.binding("review-risk", 0),
      "--preflight",
      `--input=${s.file("dry.json", s.piResult("review-risk"))}`,
    ]);
    expect([ok.stderrText, ok.code]).toEqual(["", 0]);
    expect(ok.stdoutText).toBe(
      goIndent({
        schema: "gentle-ai.review-capture-result-dry-run/v1",
        operation: "review/capture-result",
        validation: "accepted",
        lineage_id: s.ids.lineageId,
        lens: "review-risk",
        selected_order: 0,
        subject_hash: s.ids.subjectHash("review-risk"),
        admission_decision: "completed",
      }),
    );
    CaptureResultDryRunSchema.parse(JSON.parse(ok.stdoutText));
    const empty = await s.run([
      "review",
      "capture-result",
      ...s.binding("review-risk", 0),
      "--preflight",
      `--input=${s.file("dry-empty.json", s.piResult("review-risk").replace(`["${EVIDENCE}"]`, "[]"))}`,
    ]);
    expect(empty.stderrText).toBe(
      "Error: canonicalize reviewer result 1: lens result requires explicit findings and concrete evidence [invalid_request]\n",
    );
    expect(s.state()).toBeUndefined();
  });
});

describe("submission, slot rules and lifecycle across processes (2.4.0)", () => {
  const s = sim({ profile: "2.4.0", lineage: { lenses: ["review-risk", "review-reliability"] } });
  const sub = (lens: string, order: number, file: string) => [
    "review",
    "capture-result",
    ...s.binding(lens, order),
    `--input=${file}`,
  ];

  it("refuses bad payloads without consuming the slot", async () => {
    const risk = s.piResult("review-risk");
    const cases: [string, string][] = [
      [
        " \n\t",
        "reviewer result payload is empty or whitespace-only: the task may have completed without producing output",
      ],
      [
        "<task_result>{}</task_result>",
        "reviewer result payload contains a raw XML task envelope: extract the strict JSON reviewer output from <task_result> before capture",
      ],
      ["no json here", "lens provider result admission incomplete: reviewer payload contains no complete JSON object"],
      [
        'note {"a":1} and {"b":2}',
        "lens provider result admission ambiguous: reviewer payload contains multiple JSON objects",
      ],
      [risk.replace('"lens"', '"x":1,"lens"'), 'decode reviewer result: json: unknown field "x"'],
      [
        risk.replace(`"evidence":["${EVIDENCE}"]`, '"evidence":[{"id":"E1","observation":"o"}]'),
        "decode reviewer result: json: cannot unmarshal object into Go struct field facadeReviewerResult.evidence of type string",
      ],
      [risk.replace(',"findings":[]', ""), "reviewer result requires explicit findings and evidence arrays"],
      [
        risk.replace(`["${EVIDENCE}"]`, "[]"),
        "canonicalize reviewer result 1: lens result requires explicit findings and concrete evidence",
      ],
      [
        risk.replace(s.ids.subjectHash("review-risk"), "sha256:" + "0".repeat(64)),
        `reviewer artifact admission binding_mismatch: reviewer result echoed a different artifact subject: the rejected admission did not consume the lens slot, so re-run the lens and invoke gentle-ai review capture-result again on the same lineage with a result that echoes the binding's top-level subject_hash, which is ${s.ids.subjectHash("review-risk")}`,
      ],
    ];
    const runs = await Promise.all(
      cases.map(([bytes], i) => s.run(sub("review-risk", 0, s.file(`bad${i}.txt`, bytes)))),
    );
    runs.forEach((r, i) => {
      const text = cases[i]![1];
      expect(r.stderrText).toBe(`Error: ${text} [invalid_request]\n`);
      expect(r.stdoutText).toBe(
        envelope("review.capture-result", "invalid_request", INVALID, "correct_request", text, s.ids.lineageId),
      );
      expect(r.code).toBe(1);
    });
    const missing = await s.run(sub("review-risk", 0, "missing.json"));
    expect(missing.stderrText).toBe(
      "Error: read reviewer result: open missing.json: no such file or directory [invalid_request]\n",
    );
    expect(s.state()).toBeUndefined();
    expect(openLenses(await s.run([...STATUS, "--next-transition"]))).toEqual(["review-risk", "review-reliability"]);
  });

  it("captures, replays byte-identical raw bytes, refuses any other bytes (even a re-formatting)", async () => {
    const raw = s.piResult("review-risk");
    ReviewerResultSchema.parse(JSON.parse(raw));
    const input = s.file("risk.json", raw);
    const first = await s.run(sub("review-risk", 0, input));
    expect(first.stderrText).toBe("");
    expect(first.code).toBe(0);
    expect(first.stdoutText).toBe(expectedArtifact(s, "review-risk", 0, slotDigest(s, "review-risk", 0, raw)));
    ResultArtifactV2Schema.parse(JSON.parse(first.stdoutText));
    const again = await s.run(sub("review-risk", 0, s.file("risk-copy.json", raw)));
    expect(again.code).toBe(0);
    expect(again.stdout.equals(first.stdout)).toBe(true);
    // The slot bytes carry the raw payload's digest (ArtifactAdmission.raw_sha256), so a re-formatted resubmission
    // conflicts.
    const pretty = s.file("risk-pretty.json", JSON.stringify(JSON.parse(raw), null, 4));
    const text =
      "reviewer_result_slot_occupied: a different reviewer result already occupies this immutable slot; refresh the negotiated STATUS transition with gentle-ai review status --cwd <repo> --contract gentle-ai.review-integration/v2 --next-transition and follow its authoritative continuation: captured reviewer result slot conflicts with different canonical bytes";
    for (const other of [pretty, s.file("risk2.json", s.piResult("review-risk", "a different inspection narrative"))]) {
      const occupied = await s.run(sub("review-risk", 0, other));
      expect(occupied.code).toBe(1);
      expect(occupied.stderrText).toBe(`Error: ${text} [reviewer_result_slot_occupied]\n`);
      expect(occupied.stdoutText).toBe(
        envelope(
          "review.capture-result",
          "reviewer_result_slot_occupied",
          "A different reviewer result already occupies this immutable slot; re-derive the exact next transition before retrying.",
          "review.status",
          text.replace("gentle-ai.review-integration/v2", "gentle-ai.review-integration<redacted>"),
          s.ids.lineageId,
        ),
      );
    }
    // A captured slot is never re-offered; materializing it still prints the task (review_artifact.go:398-418 has no
    // slot check).
    expect(openLenses(await s.run([...STATUS, "--next-transition"]))).toEqual(["review-reliability"]);
    const mat = await s.run(
      ["review", "capture-result", ...s.binding("review-risk", 0), "--agent=pi", "--materialize=true"],
      { env: HANDSHAKE },
    );
    expect([mat.code, mat.stderrText]).toEqual([0, ""]);
    expect(mat.stdoutText.startsWith("GENTLE_AI_REVIEW_BINDING ")).toBe(true);
  });

  it("prints the absolute slot path on the --cwd route and reaches captured_results_ready, from stdin", async () => {
    const raw = s.piResult("review-reliability");
    const ids = s.ids;
    const last = await s.run(
      [
        "review",
        "capture-result",
        `--lineage=${ids.lineageId}`,
        `--target=${ids.targetIdentity}`,
        "--lens=review-reliability",
        "--order=1",
        "--input=-",
      ],
      { stdin: raw },
    );
    expect(last.code).toBe(0);
    // <git common dir>/gentle-ai/review-transactions/v2/<lineage>/reviewer-results/%02d-<lens>.json, the state dir
    // standing in for the git dir.
    const path = join(
      s.stateDir,
      "gentle-ai",
      "review-transactions",
      "v2",
      ids.lineageId,
      "reviewer-results",
      "01-review-reliability.json",
    );
    expect(last.stdoutText).toBe(
      expectedArtifact(s, "review-reliability", 1, slotDigest(s, "review-reliability", 1, raw), path),
    );
    ResultArtifactV2Schema.parse(JSON.parse(last.stdoutText));
    const st = await s.run([...STATUS, "--next-transition"]);
    const status = JSON.parse(st.stdoutText) as {
      next_transition: { execute: { artifacts: Record<string, unknown>[] } };
      authority: { revision: string };
    };
    // The execute form of review_next_transition.go:236-247: command, {name,value} preconditions, binding and the
    // captured artifacts (their printed form without the provider-owned path, :1122-1127).
    const { path: _path, reference: _reference, ...printed } = JSON.parse(last.stdoutText) as Record<string, unknown>;
    expect(status.next_transition).toEqual({
      kind: "execute",
      reason_code: "captured_results_ready",
      execute: {
        operation: "review.finalize",
        command: `gentle-ai review finalize --lineage=${ids.lineageId} --captured-results=true`,
        arguments: [
          { name: "lineage", value: ids.lineageId, token: `--lineage=${ids.lineageId}` },
          { name: "captured_results", value: "true", token: "--captured-results=true" },
        ],
        preconditions: [
          { name: "state", value: "reviewing" },
          { name: "captured_artifacts", value: "complete" },
        ],
        binding: {
          lineage_id: ids.lineageId,
          revision: ids.revision(0),
          target_identity: ids.targetIdentity,
          repository_context: ids.repositoryContext,
        },
        artifacts: [status.next_transition.execute.artifacts[0], printed],
      },
    });
    expect(status.next_transition.execute.artifacts[0]).toMatchObject({ lens: "review-risk", selected_order: 0 });
    expect(status.authority.revision).toBe(s.ids.revision(0)); // captures never advance the revision
  });
});

describe("parallel submissions against one state dir", () => {
  it("lands 8 concurrent submits (4 lenses x 2 identical) and leaves a valid state file", async () => {
    const s = sim({ profile: "2.4.0" });
    const lenses = ["review-risk", "review-resilience", "review-readability", "review-reliability"];
    const files = lenses.map((l) => s.file(`${l}.json`, s.piResult(l)));
    const argvs = [...lenses, ...lenses].map((l, i) => [
      "review",
      "capture-result",
      ...s.binding(l, i % 4),
      `--input=${files[i % 4]}`,
    ]);
    const runs = await Promise.all(argvs.map((a) => s.run(a)));
    runs.forEach((r, i) => {
      const lens = lenses[i % 4]!;
      expect(r.stderrText).toBe("");
      expect(r.code).toBe(0);
      expect(r.stdoutText).toBe(expectedArtifact(s, lens, i % 4, slotDigest(s, lens, i % 4, s.piResult(lens))));
    });
    const state = LineageStateSchema.parse(s.state()); // the written file satisfies the format's zod schema
    expect(Object.keys(state.captured).sort()).toEqual([...lenses].sort());
    const st = JSON.parse((await s.run([...STATUS, "--next-transition"])).stdoutText) as {
      next_transition: { reason_code: string };
    };
    expect(st.next_transition.reason_code).toBe("captured_results_ready");
  });
});

describe("relay legs driven from STATUS tokens with the fake pi (2.4.0 and 2.5.0)", () => {
  for (const profile of ["2.4.0", "2.5.0"] as const) {
    it(`materializes, runs the fake pi and submits through the provider-owned form at ${profile}`, async () => {
      const s = sim({ profile, lineage: { lenses: ["review-resilience"] } });
      const st = JSON.parse(
        (await s.run([...STATUS, "--agent", "pi", "--next-transition"], { env: HANDSHAKE })).stdoutText,
      ) as {
        next_transition: {
          collect: {
            inputs: {
              arguments: { token: string }[];
              submission: {
                operation_token: string;
                argument_tokens: string[];
                value: { substitution_location: number };
              };
            }[];
          };
        };
      };
      const input = st.next_transition.collect.inputs[0]!;
      const prompt = await s.run(["review", "capture-result", ...input.arguments.map((a) => a.token)], {
        env: HANDSHAKE,
      });
      expect(prompt.code).toBe(0);
      const result = await runSim("pi", ["--print", "--mode", "text", "--no-session"], {
        input: prompt.stdout,
        env: {
          PATH: process.env["PATH"] ?? "",
          GENTLE_AI_SIM_SCENARIO: s.scenarioPath,
          GENTLE_AI_SIM_STATE: s.stateDir,
        },
      });
      expect(result.code).toBe(0);
      ReviewerResultSchema.parse(JSON.parse(result.stdoutText));
      const file = s.file("result.raw", result.stdout);
      const sub = input.submission;
      const tokens = sub.argument_tokens.map((t, i) =>
        i === sub.value.substitution_location ? t.split("{{value}}").join(file) : t,
      );
      const submitted = await s.run(["review", sub.operation_token, ...tokens], { env: HANDSHAKE });
      expect(submitted.stderrText).toBe("");
      expect(submitted.code).toBe(0);
      expect(JSON.parse(submitted.stdoutText)).toMatchObject({
        schema: "gentle-ai.review-result-artifact/v2",
        lens: "review-resilience",
        admission_decision: "completed",
      });
      // Both profiles print the published 8-token form (status-v5.schema.json capture_result_submission_descriptor):
      // it carries no --agent, so an identical resubmission without the handshake replays the artifact.
      expect(tokens.some((t) => t.startsWith("--agent"))).toBe(false);
      const replayed = await s.run(["review", sub.operation_token, ...tokens]);
      expect([replayed.code, replayed.stdoutText]).toEqual([0, submitted.stdoutText]);
      const after = JSON.parse(
        (await s.run([...STATUS, "--agent", "pi", "--next-transition"], { env: HANDSHAKE })).stdoutText,
      ) as {
        next_transition: { reason_code: string };
      };
      expect(after.next_transition.reason_code).toBe("captured_results_ready");
    });
  }
});
