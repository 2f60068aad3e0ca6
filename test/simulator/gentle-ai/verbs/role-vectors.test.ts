// review capture-refuter / capture-validation against the built binary (§9): refusal order, handshake, materialize,
// --execute through the fake pi on PATH (argv, empty scratch cwd, prompt on stdin), failures, scratch removal, STATUS
// moves.
import { mkdirSync, readdirSync, readFileSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { HANDSHAKE, LOCKED_DOWN_PI_ARGV, V2 } from "../../../support/contract.ts";
import { correctionScenario, requestHash, statusOf } from "../../../support/correction-oracles.ts";
import { envelope, goIndent } from "../../../support/go-oracles.ts";
import { BIN_DIR, SimWorld, simWorlds } from "../../../support/sim-world.ts";
import { NATIVE_POLICY_CONTENT } from "../../../../simulator/contract/native-policy.ts";

const sim = simWorlds();

const INVALID_MSG = "The negotiated review request is invalid.";
const DRIFT_MSG =
  "The capture binding does not match the current review authority; re-derive the exact next transition before retrying.";
const ALL_LENSES = ["review-risk", "review-resilience", "review-readability", "review-reliability"] as const;

/** The validator vector tokens STATUS renders for a validation_required correction. */
function validatorTokens(s: SimWorld, overrides: Partial<Record<string, string>> = {}): string[] {
  const v: Record<string, string> = {
    lineage: s.ids.lineageId,
    "expected-revision": s.ids.revision(0),
    target: s.ids.correctionTargetIdentity,
    "repository-context": s.ids.repositoryContext,
    "request-hash": requestHash(s),
    agent: "pi",
    execute: "true",
    ...overrides,
  };
  return Object.entries(v)
    .filter(([, x]) => x !== undefined)
    .map(([k, x]) => `--${k}=${x}`);
}

/** An environment whose PATH holds node (for the launcher) and, when asked, the simulator's bin with the fake pi. */
function env(s: SimWorld, withPi: boolean, transcript?: string): Record<string, string> {
  const nodeDir = join(s.dir, "node-only");
  mkdirSync(nodeDir, { recursive: true });
  try {
    symlinkSync(process.execPath, join(nodeDir, "node"));
  } catch {
    // already linked
  }
  const tmp = join(s.dir, "tmp");
  mkdirSync(tmp, { recursive: true });
  return {
    ...HANDSHAKE,
    PATH: withPi ? `${BIN_DIR}:${nodeDir}` : nodeDir,
    TMPDIR: tmp,
    ...(transcript ? { GENTLE_AI_SIM_TRANSCRIPT: transcript } : {}),
  };
}

function scratchDirs(s: SimWorld): string[] {
  return readdirSync(join(s.dir, "tmp")).filter((n) => n.startsWith("gentle-ai-pi-reviewer-"));
}

describe("profile 2.3.0: role verbs are absent", () => {
  it.each(["capture-refuter", "capture-validation"])("%s", async (verb) => {
    const s = sim(correctionScenario("2.3.0", "validation_required"));
    const r = await s.run(["review", verb, ...validatorTokens(s)], { env: HANDSHAKE });
    expect([r.code, r.stdoutText, r.stderrText]).toEqual([1, "", `Error: unknown review command "${verb}"\n`]);
  });
});

describe.each(["2.4.0", "2.5.0"] as const)("capture-validation refusal order, profile %s", (profile) => {
  const s = sim(correctionScenario(profile, "validation_required"));
  const V = "review capture-validation";
  const L = s.ids.lineageId;
  const notEligible =
    profile === "2.4.0"
      ? "the active runtime is not eligible for immutable receipt review; exit receipt-driven review with `gentle-ai review mode disable --scope clone --cwd <repo>`; supported immutable review runtimes: claude-code, opencode, codex"
      : "the active runtime is not eligible for immutable receipt review; pi is eligible only while GENTLE_PI_REVIEW_RELAY_CONTRACT declares the exact relay contract this binary admits, which the gentle-pi host exports on every invocation it relays; export it in this shell and re-run";
  const cases: [string, string[], Record<string, string>, string, string, string | undefined][] = [
    [
      "--input is undefined",
      [...validatorTokens(s), "--input=x"],
      HANDSHAKE,
      "invalid_request",
      "flag provided but not defined: -input",
      undefined,
    ],
    [
      "materialize with execute",
      [...validatorTokens(s), "--materialize"],
      HANDSHAKE,
      "invalid_request",
      `${V} --materialize only prints the Go-materialized provider task and cannot be combined with --execute`,
      L,
    ],
    [
      "missing --lineage",
      validatorTokens(s, { lineage: undefined }),
      HANDSHAKE,
      "invalid_request",
      `${V} requires --lineage, --target, --expected-revision, --agent, and either --materialize or --execute; \`gentle-ai review status --contract gentle-ai.review-integration/v2 --next-transition\` prints the exact bindings`,
      undefined,
    ],
    [
      "blank --agent",
      validatorTokens(s, { agent: " " }),
      HANDSHAKE,
      "invalid_request",
      `${V} requires --agent naming the host-relay runtime`,
      L,
    ],
    [
      "missing --request-hash",
      validatorTokens(s, { "request-hash": undefined }),
      HANDSHAKE,
      "invalid_request",
      `${V} requires --request-hash binding the frozen targeted validation request`,
      L,
    ],
    [
      "context with --cwd",
      ["--cwd=.", ...validatorTokens(s)],
      HANDSHAKE,
      "invalid_request",
      `${V} accepts either --repository-context or --cwd, not both`,
      L,
    ],
    [
      "materialize without context",
      [...validatorTokens(s, { "repository-context": undefined, execute: undefined }), "--materialize"],
      HANDSHAKE,
      "invalid_request",
      `${V} --materialize requires the provider-issued --repository-context`,
      L,
    ],
    ["handshake missing", validatorTokens(s), {}, "invalid_request", notEligible, L],
    [
      "compiled runtime",
      validatorTokens(s, { agent: "codex" }),
      HANDSHAKE,
      "invalid_request",
      `${V} is unavailable for "codex": a compiled runtime materializes internally through \`gentle-ai review finalize --agent\``,
      L,
    ],
    [
      "stale request hash",
      validatorTokens(s, { "request-hash": s.ids.requestHash(5) }),
      HANDSHAKE,
      "capture_binding_mismatch",
      `${V} request hash does not match the frozen targeted validation request; refresh the binding with gentle-ai review status --cwd <repo> --contract gentle-ai.review-integration/v2 --next-transition`,
      L,
    ],
    [
      // The handle commits to the corrected candidate, so another target fails its binding (repository_locator.go:241).
      "frozen target through the handle",
      validatorTokens(s, { target: s.ids.targetIdentity }),
      HANDSHAKE,
      "invalid_request",
      "repository_context_unavailable: provider-issued review repository context operation failed; cause: review repository context binding is invalid; refresh the exact native next_transition before retrying",
      L,
    ],
    [
      "frozen target with --cwd",
      ["--cwd=.", ...validatorTokens(s, { target: s.ids.targetIdentity, "repository-context": undefined })],
      HANDSHAKE,
      "capture_binding_mismatch",
      `${V} target does not match the frozen correction target identity; refresh the binding with gentle-ai review status --cwd <repo> --contract gentle-ai.review-integration/v2 --next-transition`,
      L,
    ],
    [
      "stale revision with --cwd",
      ["--cwd=.", ...validatorTokens(s, { "expected-revision": s.ids.revision(4), "repository-context": undefined })],
      HANDSHAKE,
      "capture_binding_mismatch",
      `${V} binding does not match the current compact authority; refresh the binding with gentle-ai review status --cwd <repo> --contract gentle-ai.review-integration/v2 --next-transition`,
      L,
    ],
    [
      // opencode passes the immutable-transport gate but is neither an in-process role runtime nor the pi relay.
      "opencode",
      validatorTokens(s, { agent: "opencode" }),
      HANDSHAKE,
      "invalid_request",
      `${V} provider runtime "opencode" is host-mediated; use its live transport collection`,
      L,
    ],
  ];
  it.each(cases)("%s", async (_n, args, e, code, text, lineageId) => {
    const r = await s.run(["review", "capture-validation", ...args], { env: e });
    expect(r.code).toBe(1);
    const message = code === "invalid_request" ? INVALID_MSG : DRIFT_MSG;
    const next = code === "invalid_request" ? "correct_request" : "review.status";
    expect(r.stdoutText).toBe(
      envelope(
        "review.capture-validation",
        code,
        message,
        next,
        text.replace(/(?:[A-Za-z]:)?[\\/][^\s"'`]+/g, "<redacted>"),
        lineageId,
      ),
    );
    expect(r.stderrText).toBe(`Error: ${text} [${code}]\n`);
  });
});

describe("capture-validation --execute (2.4.0)", () => {
  it("runs the fake pi with the exact argv in an empty scratch dir, removes it, and moves STATUS to the captured finalize", async () => {
    const s = sim(correctionScenario("2.4.0", "validation_required"));
    const transcript = join(s.dir, "transcript.jsonl");
    const e = env(s, true, transcript);
    const st = statusOf(
      (await s.run(["review", "status", "--contract", V2, "--agent", "pi", "--next-transition"], { env: e }))
        .stdoutText,
    );
    const input = (st.next_transition.collect as { inputs: { name: string; arguments: { token: string }[] }[] })
      .inputs[0]!;
    expect(input.name).toBe("provider_targeted_validator");
    const tokens = input.arguments.map((a) => a.token);
    expect(tokens).toEqual(validatorTokens(s));

    const r = await s.run(["review", "capture-validation", ...tokens], { env: e });
    expect([r.code, r.stderrText]).toEqual([0, ""]);
    expect(r.stdoutText).toBe(
      goIndent({
        schema: "gentle-ai.review-provider-role-capture/v1",
        lineage_id: s.ids.lineageId,
        target_identity: s.ids.correctionTargetIdentity,
        role: "targeted-validator",
        captured: true,
      }),
    );
    expect(scratchDirs(s)).toEqual([]);
    const pi = readFileSync(transcript, "utf8")
      .trim()
      .split("\n")
      .map(
        (l) =>
          JSON.parse(l) as {
            program: string;
            argv: string[];
            cwd: string;
            cwdListing?: string[];
            stdin: { base64?: string };
          },
      )
      .filter((t) => t.program === "pi");
    expect(pi).toHaveLength(1);
    // The judge's copy (provider reference §9), not the simulator's own constant: a drift in it is caught.
    expect(pi[0]!.argv).toEqual(LOCKED_DOWN_PI_ARGV);
    expect(pi[0]!.cwd.startsWith(join(s.dir, "tmp", "gentle-ai-pi-reviewer-"))).toBe(true);
    expect(pi[0]!.cwdListing).toEqual([]);
    expect(Buffer.from(pi[0]!.stdin.base64 ?? "", "base64").toString("utf8")).toMatch(
      /^GENTLE_AI_REVIEW_BINDING \{"lineage":"review-/,
    );

    const next = statusOf(
      (await s.run(["review", "status", "--contract", V2, "--agent", "pi", "--next-transition"], { env: e }))
        .stdoutText,
    );
    expect(next.next_transition.reason_code).toBe("captured_provider_targeted_validation_ready");
    const args = (next.next_transition.execute as { arguments: { token: string }[] }).arguments.map((a) => a.token);
    expect(args).toEqual([
      `--contract=${V2}`,
      `--lineage=${s.ids.lineageId}`,
      `--expected-revision=${s.ids.revision(0)}`,
      `--target=${s.ids.correctionTargetIdentity}`,
      `--request-hash=${requestHash(s)}`,
      `--repository-context=${s.ids.repositoryContext}`,
      "--captured-evidence=true",
    ]);
    // The occupied slot decides the route whatever the runtime (review_facade.go:1200-1204); the execute form is
    // exact (validateCapturedProviderTargetedValidatorTransition, review_status_contract.go).
    const bare = statusOf(
      (await s.run(["review", "status", "--contract", V2, "--next-transition"], { env: e })).stdoutText,
    );
    expect(bare.next_transition).toMatchObject({
      reason_code: "captured_provider_targeted_validation_ready",
      execute: {
        command: `gentle-ai review finalize ${args.join(" ")}`,
        preconditions: [
          { name: "state", value: "correction_required" },
          { name: "verification_outcome", value: "passed" },
          { name: "provider_targeted_validator", value: "captured" },
        ],
        binding: {
          lineage_id: s.ids.lineageId,
          revision: s.ids.revision(0),
          target_identity: s.ids.correctionTargetIdentity,
          repository_context: s.ids.repositoryContext,
        },
      },
    });
    expect(bare.validation_request).toBeDefined();
    const fin = await s.run(["review", "finalize", ...args], { env: e });
    expect([fin.code, fin.stderrText]).toEqual([0, ""]);
    expect((JSON.parse(fin.stdoutText) as { result: unknown }).result).toMatchObject({ state: "approved" });
  });

  const failures: [string, Parameters<typeof correctionScenario>[2], boolean, string][] = [
    [
      "pi missing from PATH",
      {},
      false,
      'invoke provider targeted validator: pi reviewer transport unavailable: exec: "pi": executable file not found in $PATH',
    ],
    [
      "pi exits nonzero with stderr",
      { pi: { exitCode: 3, stderr: { text: "model quota exhausted\n" } } },
      true,
      "invoke provider targeted validator: pi reviewer transport failed: exit status 3: model quota exhausted",
    ],
    [
      "pi prints nothing",
      { pi: { result: { kind: "bytes", bytes: { text: " \n" } } } },
      true,
      "invoke provider targeted validator: pi reviewer transport produced no final message",
    ],
    [
      "pi empty-output fault",
      { faults: [{ program: "pi", fault: { kind: "empty-output" } }] },
      true,
      "invoke provider targeted validator: pi reviewer transport produced no final message",
    ],
  ];
  it.each(failures)("%s", async (_n, extra, withPi, text) => {
    const s = sim(correctionScenario("2.4.0", "validation_required", extra));
    const r = await s.run(["review", "capture-validation", ...validatorTokens(s)], { env: env(s, withPi) });
    expect(r.code).toBe(1);
    expect(r.stderrText).toBe(`Error: ${text} [invalid_request]\n`);
    expect(r.stdoutText).toBe(
      envelope(
        "review.capture-validation",
        "invalid_request",
        INVALID_MSG,
        "correct_request",
        text.replace(/(?:[A-Za-z]:)?[\\/][^\s"'`]+/g, "<redacted>"),
        s.ids.lineageId,
      ),
    );
    expect(scratchDirs(s)).toEqual([]);
    // Nothing captured: STATUS still offers the validator vector.
    const st = statusOf(
      (
        await s.run(["review", "status", "--contract", V2, "--agent", "pi", "--next-transition"], {
          env: env(s, withPi),
        })
      ).stdoutText,
    );
    expect(st.next_transition.reason_code).toBe("targeted_validation_required");
  });

  it("--materialize prints the role prompt read-only and byte-identical on repeat", async () => {
    const s = sim(correctionScenario("2.4.0", "validation_required"));
    const argv = ["review", "capture-validation", ...validatorTokens(s, { execute: undefined }), "--materialize=true"];
    const a = await s.run(argv, { env: HANDSHAKE });
    const b = await s.run(argv, { env: HANDSHAKE });
    expect([a.code, a.stderrText]).toEqual([0, ""]);
    expect(a.stdout.equals(b.stdout)).toBe(true);
    expect(
      a.stdoutText.startsWith(
        `GENTLE_AI_REVIEW_BINDING {"lineage":"${s.ids.lineageId}","target":"${s.ids.correctionTargetIdentity}","role":"targeted-validator"`,
      ),
    ).toBe(true);
    expect(s.state()).toBeUndefined();
  });

  it("at 2.5.0 the validator prompt carries the frozen policy raw after its instruction; 2.4.0's has none", async () => {
    // reviewProviderRolePrompt (review_provider_roles.go:308-313 at fb55ef7b): the request's JSON escapes the policy's
    // line breaks, so Go writes the exact text once more; gentle-pi's devbinary lane looks for it verbatim.
    const prompts: string[] = [];
    for (const profile of ["2.5.0", "2.4.0"] as const) {
      const s = sim(correctionScenario(profile, "validation_required"));
      const r = await s.run(
        ["review", "capture-validation", ...validatorTokens(s, { execute: undefined }), "--materialize=true"],
        { env: HANDSHAKE },
      );
      expect([r.code, r.stderrText]).toEqual([0, ""]);
      prompts.push(r.stdoutText);
    }
    expect(prompts[0]).toContain(`\n\nFrozen policy:\n${NATIVE_POLICY_CONTENT}`);
    expect(prompts[1]).not.toContain("Frozen policy:");
  });
});

describe("capture-refuter --execute (2.4.0)", () => {
  it("captures the refuter so STATUS moves to the captured_results_ready finalize", async () => {
    const s = sim({ profile: "2.4.0", lineage: { captured: [...ALL_LENSES], refuter: true } });
    const e = env(s, true);
    const st = statusOf(
      (await s.run(["review", "status", "--contract", V2, "--agent", "pi", "--next-transition"], { env: e }))
        .stdoutText,
    );
    expect(st.next_transition.reason_code).toBe("provider_refuter_required");
    const tokens = (
      st.next_transition.collect as { inputs: { arguments: { token: string }[] }[] }
    ).inputs[0]!.arguments.map((a) => a.token);
    const r = await s.run(["review", "capture-refuter", ...tokens], { env: e });
    expect([r.code, r.stderrText]).toEqual([0, ""]);
    expect(r.stdoutText).toBe(
      goIndent({
        schema: "gentle-ai.review-provider-role-capture/v1",
        lineage_id: s.ids.lineageId,
        target_identity: s.ids.targetIdentity,
        role: "refuter",
        captured: true,
      }),
    );
    expect(scratchDirs(s)).toEqual([]);
    const next = statusOf(
      (await s.run(["review", "status", "--contract", V2, "--agent", "pi", "--next-transition"], { env: e }))
        .stdoutText,
    );
    expect(next.next_transition.reason_code).toBe("captured_results_ready");
    // The refuter slot is gone: a second execute is binding drift.
    const again = await s.run(["review", "capture-refuter", ...tokens], { env: e });
    expect(again.stderrText).toBe(
      "Error: review capture-refuter binding does not match the current provider role authority; refresh the binding with gentle-ai review status --cwd <repo> --contract gentle-ai.review-integration/v2 --next-transition [capture_binding_mismatch]\n",
    );
  });

  it("pi nonzero exit names the refuter", async () => {
    const s = sim({
      profile: "2.4.0",
      lineage: { captured: [...ALL_LENSES], refuter: true },
      pi: { exitCode: 2, stderr: { text: "boom" } },
    });
    const tokens = [
      `--lineage=${s.ids.lineageId}`,
      `--expected-revision=${s.ids.revision(0)}`,
      `--target=${s.ids.targetIdentity}`,
      `--repository-context=${s.ids.repositoryContext}`,
      "--agent=pi",
      "--execute=true",
    ];
    const r = await s.run(["review", "capture-refuter", ...tokens], { env: env(s, true) });
    expect(r.stderrText).toBe(
      "Error: invoke provider refuter: pi reviewer transport failed: exit status 2: boom [invalid_request]\n",
    );
    expect(scratchDirs(s)).toEqual([]);
  });
});
