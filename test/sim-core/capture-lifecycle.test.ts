// Materialize determinism, submission admission, slot rules and cross-process state (§7.3-§7.6, §8.4).
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { envelope, goIndent, HANDSHAKE, INVALID, ROOT, Sim, simFactory, V2 } from "./helpers.ts";
import { LineageStateSchema } from "../../simulator/state/lineage-state.ts";
import type { Run } from "./helpers.ts";

const sim = simFactory();

const STATUS = ["review", "status", "--contract", V2, "--cwd", ".", "--projection", "workspace"];

function sha(text: string | Buffer): string {
  return createHash("sha256").update(text).digest("hex");
}

/** The artifact the real provider prints for an admitted slot via a repository context (§7.5). */
function expectedArtifact(s: Sim, lens: string, order: number, canonical: string): string {
  const ids = s.ids;
  const digest = "sha256:" + sha(canonical);
  const subject = ids.subjectHash(lens as never);
  const preimage =
    `{"Schema":"gentle-ai.review-result-artifact/v2","Capability":"review.native_result_artifact","SHA256":"${digest}",` +
    `"LineageID":"${ids.lineageId}","TargetIdentity":"${ids.targetIdentity}","Lens":"${lens}","SubjectHash":"${subject}",` +
    `"SelectedOrder":${order},"AdmissionDecision":"completed"}`;
  return goIndent({
    schema: "gentle-ai.review-result-artifact/v2",
    capability: "review.native_result_artifact",
    reference: "rart1_" + sha(preimage),
    sha256: digest,
    lineage_id: ids.lineageId,
    target_identity: ids.targetIdentity,
    lens,
    selected_order: order,
    subject_hash: subject,
    admission_decision: "completed",
  });
}

function canonicalPi(s: Sim, lens: string): string {
  // Go re-marshal of the fake pi's result: struct order, compact, no trailing newline.
  return s.piResult(lens).trimEnd();
}

function openLenses(r: Run): string[] {
  const status = JSON.parse(r.stdout) as { next_transition: { collect?: { inputs: { arguments: { name: string; value: string }[] }[] } } };
  return (status.next_transition.collect?.inputs ?? []).map((i) => i.arguments.find((a) => a.name === "lens")!.value);
}

describe("materialize", () => {
  it("prints deterministic prompt bytes, read-only and byte-identical on repeat", async () => {
    const s = sim({ profile: "2.4.0" });
    const argv = ["review", "capture-result", ...s.binding("review-readability", 2), "--agent=pi", "--materialize=true"];
    const [a, b] = await Promise.all([s.run(argv, { env: HANDSHAKE }), s.run(argv, { env: HANDSHAKE })]);
    expect(a.code).toBe(0);
    expect(a.stderr).toBe("");
    expect(a.stdoutBytes.equals(b.stdoutBytes)).toBe(true);
    const ids = s.ids;
    const lc = await s.run(["review", "lens-context", "--repository-context", ids.repositoryContext, "--lens", "review-readability"]);
    expect([lc.stderr, lc.code]).toEqual(["", 0]);
    expect(lc.stdoutBytes.equals(a.stdoutBytes)).toBe(true); // §7.3: same bytes as review lens-context
    const lines = a.stdout.split("\n");
    expect(lines[0]).toBe(
      `GENTLE_AI_REVIEW_BINDING {"lineage":"${ids.lineageId}","target":"${ids.targetIdentity}","lens":"review-readability","order":2,` +
        `"revision":"${ids.revision(0)}","repository_context":"${ids.repositoryContext}","subject_hash":"${ids.subjectHash("review-readability")}"}`,
    );
    expect(lines[1]!.startsWith('GENTLE_AI_REVIEW_CONTEXT {"schema":"gentle-ai.review-capture-preflight/v1","capability":"review.native_capture_preflight",')).toBe(true);
    const headers = lines.filter((l) => /^GENTLE_AI_REVIEW_[A-Z_]+( |$)/.test(l) && !l.startsWith("GENTLE_AI_REVIEW_BINDING") && !l.startsWith("GENTLE_AI_REVIEW_CONTEXT "));
    const patches = ids.manifest.flatMap((m, i) => [`GENTLE_AI_REVIEW_PATCH ${i} ${m.path}`, "GENTLE_AI_REVIEW_PATCH_END"]);
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
    const ns = a.stdout.split("GENTLE_AI_REVIEW_NAME_STATUS\n")[1]!.split("\nGENTLE_AI_REVIEW_NAME_STATUS_END")[0]!;
    expect(ns).toBe(ids.manifest.map((m) => `${m.status}\t${m.path}`).join("\n"));
    expect(a.stdout.endsWith("GENTLE_AI_REVIEW_CONTEXT_END\n")).toBe(true);
    expect(s.state()).toBeUndefined(); // nothing persisted
  });
});

describe("submission, slot rules and lifecycle across processes (2.4.0)", () => {
  const s = sim({ profile: "2.4.0", lineage: { lenses: ["review-risk", "review-reliability"] } });
  const sub = (lens: string, order: number, file: string) => ["review", "capture-result", ...s.binding(lens, order), `--input=${file}`];

  it("refuses bad payloads without consuming the slot", async () => {
    const cases: [string, string][] = [
      [" \n\t", "reviewer result payload is empty or whitespace-only: the task may have completed without producing output"],
      ["<task_result>{}</task_result>", "reviewer result payload contains a raw XML task envelope: extract the strict JSON reviewer output from <task_result> before capture"],
      ["no json here", "lens provider result admission incomplete: reviewer payload contains no complete JSON object"],
      ['note {"a":1} and {"b":2}', "lens provider result admission ambiguous: reviewer payload contains multiple JSON objects"],
      [s.piResult("review-risk").replace('"lens"', '"x":1,"lens"'), 'decode reviewer result: json: unknown field "x"'],
      [s.piResult("review-risk").trimEnd() + " 7", "decode reviewer result: input contains multiple JSON values"],
      [s.piResult("review-risk").replace(',"findings":[]', ""), "reviewer result requires explicit findings and evidence arrays"],
      [
        s.piResult("review-risk").replace(s.ids.subjectHash("review-risk"), "sha256:" + "0".repeat(64)),
        "reviewer artifact admission binding_mismatch: subject_hash does not match the provider-issued artifact subject",
      ],
    ];
    const runs = await Promise.all(cases.map(([bytes], i) => s.run(sub("review-risk", 0, s.file(`bad${i}.txt`, bytes)))));
    runs.forEach((r, i) => {
      const text = cases[i]![1];
      expect(r.stderr).toBe(`Error: ${text} [invalid_request]\n`);
      expect(r.stdout).toBe(envelope("review.capture-result", "invalid_request", INVALID, "correct_request", text, s.ids.lineageId));
      expect(r.code).toBe(1);
    });
    const missing = await s.run(sub("review-risk", 0, "missing.json"));
    expect(missing.stderr).toBe("Error: read reviewer result: open missing.json: no such file or directory [invalid_request]\n");
    expect(s.state()).toBeUndefined();
    expect(openLenses(await s.run([...STATUS, "--next-transition"]))).toEqual(["review-risk", "review-reliability"]);
  });

  it("captures, accepts an identical (re-formatted) resubmission byte-identically, refuses different bytes", async () => {
    const input = s.file("risk.json", s.piResult("review-risk"));
    const first = await s.run(sub("review-risk", 0, input));
    expect(first.stderr).toBe("");
    expect(first.code).toBe(0);
    expect(first.stdout).toBe(expectedArtifact(s, "review-risk", 0, canonicalPi(s, "review-risk")));
    const pretty = s.file("risk-pretty.json", JSON.stringify(JSON.parse(s.piResult("review-risk")), null, 4));
    const again = await s.run(sub("review-risk", 0, pretty));
    expect(again.code).toBe(0);
    expect(again.stdoutBytes.equals(first.stdoutBytes)).toBe(true);
    const different = s.piResult("review-risk").replace('"findings":[]', '"findings":[{"location":"a:1","severity":"WARNING","claim":"c","proof_refs":["E1"]}]').replace('"evidence":[]', '"evidence":[{"id":"E1","observation":"o"}]');
    const occupied = await s.run(sub("review-risk", 0, s.file("risk2.json", different)));
    const text =
      "reviewer_result_slot_occupied: a different reviewer result already occupies this immutable slot; refresh the negotiated STATUS transition with gentle-ai review status --cwd <repo> --contract gentle-ai.review-integration/v2 --next-transition and follow its authoritative continuation: captured reviewer result slot conflicts with different canonical bytes";
    expect(occupied.code).toBe(1);
    expect(occupied.stderr).toBe(`Error: ${text} [reviewer_result_slot_occupied]\n`);
    expect(occupied.stdout).toBe(
      envelope(
        "review.capture-result",
        "reviewer_result_slot_occupied",
        "A different reviewer result already occupies this immutable slot; re-derive the exact next transition before retrying.",
        "review.status",
        text.replace("gentle-ai.review-integration/v2", "gentle-ai.review-integration<redacted>"),
        s.ids.lineageId,
      ),
    );
    // A captured slot is never re-offered, and materializing it is re-bound drift.
    expect(openLenses(await s.run([...STATUS, "--next-transition"]))).toEqual(["review-reliability"]);
    const mat = await s.run(["review", "capture-result", ...s.binding("review-risk", 0), "--agent=pi", "--materialize=true"], { env: HANDSHAKE });
    expect(mat.stderr).toBe("Error: provider reviewer invocation no longer matches the current reviewing authority [capture_binding_mismatch]\n");
  });

  it("offers captured_results_ready once the last lens is captured, from stdin", async () => {
    const last = await s.run(["review", "capture-result", ...s.binding("review-reliability", 1), "--input=-"], { stdin: s.piResult("review-reliability") });
    expect(last.code).toBe(0);
    expect(last.stdout).toBe(expectedArtifact(s, "review-reliability", 1, canonicalPi(s, "review-reliability")));
    const st = await s.run([...STATUS, "--next-transition"]);
    const status = JSON.parse(st.stdout) as Record<string, unknown>;
    // The execute form of review_next_transition.go:236-247: command, {name,value} preconditions, binding and the
    // captured artifacts (their printed form without the provider-owned path, :1122-1127).
    const artifact = (lens: string, order: number) => {
      const printed = JSON.parse(expectedArtifact(s, lens, order, canonicalPi(s, lens))) as Record<string, unknown>;
      const { path: _path, reference: _reference, ...rest } = printed;
      return rest;
    };
    expect(status["next_transition"]).toEqual({
      kind: "execute",
      reason_code: "captured_results_ready",
      execute: {
        operation: "review.finalize",
        command: `gentle-ai review finalize --lineage=${s.ids.lineageId} --captured-results=true`,
        arguments: [
          { name: "lineage", value: s.ids.lineageId, token: `--lineage=${s.ids.lineageId}` },
          { name: "captured_results", value: "true", token: "--captured-results=true" },
        ],
        preconditions: [
          { name: "state", value: "reviewing" },
          { name: "captured_artifacts", value: "complete" },
        ],
        binding: { lineage_id: s.ids.lineageId, revision: s.ids.revision(0), target_identity: s.ids.targetIdentity, repository_context: s.ids.repositoryContext },
        artifacts: [artifact("review-risk", 0), artifact("review-reliability", 1)],
      },
    });
    // Captures never advance the revision (§7.6).
    expect((status["authority"] as Record<string, unknown>)["revision"]).toBe(s.ids.revision(0));
  });
});

describe("parallel submissions against one state dir", () => {
  it("lands 8 concurrent submits (4 lenses x 2 identical) and leaves a valid state file", async () => {
    const s = sim({ profile: "2.4.0" });
    const lenses = ["review-risk", "review-resilience", "review-readability", "review-reliability"];
    const files = lenses.map((l) => s.file(`${l}.json`, s.piResult(l)));
    const argvs = [...lenses, ...lenses].map((l, i) => ["review", "capture-result", ...s.binding(l, i % 4), `--input=${files[i % 4]}`]);
    const runs = await Promise.all(argvs.map((a) => s.run(a)));
    runs.forEach((r, i) => {
      expect(r.stderr).toBe("");
      expect(r.code).toBe(0);
      expect(r.stdout).toBe(expectedArtifact(s, lenses[i % 4]!, i % 4, canonicalPi(s, lenses[i % 4]!)));
    });
    const state = LineageStateSchema.parse(s.state()); // the written file satisfies the format's zod schema
    expect(Object.keys(state.captured).sort()).toEqual([...lenses].sort());
    const st = JSON.parse((await s.run([...STATUS, "--next-transition"])).stdout) as { next_transition: { reason_code: string } };
    expect(st.next_transition.reason_code).toBe("captured_results_ready");
  });
});

describe("relay legs driven from STATUS tokens with the fake pi (2.4.0 and 2.5.0)", () => {
  for (const profile of ["2.4.0", "2.5.0"] as const) {
    it(`materializes, runs the fake pi and submits through the provider-owned form at ${profile}`, async () => {
      const s = sim({ profile, lineage: { lenses: ["review-resilience"] } });
      const st = JSON.parse((await s.run([...STATUS, "--agent", "pi", "--next-transition"], { env: HANDSHAKE })).stdout) as {
        next_transition: { collect: { inputs: { arguments: { token: string }[]; submission: { operation_token: string; argument_tokens: string[]; value: { substitution_location: number } } }[] } };
      };
      const input = st.next_transition.collect.inputs[0]!;
      const prompt = await s.run(["review", "capture-result", ...input.arguments.map((a) => a.token)], { env: HANDSHAKE });
      expect(prompt.code).toBe(0);
      const result = spawnSync(join(ROOT, "simulator/bin/pi"), ["--print", "--mode", "text", "--no-session"], {
        input: prompt.stdoutBytes,
        shell: false,
        env: { PATH: process.env["PATH"] ?? "", GENTLE_AI_SIM_SCENARIO: s.scenarioPath, GENTLE_AI_SIM_STATE: s.stateDir },
      });
      expect(result.status).toBe(0);
      const file = s.file("result.raw", result.stdout);
      const sub = input.submission;
      const tokens = sub.argument_tokens.map((t, i) => (i === sub.value.substitution_location ? t.split("{{value}}").join(file) : t));
      const submitted = await s.run(["review", sub.operation_token, ...tokens], { env: HANDSHAKE });
      expect(submitted.stderr).toBe("");
      expect(submitted.code).toBe(0);
      expect(JSON.parse(submitted.stdout)).toMatchObject({ schema: "gentle-ai.review-result-artifact/v2", lens: "review-resilience", admission_decision: "completed" });
      // Both profiles print the published 8-token form (status-v5.schema.json capture_result_submission_descriptor):
      // it carries no --agent, so an identical resubmission without the handshake replays the artifact.
      expect(tokens.some((t) => t.startsWith("--agent"))).toBe(false);
      const replayed = await s.run(["review", sub.operation_token, ...tokens]);
      expect([replayed.code, replayed.stdout]).toEqual([0, submitted.stdout]);
      const after = JSON.parse((await s.run([...STATUS, "--agent", "pi", "--next-transition"], { env: HANDSHAKE })).stdout) as { next_transition: { reason_code: string } };
      expect(after.next_transition.reason_code).toBe("captured_results_ready");
    });
  }
});
