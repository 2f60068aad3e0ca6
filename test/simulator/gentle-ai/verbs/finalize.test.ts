// review finalize against the built binary (§10, issue-279 §4-§5): preflight order, the validation document, captured
// evidence, the D2-before-D1 plan checks on both routes and identity modes, and lifecycle moves across processes.
import { describe, expect, it } from "vitest";
import { HANDSHAKE, V2 } from "../../../support/contract.ts";
import {
  correctionScenario,
  evidenceTokens,
  finalizeEnvelope,
  requestHash,
  statusOf,
  validationDoc,
} from "../../../support/correction-oracles.ts";
import { goIndent } from "../../../support/go-oracles.ts";
import { SimWorld, simWorlds } from "../../../support/sim-world.ts";

const sim = simWorlds();

const D1 = "targeted validation result does not bind the provider-owned correction request";
const D2 = "compact correction acceptance requires captured repository verification evidence";
const MUST_PASS = "compact correction repository verification must pass before acceptance";
const GENERIC = "Error: The negotiated review request is invalid. [invalid_request]\n";
const ALL_PROFILES = ["2.3.0", "2.4.0", "2.5.0"] as const;
// reviewApprovedCompactBurnedFinalizeAction (review_facade.go:90): the approved authority is burned on approval.
const BURNED = "the approved review completed and burned; delivery follows ordinary repository policy";
// Before the burn (b43e0928) the approval names its receipt's gate: real gentle-ai 2.4.0 (301fb2ad) bytes.
const VALIDATE = "validate delivery with gentle-ai review validate --gate <gate>";
/** The approving FINALIZE's action of a profile: only 2.5.0 (fb55ef7b) burns the lineage. */
const approvedAction = (profile: string): string => (profile === "2.5.0" ? BURNED : VALIDATE);

/** The finalize result of a success stdout: the plain document, or the negotiated operation envelope's result. */
function resultOf(stdout: string): Record<string, unknown> {
  const doc = JSON.parse(stdout) as Record<string, unknown>;
  return (doc["result"] ?? doc) as Record<string, unknown>;
}

/**
 * Runs finalize and checks the refusal on the route: negotiated (envelope + generic stderr) or plain (`Error: <text>`).
 */
async function expectRefusal(
  s: SimWorld,
  args: string[],
  text: string,
  negotiated: boolean,
  lineageId: string | null = s.ids.lineageId,
): Promise<void> {
  const r = await s.run(["review", "finalize", ...(negotiated ? ["--contract", V2] : []), ...args]);
  expect(r.code).toBe(1);
  if (negotiated) {
    expect(r.stdoutText).toBe(
      finalizeEnvelope(text.replace(/(?:[A-Za-z]:)?[\\/][^\s"'`]+/g, "<redacted>"), lineageId ?? undefined),
    );
    expect(r.stderrText).toBe(GENERIC);
  } else {
    expect(r.stdoutText).toBe("");
    expect(r.stderrText).toBe(`Error: ${text}\n`);
  }
}

describe.each(ALL_PROFILES)("issue #279 plan checks, profile %s", (profile) => {
  describe.each(["prefixed", "bare"] as const)("evidence identities %s", (mode) => {
    for (const negotiated of [true, false]) {
      const route = negotiated ? "negotiated" : "plain";
      it(`${route}: defective argv (three fields + --evidence) fails D2 first; three fields + captured evidence fails D1`, async () => {
        const s = sim(correctionScenario(profile, "validation_required", { identities: mode }));
        const v3 = s.file("validation.json", validationDoc(s, { fields: 3 }));
        const ev = s.file("evidence.txt", "ok\n");
        await expectRefusal(
          s,
          ["--cwd", s.dir, "--lineage", s.ids.lineageId, "--validation", v3, "--evidence", ev],
          D2,
          negotiated,
        );
        await expectRefusal(
          s,
          ["--cwd", s.dir, "--lineage", s.ids.lineageId, "--validation", v3, "--captured-evidence=true"],
          D1,
          negotiated,
        );
        // D1 fixed but D2 present: still D2.
        const v5 = s.file("validation5.json", validationDoc(s));
        await expectRefusal(
          s,
          ["--cwd", s.dir, "--lineage", s.ids.lineageId, "--validation", v5, "--evidence", ev],
          D2,
          negotiated,
        );
        expect(s.state()).toBeUndefined();
      });

      it(`${route}: only a prefixed/prefixed five-field document binds`, async () => {
        const s = sim(correctionScenario(profile, "validation_required", { identities: mode }));
        for (const [hash, target] of [
          ["bare", "prefixed"],
          ["prefixed", "bare"],
          ["bare", "bare"],
        ] as const) {
          const v = s.file(`v-${hash}-${target}.json`, validationDoc(s, { hash, target }));
          await expectRefusal(
            s,
            ["--lineage", s.ids.lineageId, "--validation", v, "--captured-evidence=true"],
            D1,
            negotiated,
          );
        }
        const ok = s.file("v-ok.json", validationDoc(s));
        const r = await s.run([
          "review",
          "finalize",
          ...(negotiated ? ["--contract", V2] : []),
          "--lineage",
          s.ids.lineageId,
          "--validation",
          ok,
          "--captured-evidence=true",
        ]);
        expect([r.code, r.stderrText]).toEqual([0, ""]);
        // ReviewFacadeFinalizeResult, or ReviewIntegrationFinalizeResult in operation/v2
        // (review_operation_contract.go:1566-1630).
        const result = {
          operation: "review/finalize",
          lineage_id: s.ids.lineageId,
          state: "approved",
          action: approvedAction(profile),
          store_revision: s.ids.revision(1),
        };
        expect(r.stdoutText).toBe(
          goIndent(
            negotiated
              ? {
                  schema: "gentle-ai.review-integration.operation/v2",
                  contract: V2,
                  operation: "review.finalize",
                  result,
                }
              : result,
          ),
        );
      });
    }
  });
});

describe("finalize validation document and captured evidence rules (2.4.0, negotiated)", () => {
  const s = sim(correctionScenario("2.4.0", "validation_required"));
  const L = ["--lineage", s.ids.lineageId];
  const cases: [string, string[], string][] = [
    [
      "unknown field",
      ["--validation", s.file("k.json", '{"k":1}'), "--captured-evidence=true"],
      'read targeted validation: json: unknown field "k"',
    ],
    [
      "two JSON values",
      ["--validation", s.file("two.json", "{} {}"), "--captured-evidence=true"],
      "read targeted validation: input contains multiple JSON values",
    ],
    [
      "empty document",
      ["--validation", s.file("empty.json", ""), "--captured-evidence=true"],
      "read targeted validation: EOF",
    ],
    [
      "missing keys decode to zero values",
      ["--validation", s.file("zero.json", "{}"), "--captured-evidence=true"],
      "targeted validation requires original_criteria and correction_regression evidence",
    ],
    [
      "captured evidence with --evidence",
      [
        "--validation",
        s.file("v.json", validationDoc(s)),
        "--captured-evidence=true",
        "--evidence",
        s.file("e.txt", "x"),
      ],
      "review finalize accepts exactly one reviewer-result source and one final-evidence source",
    ],
    [
      "--failed against a passed record",
      ["--validation", s.file("v2.json", validationDoc(s)), "--captured-evidence=true", "--failed"],
      "--failed conflicts with captured verification evidence outcome",
    ],
    [
      "empty evidence",
      ["--validation", s.file("ee.json", validationDoc(s, { evidence: [] })), "--captured-evidence=true"],
      "targeted validation requires original_criteria and correction_regression evidence",
    ],
    [
      "inconclusive evidence",
      [
        "--validation",
        s.file("inc.json", validationDoc(s, { evidence: ["inconclusive: tree unreadable"] })),
        "--captured-evidence=true",
      ],
      "targeted validation is inconclusive: original_criteria evidence reports the immutable candidate could not be inspected, so no verdict was produced and the correction attempt was not consumed; restore validator access to the frozen trees and run the same targeted validation again",
    ],
    [
      "missing validation file",
      ["--validation", "nope.json", "--captured-evidence=true"],
      "read targeted validation: open nope.json: no such file or directory",
    ],
  ];
  it.each(cases)("%s", async (_n, args, text) => {
    await expectRefusal(s, [...L, ...args], text, true);
  });

  it("captured evidence missing: --captured-evidence with no record", async () => {
    const t = sim(correctionScenario("2.4.0", "evidence_required"));
    await expectRefusal(
      t,
      ["--lineage", t.ids.lineageId, "--validation", t.file("v.json", validationDoc(t)), "--captured-evidence=true"],
      "captured verification evidence is missing",
      true,
    );
  });

  it("a failed record must pass before acceptance (after D2, before D1)", async () => {
    const t = sim(
      correctionScenario("2.4.0", "validation_required", {
        lineage: {
          state: "correction_required",
          correction: { stage: "validation_required", evidenceOutcome: "verification_failed" },
        },
      }),
    );
    await expectRefusal(
      t,
      [
        "--lineage",
        t.ids.lineageId,
        "--validation",
        t.file("v.json", validationDoc(t, { fields: 3 })),
        "--captured-evidence=true",
      ],
      MUST_PASS,
      true,
    );
    await expectRefusal(
      t,
      [
        "--lineage",
        t.ids.lineageId,
        "--validation",
        t.file("v5.json", validationDoc(t)),
        "--captured-evidence=true",
        "--failed",
      ],
      MUST_PASS,
      true,
    );
  });

  it("a v1 contract gets the failure/v1 envelope", async () => {
    const r = await s.run([
      "review",
      "finalize",
      "--contract",
      "gentle-ai.review-integration/v1",
      ...L,
      "--validation",
      s.file("v1.json", validationDoc(s, { fields: 3 })),
      "--captured-evidence=true",
    ]);
    expect(r.stdoutText).toBe(finalizeEnvelope(D1, s.ids.lineageId, 1));
    expect(r.stderrText).toBe(GENERIC);
  });
});

describe("finalize preflight refusals in source order", () => {
  const s = sim(correctionScenario("2.4.0", "validation_required"));
  const L = `--lineage=${s.ids.lineageId}`;
  const D = [
    `--expected-revision=${s.ids.revision(0)}`,
    `--target=${s.ids.correctionTargetIdentity}`,
    `--request-hash=${requestHash(s)}`,
    `--repository-context=${s.ids.repositoryContext}`,
  ];
  const AGENT1 =
    "review finalize --agent requires exactly one negotiated v2 runtime identity; refresh with `gentle-ai review status --contract gentle-ai.review-integration/v2 --next-transition`";
  const DESCRIPTORS =
    "review finalize submission descriptors require the complete v2 revision, target, request hash, and repository context binding; refresh with gentle-ai review status --next-transition";
  const NOT_ELIGIBLE =
    "the active runtime is not eligible for immutable receipt review; exit receipt-driven review with `gentle-ai review mode disable --scope clone --cwd <repo>`; supported immutable review runtimes: claude-code, opencode, codex";
  const cases: [string, string[], string, Record<string, string>?][] = [
    ["undefined flag (no lineage_id)", ["--bogus", L], "flag provided but not defined: -bogus"],
    [
      "detached bool",
      [L, "--captured-evidence", "true"],
      'boolean flag --captured-evidence takes --captured-evidence or --captured-evidence=true, not a separate value; got "true"',
    ],
    ["--agent twice beats partial descriptors", [L, "--agent=pi", "--agent=pi", D[0]!], AGENT1],
    ["pi without the handshake", [L, "--agent", "pi"], NOT_ELIGIBLE],
    [
      "pi with the handshake",
      [L, "--agent", "pi"],
      'review finalize provider runtime "pi" is host-mediated; use its live transport collection',
      HANDSHAKE,
    ],
    ["partial descriptors", [L, D[0]!, D[1]!], DESCRIPTORS],
    [
      "repository context with --cwd",
      [L, "--cwd", ".", ...D],
      "review finalize submission descriptors cannot combine --repository-context with --cwd; refresh with gentle-ai review status --next-transition",
    ],
    ["stdin twice", [L, "--validation", "-", "--evidence", "-"], "review finalize accepts stdin for only one input"],
    [
      "two reviewer-result sources",
      [L, "--captured-results=true", "--result-artifact", "rart1_x"],
      "review finalize accepts exactly one reviewer-result source and one final-evidence source",
    ],
    [
      "compiled --agent with --validation",
      [L, "--agent", "codex", "--validation", "v.json"],
      "review finalize --agent materializes provider refuter and validator requests; omit --refuter and --validation",
    ],
    // opencode passes the transport gate but is not an in-process role runtime (review_provider_runtime.go:44-46).
    [
      "opencode --agent",
      [L, "--agent", "opencode"],
      'review finalize provider runtime "opencode" is host-mediated; use its live transport collection',
    ],
  ];
  it.each(cases)("%s", async (name, args, text, env) => {
    const r = await s.run(["review", "finalize", "--contract", V2, ...args], { env: env ?? {} });
    expect(r.code).toBe(1);
    expect(r.stdoutText).toBe(
      finalizeEnvelope(
        text.replace(/(?:[A-Za-z]:)?[\\/][^\s"'`]+/g, "<redacted>"),
        name.startsWith("undefined") ? undefined : s.ids.lineageId,
      ),
    );
    expect(r.stderrText).toBe(GENERIC);
  });

  it("--agent outside --contract is refused on the plain route", async () => {
    await expectRefusal(s, [L, "--agent", "pi"], AGENT1, false);
  });

  it("2.5.0 names the handshake (PR #3444 wording)", async () => {
    const t = sim(correctionScenario("2.5.0", "validation_required"));
    await expectRefusal(
      t,
      [`--lineage=${t.ids.lineageId}`, "--agent", "pi"],
      "the active runtime is not eligible for immutable receipt review; pi is eligible only while GENTLE_PI_REVIEW_RELAY_CONTRACT declares the exact relay contract this binary admits, which the gentle-pi host exports on every invocation it relays; export it in this shell and re-run",
      true,
    );
  });

  it("2.3.0 defines no --agent: the flag error is the cause", async () => {
    const t = sim(correctionScenario("2.3.0", "validation_required"));
    // The lineage scan takes the registry's finalize shape, which names agent (review_operation_contract.go:103).
    await expectRefusal(
      t,
      [`--lineage=${t.ids.lineageId}`, "--agent", "pi"],
      "flag provided but not defined: -agent",
      true,
    );
    // Plain route: the flag line and usage stay on stdout.
    const r = await t.run(["review", "finalize", "--agent", "pi"]);
    expect(
      r.stdoutText.startsWith("flag provided but not defined: -agent\nUsage: gentle-ai review finalize [flags]\n\n"),
    ).toBe(true);
    expect(r.stderrText).toBe("Error: flag provided but not defined: -agent\n");
  });
});

describe("lifecycle across processes", () => {
  it("2.4.0: capture-evidence, then STATUS's finalize submission with the five-field document, reaches approved", async () => {
    const s = sim(correctionScenario("2.4.0", "evidence_required"));
    const ev = await s.run([
      "review",
      "capture-evidence",
      ...evidenceTokens(s),
      "--outcome=passed",
      `--input=${s.file("e.txt", "ok\n")}`,
    ]);
    expect(ev.code).toBe(0);
    const st = statusOf((await s.run(["review", "status", "--contract", V2, "--next-transition"])).stdoutText);
    const input = (
      st.next_transition.collect as {
        inputs: {
          submission: { operation_token: string; argument_tokens: string[]; value: { substitution_location: number } };
        }[];
      }
    ).inputs[0]!;
    const sub = input.submission;
    expect(sub.argument_tokens.slice(6)).toEqual(["--validation={{value}}", "--captured-evidence=true"]);
    const vr = st.validation_request as { request_hash: string; correction_target_identity: string };
    const doc = s.file(
      "validation.json",
      JSON.stringify({
        targeted_validation_request_hash: vr.request_hash,
        correction_target_identity: vr.correction_target_identity,
        original_criteria: { passed: true, evidence: ["fixed"] },
        correction_regression: { passed: true, evidence: ["no regression"] },
        follow_ups: [],
      }),
    );
    const argv = sub.argument_tokens.map((t, i) =>
      i === sub.value.substitution_location ? t.replace("{{value}}", doc) : t,
    );
    const fin = await s.run(["review", sub.operation_token, ...argv]);
    expect([fin.code, fin.stderrText]).toEqual([0, ""]);
    expect(JSON.parse(fin.stdoutText)).toEqual({
      schema: "gentle-ai.review-integration.operation/v2",
      contract: V2,
      operation: "review.finalize",
      result: {
        operation: "review/finalize",
        lineage_id: s.ids.lineageId,
        state: "approved",
        action: VALIDATE,
        store_revision: s.ids.revision(1),
      },
    });
    const after = statusOf((await s.run(["review", "status", "--contract", V2, "--next-transition"])).stdoutText);
    expect(after.authority.state).toBe("approved");
    // At 2.4.0 (301fb2ad, review_next_transition.go:341-373) an approved lineage with its receipt routes to the gate
    // that decides; the burn FINALIZE is fb55ef7b's.
    expect(after.next_transition).toMatchObject({
      kind: "execute",
      reason_code: "approved_receipt_ready",
      execute: { operation: "review.validate" },
    });
    expect(after.validation_request).toBeUndefined();
    // Before the burn (b43e0928) the approved authority stays: FINALIZE replays the approving document exactly and
    // refuses any new input, an untyped failure (301fb2ad review_facade.go:2815-2826, :3026-3031; real 2.4.0 bytes).
    const replay = await s.run(["review", "finalize", "--contract", V2, "--lineage", s.ids.lineageId]);
    expect([replay.code, replay.stdoutText, replay.stderrText]).toEqual([0, fin.stdoutText, ""]);
    const again = await s.run(["review", "finalize", "--captured-evidence=true"]);
    expect([again.code, again.stdoutText, again.stderrText]).toEqual([
      1,
      "",
      "Error: terminal review finalize accepts no review inputs; exact replay requires only --lineage\n",
    ]);
  });

  it("2.3.0: plain capture-evidence with --cwd, then the fixed negotiated finalize, reaches approved", async () => {
    const s = sim(correctionScenario("2.3.0", "evidence_required", { identities: "bare" }));
    const ev = await s.run([
      "review",
      "capture-evidence",
      "--cwd",
      s.dir,
      ...evidenceTokens(s, { context: false }),
      "--outcome=passed",
      `--input=${s.file("e.txt", "ok\n")}`,
    ]);
    expect(ev.code).toBe(0);
    const fin = await s.run([
      "review",
      "finalize",
      "--contract",
      V2,
      "--cwd",
      s.dir,
      "--lineage",
      s.ids.lineageId,
      "--validation",
      s.file("v.json", validationDoc(s)),
      "--captured-evidence=true",
    ]);
    expect([fin.code, fin.stderrText]).toEqual([0, ""]);
    expect(resultOf(fin.stdoutText)).toMatchObject({ state: "approved", action: VALIDATE });
  });

  it("validating: the record is discovered without the flag", async () => {
    const s = sim({ profile: "2.4.0", lineage: { state: "validating" } });
    const st = statusOf((await s.run(["review", "status", "--contract", V2, "--next-transition"])).stdoutText);
    expect(st.next_transition.reason_code).toBe("captured_verification_evidence_passed");
    const fin = await s.run(["review", "finalize", "--contract", V2, "--lineage", s.ids.lineageId]);
    expect([fin.code, fin.stderrText]).toEqual([0, ""]);
    expect(resultOf(fin.stdoutText)).toMatchObject({ state: "approved" });
  });

  it("reviewing: captured_results_ready finalize approves, or opens the scenario's correction", async () => {
    const all = ["review-risk", "review-resilience", "review-readability", "review-reliability"] as const;
    const a = sim({ profile: "2.4.0", lineage: { captured: [...all] } });
    const ok = await a.run(["review", "finalize", `--lineage=${a.ids.lineageId}`, "--captured-results=true"]);
    expect([ok.code, ok.stderrText]).toEqual([0, ""]);
    // The plain route prints ReviewFacadeFinalizeResult itself.
    expect(JSON.parse(ok.stdoutText)).toEqual({
      operation: "review/finalize",
      lineage_id: a.ids.lineageId,
      state: "approved",
      action: VALIDATE,
      store_revision: a.ids.revision(1),
    });

    const c = sim({ profile: "2.4.0", lineage: { captured: [...all], correction: { stage: "plan_required" } } });
    const moved = await c.run(["review", "finalize", `--lineage=${c.ids.lineageId}`, "--captured-results=true"]);
    expect(JSON.parse(moved.stdoutText)).toEqual({
      operation: "review/finalize",
      lineage_id: c.ids.lineageId,
      state: "correction_required",
      action: "continue the current review state",
      store_revision: c.ids.revision(1),
    });
    const st = statusOf((await c.run(["review", "status", "--contract", V2, "--next-transition"])).stdoutText);
    expect(st.next_transition.reason_code).toBe("correction_plan_required");
    const sub = (
      st.next_transition.collect as {
        inputs: { submission: { argument_tokens: string[]; value: { maximum: number } } }[];
      }
    ).inputs[0]!.submission;
    const plan = await c.run(["review", "finalize", ...sub.argument_tokens.map((t) => t.replace("{{value}}", "1"))]);
    expect([plan.code, plan.stderrText]).toEqual([0, ""]);
    const st2 = statusOf((await c.run(["review", "status", "--contract", V2, "--next-transition"])).stdoutText);
    expect(st2.next_transition).toMatchObject({ kind: "stop", reason_code: "corrected_candidate_unavailable" });
  });

  it("procedural tooling failure: STATUS's execute finalize drops the record so verification is recaptured", async () => {
    const s = sim(
      correctionScenario("2.4.0", "validation_required", {
        lineage: {
          state: "correction_required",
          correction: { stage: "validation_required", evidenceOutcome: "procedural_tooling_failed" },
        },
      }),
    );
    const st = statusOf((await s.run(["review", "status", "--contract", V2, "--next-transition"])).stdoutText);
    expect(st.next_transition.reason_code).toBe("correction_repository_tooling_failed");
    const args = (st.next_transition.execute as { arguments: { token: string }[] }).arguments.map((a) => a.token);
    // review_next_transition.go:296-298: the execute form is just the lineage and the captured-evidence discovery.
    expect(args).toEqual([`--lineage=${s.ids.lineageId}`, "--captured-evidence=true"]);
    const vr = st.validation_request as { request_hash: string; correction_target_identity: string };
    const descriptor = [
      `--lineage=${s.ids.lineageId}`,
      `--expected-revision=${s.ids.revision(0)}`,
      `--target=${vr.correction_target_identity}`,
      `--request-hash=${vr.request_hash}`,
      `--repository-context=${s.ids.repositoryContext}`,
      "--captured-evidence=true",
    ];
    const fin = await s.run(["review", "finalize", ...args]);
    expect([fin.code, fin.stderrText]).toEqual([0, ""]);
    expect(resultOf(fin.stdoutText)).toMatchObject({ state: "correction_required", store_revision: s.ids.revision(1) });
    const after = statusOf((await s.run(["review", "status", "--contract", V2, "--next-transition"])).stdoutText);
    expect(after.next_transition.reason_code).toBe("correction_repository_verification_required");
    // The old descriptor no longer binds: its handle resolves to the current revision (repository_locator.go:281,
    // :241).
    await expectRefusal(
      s,
      descriptor,
      "repository_context_unavailable: provider-issued review repository context operation failed; cause: review repository context binding is invalid; refresh the exact native next_transition before retrying",
      true,
    );
  });

  it("reviewing with uncaptured lenses refuses the captured-results finalize", async () => {
    const s = sim({ profile: "2.4.0", lineage: { captured: ["review-risk"] } });
    // readCapturedReviewerResults (review_artifact.go:748-750).
    await expectRefusal(
      s,
      [`--lineage=${s.ids.lineageId}`, "--captured-results=true"],
      "review finalize requires all 4 captured reviewer result(s); capture each missing one with `gentle-ai review capture-result` (see `gentle-ai review status --cwd <repo> --contract gentle-ai.review-integration/v1 --next-transition` for the exact lineage/target/lens/order bindings)",
      false,
    );
  });
});

describe("kill switch", () => {
  it("negotiated finalize on a disabled clone: rdd_disabled envelope and the fixed message on stderr", async () => {
    const s = sim(
      correctionScenario("2.4.0", "validation_required", {
        lineage: { state: "correction_required", correction: { stage: "validation_required" }, rddDisabled: true },
      }),
    );
    const r = await s.run([
      "review",
      "finalize",
      "--contract",
      V2,
      "--lineage",
      s.ids.lineageId,
      "--validation",
      s.file("v.json", validationDoc(s)),
      "--captured-evidence=true",
    ]);
    expect(r.code).toBe(1);
    expect(r.stderrText).toBe(
      "Error: Receipt-driven development is disabled; this operation never started. [rdd_disabled]\n",
    );
    expect(JSON.parse(r.stdoutText)).toMatchObject({
      code: "rdd_disabled",
      phase: "pre_native",
      retry_safe: false,
      next_action: "stop",
    });
    expect(s.state()).toBeUndefined();
  });
});

describe("finalize against runReviewFacadeFinalize (gentle-ai fb55ef7b review_facade.go:2356-2465)", () => {
  const s = sim(correctionScenario("2.4.0", "validation_required"));
  const L = `--lineage=${s.ids.lineageId}`;

  it("usage: the int --correction-lines prints its zero default (review.go:64)", async () => {
    const r = await s.run(["review", "finalize", "--help"]);
    expect([r.code, r.stderrText]).toEqual([0, ""]);
    expect(
      r.stdoutText.startsWith(
        "Usage: gentle-ai review finalize [flags]\n\nCanonicalize reviewer output and evidence, perform required native transitions, and materialize the terminal receipt.\n\nFlags:\n",
      ),
    ).toBe(true);
    expect(r.stdoutText).toContain(
      '  --correction-lines <value>\n      positive predicted correction changed lines before editing (default "0")\n',
    );
    expect(r.stdoutText).toContain('  --cwd <value>\n      repository path (default ".")\n');
    expect(r.stdoutText).toContain(
      '  --failed\n      bind supplied final evidence as a failed verification (default "false")\n',
    );
    expect(r.stdoutText).toContain(
      "  --lineage <value>\n      optional lineage override when discovery is ambiguous\n",
    );
  });

  const cases: [string, string[], string][] = [
    ["a stray positional", [L, "extra"], 'unexpected review finalize argument "extra"'],
    [
      "--action-eligibility without --contract",
      [L, "--action-eligibility"],
      "--action-eligibility and --next-transition require --contract gentle-ai.review-integration/v1 or gentle-ai.review-integration/v2",
    ],
    [
      "--result is refused after the other preflight checks",
      [L, "--trace=t", "--result", "r.json"],
      "review finalize no longer accepts --result: a reviewer result supplied this way carries no provider-owned admission, so it cannot prove the lens inspected the frozen candidate. Capture each selected lens with `gentle-ai review capture-result` (see `gentle-ai review status --cwd <repo> --contract gentle-ai.review-integration/v1 --next-transition` for the exact lineage/target/lens/order bindings), then run `gentle-ai review finalize --captured-results=true`",
    ],
    [
      // 301fb2ad counts --expected-revision among the descriptor flags (review_facade.go:2673); real 2.4.0 bytes.
      "before the burn --expected-revision is a descriptor flag, refused before --result",
      [L, "--expected-revision=x", "--result", "r.json"],
      "review finalize submission descriptors require the complete v2 revision, target, request hash, and repository context binding; refresh with gentle-ai review status --next-transition",
    ],
    [
      "--result counts as a stdin input",
      [L, "--result", "-", "--validation", "-"],
      "review finalize accepts stdin for only one input",
    ],
    [
      "--expected-revision alone is an incomplete descriptor",
      [L, "--expected-revision=x"],
      "review finalize submission descriptors require the complete v2 revision, target, request hash, and repository context binding; refresh with gentle-ai review status --next-transition",
    ],
    [
      // reviewFinalizeFlagProvided looks at every argument, values included.
      "a flag value spelled like a descriptor flag",
      ["--lineage", "target"],
      "review finalize submission descriptors require the complete v2 revision, target, request hash, and repository context binding; refresh with gentle-ai review status --next-transition",
    ],
  ];
  it.each(cases)("plain: %s", async (_n, args, text) => {
    await expectRefusal(s, args, text, false);
  });

  it("--trace is not a stdin input (countFacadeStdin)", async () => {
    const r = await s.run(
      ["review", "finalize", L, "--trace", "-", "--evidence", "-", "--validation", s.file("tv.json", validationDoc(s))],
      { stdin: "x" },
    );
    // Past the stdin rule, the raw --evidence is no captured record: the plan check D2 refuses.
    expect([r.stdoutText, r.stderrText, r.code]).toEqual(["", `Error: ${D2}\n`, 1]);
  });

  it("an unknown lineage is absent (preflight); a malformed one is an untyped failure", async () => {
    await expectRefusal(
      s,
      ["--lineage", "review-other"],
      'no compact facade review lineage "review-other" was found; run gentle-ai review start --lineage review-other to begin a fresh compact review, or use gentle-ai review-resume --cwd <repo> --lineage review-other for explicit read-only historical compatibility',
      true,
      "review-other",
    );
    const bad = await s.run(["review", "finalize", "--contract", V2, "--lineage", "Bad_Lineage"]);
    expect(bad.code).toBe(1);
    expect(JSON.parse(bad.stdoutText)).toMatchObject({
      code: "operation_outcome_unknown",
      phase: "native_running",
      mutation_outcome: "unknown",
      retry_safe: false,
      replayability: "status_required",
      next_action: "review.status",
    });
    // No repository holds the world, so no defect report is saved and the line ends there
    // (review_defect_report.go:266-273).
    expect(bad.stderrText).toBe(
      "Error: The negotiated review operation failed without authoritative mutation evidence. [operation_outcome_unknown]\n",
    );
  });

  it("negotiated v1: operation/v1 with the stop eligibility on --action-eligibility", async () => {
    const t = sim({ profile: "2.4.0", lineage: { state: "validating" } });
    const r = await t.run([
      "review",
      "finalize",
      "--contract",
      "gentle-ai.review-integration/v1",
      "--lineage",
      t.ids.lineageId,
      "--action-eligibility",
    ]);
    expect([r.code, r.stderrText]).toEqual([0, ""]);
    const reason = "forbidden_finalize_requires_target_status";
    expect(r.stdoutText).toBe(
      goIndent({
        schema: "gentle-ai.review-integration.operation/v1",
        contract: "gentle-ai.review-integration/v1",
        operation: "review.finalize",
        result: {
          operation: "review/finalize",
          lineage_id: t.ids.lineageId,
          state: "approved",
          action: VALIDATE,
          store_revision: t.ids.revision(1),
          eligibility: {
            allowed_actions: [{ action: "stop", reason_code: reason, required_inputs: ["target_scoped_status"] }],
            forbidden_actions: [
              "review.abandon",
              "review.finalize",
              "review.invalidate",
              "review.quarantine-legacy",
              "review.reclaim",
              "review.reconcile-authority",
              "review.reconcile-authority-batch",
              "review.recover",
              "review.start",
              "review.validate",
            ].map((action) => ({ action, reason_code: reason })),
          },
        },
      }),
    );
  });

  it("negotiated correction with a corrected candidate carries the targeted validation request bound to store_revision", async () => {
    const t = sim(
      correctionScenario("2.4.0", "validation_required", {
        lineage: {
          state: "correction_required",
          correction: { stage: "validation_required", evidenceOutcome: "procedural_tooling_failed" },
        },
      }),
    );
    const r = await t.run([
      "review",
      "finalize",
      "--contract",
      V2,
      "--lineage",
      t.ids.lineageId,
      "--captured-evidence=true",
    ]);
    expect([r.code, r.stderrText]).toEqual([0, ""]);
    const result = resultOf(r.stdoutText) as {
      state: string;
      store_revision: string;
      validation_request?: { schema: string; lineage_id: string; expected_revision: string };
    };
    expect(result.state).toBe("correction_required");
    expect(result.validation_request).toMatchObject({
      schema: "gentle-ai.review-targeted-validation-request/v1",
      lineage_id: t.ids.lineageId,
      expected_revision: result.store_revision,
    });
  });
});
