// review status (§8) per profile, the handshake on the status surface (§6), version and review help (§2, §12).
import { describe, expect, it } from "vitest";
import { goIndent, goReviewJson, HANDSHAKE, INVALID, simFactory, V2 } from "./helpers.ts";

const sim = simFactory();

const STATUS = ["review", "status", "--contract", V2, "--cwd", ".", "--projection", "workspace"];
const NOT_ELIGIBLE =
  "the active runtime is not eligible for immutable receipt review; exit receipt-driven review with `gentle-ai review mode disable --scope clone --cwd <repo>`; supported immutable review runtimes: claude-code, opencode, codex";
const TRANSPORT_MSG = "The active runtime cannot provide immutable receipt-review transport.";

interface Arg {
  name: string;
  value: string;
  token?: string;
}
interface Input {
  name: string;
  schema: string;
  capture_operation: string;
  arguments: Arg[];
  submission?: { operation_token: string; argument_tokens: string[]; value: Record<string, unknown> };
  artifact_subject?: { subject_hash: string };
}
interface Status {
  next_transition: { kind: string; reason_code: string; collect?: { inputs: Input[] } };
  [k: string]: unknown;
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

describe("status/v5 shape and agent-sensitive lens inputs", () => {
  it("renders the full status object in struct order (2.4.0, --agent pi with the handshake)", async () => {
    const s = sim({ profile: "2.4.0" });
    const ids = s.ids;
    const r = await s.run([...STATUS, "--agent", "pi", "--next-transition"], { env: HANDSHAKE });
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const st = JSON.parse(r.stdout) as Status;
    expect(Object.keys(st)).toEqual([
      "schema", "contract", "operation", "applicability", "authority", "receipt", "action", "replayability", "frozen",
      "target_identity", "projection", "repair", "candidates", "next_transition", "repository_context",
    ]);
    expect(r.stdout).toBe(goReviewJson(st)); // Go indent + compact manifest entries, nothing else
    expect(st["schema"]).toBe("gentle-ai.review-integration.status/v5");
    expect(st["authority"]).toEqual({ version: "compact-v2", lineage_id: ids.lineageId, state: "reviewing", generation: 1, revision: ids.revision(0) });
    expect(st["repair"]).toMatchObject({
      schema: "gentle-ai.review-authority-repair-assessment/v1",
      supported_operations: ["review/complete-fix", "review/validate-fix"],
      authorization_schema: "gentle-ai.review-repair-authorization/v1",
    });
    expect(Object.values((st["repair"] as { counts: Record<string, unknown> }).counts).every((n) => Number.isInteger(n))).toBe(true);
    expect(Object.keys((st["repair"] as { counts: object }).counts)).toHaveLength(8);
    expect(st["repository_context"]).toEqual({
      capability: "review.opaque_repository_context",
      handle: ids.repositoryContext,
      revision: ids.revision(0),
      target_identity: ids.targetIdentity,
      event_id: ids.eventId(0),
      outcome: "applied",
    });
    const inputs = st.next_transition.collect!.inputs;
    expect(st.next_transition.reason_code).toBe("reviewer_results_required");
    expect(inputs.map((i) => i.arguments.find((a) => a.name === "lens")!.value)).toEqual([
      "review-risk", "review-resilience", "review-readability", "review-reliability",
    ]);
    const first = inputs[0]!;
    const binding = s.binding("review-risk", 0);
    expect(first.arguments.map((a) => a.token)).toEqual([...binding, "--agent=pi", "--materialize=true"]);
    expect(first.arguments.map((a) => a.name)).toEqual([
      "lineage", "expected_revision", "target", "repository_context", "lens", "order", "subject_hash", "agent", "materialize",
    ]);
    expect(first.submission).toEqual({
      operation_token: "capture-result",
      argument_tokens: [...binding, "--input={{value}}"],
      value: { slot: "reviewer_result", domain: "artifact_path_or_stdin", schema: "https://gentle-ai.dev/schema/review/reviewer/v1", substitution_location: 7 },
    });
    expect(first.artifact_subject!.subject_hash).toBe(ids.subjectHash("review-risk"));
    // Every changed_path_manifest array is one compact entry per line.
    const m = ids.manifest[0]!;
    expect(r.stdout).toContain(
      `          "changed_path_manifest": [\n            {"path":"${m.path}","status":"${m.status}","additions":${m.additions},"deletions":${m.deletions}},\n`,
    );
  });

  it("renders the v2.5.0 submission with --agent=pi at location 8", async () => {
    const s = sim({ profile: "2.5.0" });
    const st = JSON.parse((await s.run([...STATUS, "--agent", "pi", "--next-transition"], { env: HANDSHAKE })).stdout) as Status;
    expect(st.next_transition.collect!.inputs[1]!.submission).toEqual({
      operation_token: "capture-result",
      argument_tokens: [...s.binding("review-resilience", 1), "--agent=pi", "--input={{value}}"],
      value: { slot: "reviewer_result", domain: "artifact_path_or_stdin", schema: "https://gentle-ai.dev/schema/review/reviewer/v1", substitution_location: 8 },
    });
  });

  it("renders bare inputs without --agent and only agent=<rt> for compiled runtimes, per profile", async () => {
    const runs = await Promise.all(
      (["2.3.0", "2.4.0", "2.5.0"] as const).flatMap((profile) => {
        const s = sim({ profile, identities: profile === "2.3.0" ? "bare" : "prefixed" });
        return [s.run([...STATUS, "--next-transition"], { env: HANDSHAKE }).then((r) => ({ s, r, agent: "" })),
          s.run([...STATUS, "--agent=codex", "--next-transition"]).then((r) => ({ s, r, agent: "codex" }))];
      }),
    );
    for (const { s, r, agent } of runs) {
      expect(r.code).toBe(0);
      const input = (JSON.parse(r.stdout) as Status).next_transition.collect!.inputs[0]!;
      const tail = agent === "" ? [] : [`--agent=${agent}`];
      expect(input.arguments.map((a) => a.token)).toEqual([...s.binding("review-risk", 0), ...tail]);
      expect(input.submission).toBeUndefined();
    }
  });
});

describe("handshake on the status surface", () => {
  it("refuses pi without the handshake with immutable_review_transport_unsupported (2.4.0) and always at 2.3.0", async () => {
    const s24 = sim({ profile: "2.4.0" });
    const s23 = sim({ profile: "2.3.0" });
    const s25 = sim({ profile: "2.5.0" });
    const [a, b, c, d] = await Promise.all([
      s24.run([...STATUS, "--agent", "pi", "--next-transition"], { env: { GENTLE_PI_REVIEW_RELAY_CONTRACT: "gentle-pi.review-relay/v0" } }),
      s23.run([...STATUS, "--agent", "pi", "--next-transition"], { env: HANDSHAKE }),
      s25.run([...STATUS, "--agent", "pi", "--next-transition"]),
      s24.run([...STATUS, "--agent", "pi", "--agent", "pi", "--next-transition"], { env: HANDSHAKE }),
    ]);
    const stderr = `Error: ${TRANSPORT_MSG} [immutable_review_transport_unsupported]\n`;
    for (const r of [a, b, c, d]) {
      expect(r.code).toBe(1);
      expect(r.stderr).toBe(stderr);
    }
    expect(a.stdout).toBe(transportFailure(NOT_ELIGIBLE));
    expect(b.stdout).toBe(transportFailure(NOT_ELIGIBLE));
    expect(c.stdout).toBe(
      transportFailure(
        "the active runtime is not eligible for immutable receipt review; pi is eligible only while GENTLE_PI_REVIEW_RELAY_CONTRACT declares the exact relay contract this binary admits, which the gentle-pi host exports on every invocation it relays; export it in this shell and re-run",
      ),
    );
    expect(d.stdout).toBe(transportFailure("negotiated lifecycle STATUS requires exactly one generated runtime identity"));
  });

  it("routes flag errors per class: negotiated envelope vs plain usage on stdout", async () => {
    const s = sim({ profile: "2.4.0" });
    const [neg, v1, plain] = await Promise.all([
      s.run([...STATUS, "--bogus", "--lineage", s.ids.lineageId]),
      s.run(["review", "status", "--contract", "gentle-ai.review-integration/v1", "--lineage", s.ids.lineageId, "--next-transition=maybe"]),
      s.run(["review", "status", "--bogus"]),
    ]);
    expect(neg.stderr).toBe(`Error: ${INVALID} [invalid_request]\n`);
    expect(JSON.parse(neg.stdout)).toMatchObject({ schema: "gentle-ai.review-integration.failure/v2", cause: "flag provided but not defined: -bogus" });
    expect(JSON.parse(neg.stdout)).not.toHaveProperty("lineage_id");
    expect(v1.stderr).toBe(`Error: ${INVALID} [invalid_request]\n`);
    expect(JSON.parse(v1.stdout)).toMatchObject({
      schema: "gentle-ai.review-integration.failure/v1",
      contract: "gentle-ai.review-integration/v1",
      operation: "review.status",
      cause: 'invalid boolean value "maybe" for -next-transition: parse error',
    });
    expect(plain.code).toBe(1);
    expect(plain.stderr).toBe("Error: flag provided but not defined: -bogus\n");
    expect(plain.stdout.startsWith("flag provided but not defined: -bogus\nUsage: gentle-ai review status [flags]\n\n")).toBe(true);
  });
});

describe("refuter role vector", () => {
  it("offers provider_refuter_required to pi once every lens is captured, finalize otherwise", async () => {
    const s = sim({ profile: "2.4.0", lineage: { refuter: true, lenses: ["review-risk"], captured: ["review-risk"] } });
    const [pi, plain] = await Promise.all([
      s.run([...STATUS, "--agent", "pi", "--next-transition"], { env: HANDSHAKE }),
      s.run([...STATUS, "--next-transition"]),
    ]);
    const ids = s.ids;
    expect((JSON.parse(pi.stdout) as Status).next_transition).toEqual({
      kind: "collect",
      reason_code: "provider_refuter_required",
      collect: {
        inputs: [
          {
            name: "provider_refuter",
            schema: "https://gentle-ai.dev/schema/review/refuter/v1",
            capture_operation: "review.capture-refuter",
            arguments: [
              { name: "lineage", value: ids.lineageId, token: `--lineage=${ids.lineageId}` },
              { name: "expected_revision", value: ids.revision(0), token: `--expected-revision=${ids.revision(0)}` },
              { name: "target", value: ids.targetIdentity, token: `--target=${ids.targetIdentity}` },
              { name: "repository_context", value: ids.repositoryContext, token: `--repository-context=${ids.repositoryContext}` },
              { name: "agent", value: "pi", token: "--agent=pi" },
              { name: "execute", value: "true", token: "--execute=true" },
            ],
          },
        ],
      },
    });
    expect((JSON.parse(plain.stdout) as Status).next_transition.reason_code).toBe("captured_results_ready");
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
    for (const { p, r } of runs) expect([r.stdout, r.stderr, r.code]).toEqual([`gentle-ai ${p}\n`, "", 0]);
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
    expect(help.stdout).toBe(
      "Usage: gentle-ai review <capture-result|capture-refuter|capture-validation|lens-context|capture-evidence|preserve-result|capabilities|start|finalize|validate|status|repair|invalidate|abandon|recover|retry-final-verification|reclaim|store-reset|inspect-authority|inspect-candidate|dispose-result|reopen-results|schema|opencode-transport|bind-sdd> [flags]\n\n" +
        "Ordinary review facade; repository scope, authority, canonical artifacts, and lifecycle transitions are derived by Go. Provider transports relay opaque bytes only; Go materializes, admits, captures, and decides delivery. Use review retry-final-verification only for a provider-proven completed failed final-verification tooling incident. Generic review recover remains unchanged. Use review repair --preflight for provider-owned classified authority repair.\n",
    );
    expect([unknown.stdout, unknown.stderr, unknown.code]).toEqual(["", 'Error: unknown review command "consent"\n', 1]);
    expect([role23.stdout, role23.stderr, role23.code]).toEqual(["", 'Error: unknown review command "capture-refuter"\n', 1]);
  });
});

describe("review capabilities (inferred members)", () => {
  it("reports the profile's schema, package version and the executable's own sha256", async () => {
    const { createHash } = await import("node:crypto");
    const { readFileSync } = await import("node:fs");
    const { GENTLE_AI } = await import("./helpers.ts");
    const exe = "sha256:" + createHash("sha256").update(readFileSync(GENTLE_AI)).digest("hex");
    const expected = { "2.3.0": "capabilities/v2.2", "2.4.0": "capabilities/v2.2", "2.5.0": "capabilities/v2.4" } as const;
    for (const profile of ["2.3.0", "2.4.0", "2.5.0"] as const) {
      const r = await sim({ profile }).run(["review", "capabilities", "--contract", V2]);
      expect([r.stderr, r.code]).toEqual(["", 0]);
      const caps = JSON.parse(r.stdout) as Record<string, { version?: string; sha256?: string }>;
      expect(Object.keys(caps)).toEqual([
        "schema", "contract", "protocol", "package", "build", "executable", "operations", "gates", "projections", "schemas", "features", "bootstrap", "compatibility",
      ]);
      expect(caps["schema"]).toBe(`gentle-ai.review-integration.${expected[profile]}`);
      expect(caps["package"]!.version).toBe(profile);
      expect(caps["executable"]!.sha256).toBe(exe);
    }
  });
});
