// review capture-evidence against the built binary (§11): refusals per profile, record bytes in both identity modes,
// idempotent resubmission, conflict, 4 MiB bound, persistence and the lineage move.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { V2 } from "../../../support/contract.ts";
import {
  correctionScenario,
  evidenceTokens,
  expectedCorrectionRecord,
  PROFILES,
  statusOf,
} from "../../../support/correction-oracles.ts";
import { envelope, goIndent } from "../../../support/go-oracles.ts";
import { simWorlds } from "../../../support/sim-world.ts";

const sim = simWorlds();

const OP = "review.capture-evidence";
const INVALID_MSG = "The negotiated review request is invalid.";
const BINDING_MSG =
  "The verification evidence binding does not match the current validating or correction authority; re-derive the exact next transition before retrying.";
const CONFLICT_MSG =
  "Captured verification evidence already exists for this authority and candidate with different immutable content.";
const REQUIRES_V240 =
  "review capture-evidence requires one exact repository resolver: --repository-context or --cwd, plus --lineage, --target, --expected-revision, --outcome, and --input";
const REQUIRES_22X =
  "review capture-evidence requires exact --cwd, --lineage, --target, --expected-revision, --outcome, and --input";
const REVISION = "verification evidence binding does not match the current authority revision";
const TARGET = "verification evidence binding does not match the current validating or correction authority";
// reviewOpaqueContextOperationError (review_incident.go:66-73) for a binding the handle does not commit to.
const CONTEXT_BINDING =
  "repository_context_unavailable: provider-issued review repository context operation failed; cause: review repository context binding is invalid; refresh the exact native next_transition before retrying";
const USAGE_22X =
  "Usage: gentle-ai review capture-evidence [flags]\n\nCapture outcome-bearing verification evidence bound to one compact authority and candidate.\n\nFlags:\n" +
  '  --cwd <value>\n      repository path (default ".")\n' +
  "  --expected-revision <value>\n      exact validating or correction authority revision\n" +
  "  --input <value>\n      final verification evidence file or - for stdin\n" +
  "  --lineage <value>\n      exact review lineage identifier\n" +
  "  --outcome <value>\n      closed verification outcome: passed, verification_failed, or procedural_tooling_failed\n" +
  "  --target <value>\n      exact frozen target identity\n" +
  "  -h, --help\n      show this help\n";

describe.each(PROFILES)("capture-evidence refusals, profile %s (collect-capture route)", (profile) => {
  const s = sim(correctionScenario(profile, "evidence_required"));
  const lineage = s.ids.lineageId;
  const input = s.file("evidence.txt", "go test ./... ok\n");
  const cases: [string, string[], string, string, string, string | undefined][] = [
    [
      "undefined flag",
      ["--agent=pi", ...evidenceTokens(s)],
      "invalid_request",
      INVALID_MSG,
      "flag provided but not defined: -agent",
      undefined,
    ],
    [
      "missing --input",
      [...evidenceTokens(s), "--outcome=passed"],
      "invalid_request",
      INVALID_MSG,
      REQUIRES_V240,
      lineage,
    ],
    [
      "positional",
      [...evidenceTokens(s), "--outcome=passed", `--input=${input}`, "extra"],
      "invalid_request",
      INVALID_MSG,
      REQUIRES_V240,
      lineage,
    ],
    [
      "context with --cwd",
      ["--cwd", ".", ...evidenceTokens(s), "--outcome=passed", `--input=${input}`],
      "invalid_request",
      INVALID_MSG,
      "review capture-evidence accepts either --repository-context or --cwd, not both",
      lineage,
    ],
    [
      // The outcome is validated with the record, after the binding and the payload (review_artifact.go:108).
      "outcome outside the closed set",
      [...evidenceTokens(s), "--outcome=maybe", `--input=${input}`],
      "invalid_request",
      INVALID_MSG,
      "invalid verification evidence record identity or digest",
      lineage,
    ],
    [
      "outcome checked after the binding",
      ["--cwd", ".", ...evidenceTokens(s, { context: false, revisionIndex: 7 }), "--outcome=maybe", `--input=${input}`],
      "verification_evidence_binding_mismatch",
      BINDING_MSG,
      REVISION,
      lineage,
    ],
    [
      "outcome checked after the payload",
      [...evidenceTokens(s), "--outcome=maybe", `--input=${s.file("none.txt", "")}`],
      "invalid_request",
      INVALID_MSG,
      "final verification evidence is required",
      lineage,
    ],
    [
      // The handle resolves to the current revision, so a stale one fails the handle binding first.
      "revision mismatch through the handle",
      [...evidenceTokens(s, { revisionIndex: 7 }), "--outcome=passed", `--input=${input}`],
      "invalid_request",
      INVALID_MSG,
      CONTEXT_BINDING,
      lineage,
    ],
    [
      "revision mismatch with --cwd",
      [
        "--cwd",
        ".",
        ...evidenceTokens(s, { context: false, revisionIndex: 7 }),
        "--outcome=passed",
        `--input=${input}`,
      ],
      "verification_evidence_binding_mismatch",
      BINDING_MSG,
      REVISION,
      lineage,
    ],
    [
      "frozen target through the handle",
      [...evidenceTokens(s, { target: s.ids.targetIdentity }), "--outcome=passed", `--input=${input}`],
      "invalid_request",
      INVALID_MSG,
      CONTEXT_BINDING,
      lineage,
    ],
    [
      "frozen target with --cwd",
      [
        "--cwd",
        ".",
        ...evidenceTokens(s, { context: false, target: s.ids.targetIdentity }),
        "--outcome=passed",
        `--input=${input}`,
      ],
      "verification_evidence_binding_mismatch",
      BINDING_MSG,
      TARGET,
      lineage,
    ],
    [
      "unknown lineage with --cwd",
      [
        "--cwd",
        ".",
        "--lineage=review-other",
        `--expected-revision=${s.ids.revision(0)}`,
        `--target=${s.ids.correctionTargetIdentity}`,
        "--outcome=passed",
        `--input=${input}`,
      ],
      "invalid_request",
      INVALID_MSG,
      'no compact facade review lineage "review-other" was found; run gentle-ai review start --lineage review-other to begin a fresh compact review, or use gentle-ai review-resume --cwd <repo> --lineage review-other for explicit read-only historical compatibility',
      "review-other",
    ],
    [
      "unknown lineage through the handle",
      [
        "--lineage=review-other",
        `--expected-revision=${s.ids.revision(0)}`,
        `--target=${s.ids.correctionTargetIdentity}`,
        `--repository-context=${s.ids.repositoryContext}`,
        "--outcome=passed",
        `--input=${input}`,
      ],
      "invalid_request",
      INVALID_MSG,
      CONTEXT_BINDING,
      "review-other",
    ],
    [
      "malformed binding through the handle",
      [
        "--lineage=review-ab",
        "--expected-revision=x",
        `--target=${s.ids.correctionTargetIdentity}`,
        `--repository-context=${s.ids.repositoryContext}`,
        "--outcome=passed",
        `--input=${input}`,
      ],
      "invalid_request",
      INVALID_MSG,
      "repository_context_unavailable: provider-issued review repository context operation failed; cause: invalid review repository context binding; refresh the exact native next_transition before retrying",
      "review-ab",
    ],
    [
      "empty input",
      [...evidenceTokens(s), "--outcome=passed", `--input=${s.file("empty.txt", "")}`],
      "invalid_request",
      INVALID_MSG,
      "final verification evidence is required",
      lineage,
    ],
  ];
  it.each(cases)("%s", async (_name, args, code, message, cause, lineageId) => {
    const r = await s.run(["review", "capture-evidence", ...args]);
    expect(r.code).toBe(1);
    const next = code === "invalid_request" ? "correct_request" : "review.status";
    expect(r.stdoutText).toBe(
      envelope(OP, code, message, next, cause.replace(/(?:[A-Za-z]:)?[\\/][^\s"'`]+/g, "<redacted>"), lineageId),
    );
    expect(r.stderrText).toBe(`Error: ${cause} [${code}]\n`);
    expect(s.state()).toBeUndefined(); // refusals never persist
  });

  it("refuses input over 4 MiB on stdin and accepts exactly 4 MiB", async () => {
    const over = await s.run(["review", "capture-evidence", ...evidenceTokens(s), "--outcome=passed", "--input=-"], {
      stdin: Buffer.alloc(4 * 1024 * 1024 + 1, 0x61),
    });
    expect(over.stderrText).toBe("Error: final verification evidence is required [invalid_request]\n");
    const t = sim(correctionScenario(profile, "evidence_required"));
    const exact = Buffer.alloc(4 * 1024 * 1024, 0x61);
    const ok = await t.run(["review", "capture-evidence", ...evidenceTokens(t), "--outcome=passed", "--input=-"], {
      stdin: exact,
    });
    expect(ok.stderrText).toBe("");
    expect(ok.stdoutText).toBe(expectedCorrectionRecord(t, exact, "passed", "prefixed"));
  });

  it("refuses a correction without a corrected candidate: the target text with --cwd, the handle's own refusal otherwise", async () => {
    const handle = {
      // Before a forecast the handle commits to the frozen target; with a forecast but no candidate nothing is live.
      plan_required: CONTEXT_BINDING,
      candidate_unavailable:
        "repository_context_unavailable: provider-issued review repository context operation failed; cause: review repository context is stale or has no live matching authority; refresh the exact native next_transition before retrying",
    } as const;
    for (const stage of ["plan_required", "candidate_unavailable"] as const) {
      const t = sim(correctionScenario(profile, stage));
      const cwd = await t.run([
        "review",
        "capture-evidence",
        "--cwd",
        ".",
        ...evidenceTokens(t, { context: false }),
        "--outcome=passed",
        `--input=${input}`,
      ]);
      expect(cwd.stderrText).toBe(`Error: ${TARGET} [verification_evidence_binding_mismatch]\n`);
      const r = await t.run([
        "review",
        "capture-evidence",
        ...evidenceTokens(t),
        "--outcome=passed",
        `--input=${input}`,
      ]);
      expect(r.stderrText).toBe(`Error: ${handle[stage]} [invalid_request]\n`);
    }
  });
});

describe("capture-evidence refusals, profile 2.3.0 (2.2.x era, plain route)", () => {
  const s = sim(correctionScenario("2.3.0", "evidence_required"));
  const input = s.file("evidence.txt", "ok\n");
  it("has no --repository-context: flag line and usage on stdout, plain stderr", async () => {
    const r = await s.run(["review", "capture-evidence", ...evidenceTokens(s), "--outcome=passed", `--input=${input}`]);
    expect(r.code).toBe(1);
    expect(r.stdoutText).toBe("flag provided but not defined: -repository-context\n" + USAGE_22X);
    expect(r.stderrText).toBe("Error: flag provided but not defined: -repository-context\n");
  });
  it("uses the 2.2.x requires text with empty stdout", async () => {
    const r = await s.run(["review", "capture-evidence", ...evidenceTokens(s, { context: false }), "--outcome=passed"]);
    expect([r.code, r.stdoutText, r.stderrText]).toEqual([1, "", `Error: ${REQUIRES_22X}\n`]);
  });
  it("prints binding refusals without a code suffix", async () => {
    const r = await s.run([
      "review",
      "capture-evidence",
      ...evidenceTokens(s, { context: false, revisionIndex: 3 }),
      "--outcome=passed",
      `--input=${input}`,
    ]);
    expect([r.code, r.stdoutText, r.stderrText]).toEqual([1, "", `Error: ${REVISION}\n`]);
  });
  it("-h prints the usage and exits 0", async () => {
    const r = await s.run(["review", "capture-evidence", "-h"]);
    expect([r.code, r.stdoutText, r.stderrText]).toEqual([0, USAGE_22X, ""]);
  });
  it("captures via --cwd and prints the record", async () => {
    const payload = Buffer.from("ok\n");
    const r = await s.run([
      "review",
      "capture-evidence",
      "--cwd",
      ".",
      ...evidenceTokens(s, { context: false }),
      "--outcome=passed",
      `--input=${input}`,
    ]);
    expect([r.code, r.stderrText]).toEqual([0, ""]);
    expect(r.stdoutText).toBe(expectedCorrectionRecord(s, payload, "passed", "prefixed"));
  });
});

describe.each(["prefixed", "bare"] as const)("record bytes and lifecycle, identities %s", (mode) => {
  it("prints the record, persists it, moves STATUS to targeted validation, and replays byte-identically", async () => {
    const s = sim(correctionScenario("2.4.0", "evidence_required", { identities: mode }));
    const payload = Buffer.from("PASS internal/review 0.42s\n");
    const input = s.file("evidence.txt", payload);
    const argv = ["review", "capture-evidence", ...evidenceTokens(s), "--outcome=passed", `--input=${input}`];
    const first = await s.run(argv);
    expect([first.code, first.stderrText]).toEqual([0, ""]);
    expect(first.stdoutText).toBe(expectedCorrectionRecord(s, payload, "passed", mode));
    const stateAfterFirst = readFileSync(join(s.stateDir, "lineage.json"));
    // A later process sees the record: identical bytes and outcome return it unchanged, nothing rewritten.
    const again = await s.run(argv);
    expect([again.code, again.stderrText, again.stdoutText]).toEqual([0, "", first.stdoutText]);
    expect(readFileSync(join(s.stateDir, "lineage.json"))).toEqual(stateAfterFirst);
    const status = await s.run(["review", "status", "--contract", V2, "--next-transition"]);
    const st = statusOf(status.stdoutText);
    expect(st.next_transition.reason_code).toBe("targeted_validation_required");
    // STATUS identities stay prefixed whatever the record mode.
    expect(st.validation_request?.correction_target_identity).toBe(s.ids.correctionTargetIdentity);
  });

  it("refuses different bytes or outcome with captured_final_evidence_conflict and saves a defect report", async () => {
    const s = sim(correctionScenario("2.4.0", "evidence_required", { identities: mode }));
    const input = s.file("evidence.txt", "first\n");
    await s.run(["review", "capture-evidence", ...evidenceTokens(s), "--outcome=passed", `--input=${input}`]);
    const r = await s.run([
      "review",
      "capture-evidence",
      ...evidenceTokens(s),
      "--outcome=verification_failed",
      `--input=${input}`,
    ]);
    expect(r.code).toBe(1);
    const reports = readdirSync(join(s.stateDir, "defect-reports"));
    expect(reports).toHaveLength(1);
    // The name is `<reason slug>-<12 hex of the report>.md` (review_defect_report.go:208-223).
    expect(reports[0]).toMatch(/^captured-final-evidence-conflict-[0-9a-f]{12}\.md$/);
    const path = join(s.stateDir, "defect-reports", reports[0]!);
    const text = "captured verification evidence already exists with different bytes or outcome.";
    // Real 2.4.0 (301fb2ad) / 2.5.0 (fb55ef7b) bytes: the clause ends with the issues URL, which the scrub folds.
    const url = "https://github.com/Gentleman-Programming/gentle-ai/issues/new/choose";
    expect(r.stderrText).toBe(
      `Error: ${text} A defect report was saved at ${path} -- file it at ${url}. [captured_final_evidence_conflict]\n`,
    );
    expect(r.stdoutText).toBe(
      envelope(
        OP,
        "captured_final_evidence_conflict",
        CONFLICT_MSG,
        "review.status",
        `${text} A defect report was saved at <redacted> -- file it at http<redacted>`,
        s.ids.lineageId,
      ),
    );
    expect(existsSync(path)).toBe(true);
  });
});

describe("failed outcomes and the validating state", () => {
  it("verification_failed stops STATUS; procedural_tooling_failed offers the tooling execute", async () => {
    for (const [outcome, reason, kind] of [
      ["verification_failed", "correction_repository_verification_failed", "stop"],
      ["procedural_tooling_failed", "correction_repository_tooling_failed", "execute"],
    ] as const) {
      const s = sim(correctionScenario("2.4.0", "evidence_required"));
      const input = s.file("e.txt", "x\n");
      const r = await s.run([
        "review",
        "capture-evidence",
        ...evidenceTokens(s),
        `--outcome=${outcome}`,
        `--input=${input}`,
      ]);
      expect(r.code).toBe(0);
      const st = statusOf((await s.run(["review", "status", "--contract", V2, "--next-transition"])).stdoutText);
      expect([st.next_transition.kind, st.next_transition.reason_code]).toEqual([kind, reason]);
    }
  });

  it("in validating binds the frozen target and replays the scenario-seeded record", async () => {
    const s = sim({ profile: "2.4.0", lineage: { state: "validating" } });
    const payload = Buffer.from("simulated repository verification: passed\n");
    const r = await s.run([
      "review",
      "capture-evidence",
      ...evidenceTokens(s, { target: s.ids.targetIdentity }),
      "--outcome=passed",
      `--input=${s.file("e.txt", payload)}`,
    ]);
    expect([r.code, r.stderrText]).toEqual([0, ""]);
    const rec = JSON.parse(r.stdoutText) as Record<string, unknown>;
    expect(rec.target_identity).toBe(s.ids.targetIdentity);
    expect(rec.candidate_tree).toBe(s.ids.candidateTree);
    expect(rec.ledger_ids).toEqual([]);
    expect(r.stdoutText).toBe(goIndent(rec));
  });
});

describe("kill switch", () => {
  const RDD =
    "receipt-driven development is disabled: advancing an existing review is rejected because the clone_local mode source keeps it off; the review is frozen, not discarded; turn reviews on with gentle-ai review mode enable --scope=global then gentle-ai review mode enable --scope=clone to continue it from where it stopped";
  const disabled = () =>
    sim(
      correctionScenario("2.4.0", "evidence_required", {
        lineage: { state: "correction_required", correction: { stage: "evidence_required" }, rddDisabled: true },
      }),
    );

  it("--cwd: rdd_disabled refuses the capture before the binding (pre_native, not retry safe)", async () => {
    const s = disabled();
    const r = await s.run([
      "review",
      "capture-evidence",
      "--cwd",
      ".",
      ...evidenceTokens(s, { context: false, revisionIndex: 9 }),
      "--outcome=passed",
      `--input=${s.file("e.txt", "x")}`,
    ]);
    expect(r.code).toBe(1);
    expect(r.stderrText).toBe(`Error: ${RDD} [rdd_disabled]\n`);
    expect(r.stdoutText).toBe(
      envelope(
        OP,
        "rdd_disabled",
        "Receipt-driven development is disabled; this operation never started.",
        "stop",
        RDD,
        s.ids.lineageId,
        false,
        "pre_native",
      ),
    );
  });

  it("--repository-context: the opaque route checks no kill switch (review_artifact.go:75-82)", async () => {
    const s = disabled();
    const r = await s.run([
      "review",
      "capture-evidence",
      ...evidenceTokens(s),
      "--outcome=passed",
      `--input=${s.file("e.txt", "x")}`,
    ]);
    expect([r.code, r.stderrText]).toEqual([0, ""]);
    expect(r.stdoutText).toBe(expectedCorrectionRecord(s, Buffer.from("x"), "passed", "prefixed"));
  });
});
