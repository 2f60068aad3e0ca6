// capture-result refusal order per profile, against the built simulator binary; texts and order from gentle-ai
// fb55ef7b internal/cli/review_artifact.go RunReviewCaptureResult (:248-470) and what it calls.
import { describe, expect, it } from "vitest";
import { HANDSHAKE } from "../../../support/contract.ts";
import { envelope, INVALID } from "../../../support/go-oracles.ts";
import { simWorlds } from "../../../support/sim-world.ts";

const OP = "review.capture-result";
const BINDING_MSG =
  "The capture binding does not match the current review authority; re-derive the exact next transition before retrying.";
const REQUIRES =
  "review capture-result requires an exact repository context, --lineage, --target, --lens, --order, and either --input or --agent (or --preflight); `gentle-ai review status --contract gentle-ai.review-integration/v1 --next-transition` prints the exact bindings and `gentle-ai review schema reviewer` emits the result schema with a working example";
// The privacy scrub turns every `/…` run into <redacted> (§4 step 4).
const cause = (text: string) =>
  text.replace(/gentle-ai\.review-integration\/v[12]/g, "gentle-ai.review-integration<redacted>");
const REQUIRES_CAUSE = cause(REQUIRES);
const NOT_ELIGIBLE =
  "the active runtime is not eligible for immutable receipt review; exit receipt-driven review with `gentle-ai review mode disable --scope clone --cwd <repo>`; supported immutable review runtimes: claude-code, opencode, codex";
const PR3444 =
  "the active runtime is not eligible for immutable receipt review; pi is eligible only while GENTLE_PI_REVIEW_RELAY_CONTRACT declares the exact relay contract this binary admits, which the gentle-pi host exports on every invocation it relays; export it in this shell and re-run";
const DRIFT =
  "capture binding does not match the current reviewing authority under the provider-issued repository context; ask the parent orchestrator to refresh the exact native next transition by running gentle-ai review status --cwd <repo> --contract gentle-ai.review-integration/v2 --next-transition";
// repository_locator.go:233-246 through review_incident.go:179-192: the handle commits to lineage, target and revision.
const contextUnavailable = (why: string) =>
  `repository_context_unavailable: provider-issued review repository context operation failed; cause: ${why}; refresh the exact native next_transition before retrying`;

const sim = simWorlds();

interface Case {
  readonly name: string;
  readonly argv: string[];
  readonly env?: Record<string, string>;
  readonly text: string;
  readonly code?: "invalid_request" | "capture_binding_mismatch";
  readonly lineage: boolean;
}

describe("capture-result refusals at 2.4.0 (collect-capture route)", () => {
  const s = sim({ profile: "2.4.0" });
  const ids = s.ids;
  const B = s.binding("review-risk", 0);
  const cr = (...rest: string[]) => ["review", "capture-result", ...rest];
  const L = ids.lineageId;
  const cases: Case[] = [
    { name: "0 undefined flag", argv: cr("--x", ...B), text: "flag provided but not defined: -x", lineage: false },
    {
      name: "0 undefined flag with =value",
      argv: cr(...B, "--bogus=1", "--y"),
      text: "flag provided but not defined: -bogus",
      lineage: false,
    },
    { name: "0 bad flag syntax", argv: cr(...B, "---x"), text: "bad flag syntax: ---x", lineage: false },
    {
      name: "0 flag needs an argument",
      argv: cr(...B, "--input"),
      text: "flag needs an argument: -input",
      lineage: false,
    },
    {
      name: "0 invalid int",
      argv: cr(...B, "--order=x"),
      text: 'invalid value "x" for flag -order: parse error',
      lineage: false,
    },
    {
      name: "0 detached bool",
      argv: cr(...B, "--agent=pi", "--materialize", "true"),
      text: 'boolean flag --materialize takes --materialize or --materialize=true, not a separate value; got "true"',
      lineage: true,
    },
    {
      name: "1 materialize with input",
      argv: cr(...B, "--agent=pi", "--materialize=true", "--input=r.json"),
      text: "review capture-result --materialize only prints the Go-materialized provider task and cannot be combined with --input or --preflight",
      lineage: true,
    },
    {
      name: "2 materialize without agent",
      argv: cr(...B, "--materialize=true"),
      text: "review capture-result --materialize requires --agent naming the host-relay runtime",
      lineage: true,
    },
    { name: "3 nothing to do", argv: cr(...B), text: REQUIRES, lineage: true },
    { name: "3 positional", argv: cr(...B, "--input=r.json", "extra"), text: REQUIRES, lineage: true },
    {
      name: "3 order missing",
      argv: cr(...B.filter((t) => !t.startsWith("--order")), "--input=r.json"),
      text: REQUIRES,
      lineage: true,
    },
    {
      name: "3 blank lens",
      argv: cr(...B.map((t) => (t.startsWith("--lens") ? "--lens= " : t)), "--input=r.json"),
      text: REQUIRES,
      lineage: true,
    },
    { name: "3 blank input", argv: cr(...B, "--input=\t"), text: REQUIRES, lineage: true },
    {
      name: "4 agent with input",
      argv: cr(...B, "--agent=pi", "--input=r.json"),
      text: "review capture-result --agent requires no --input and cannot be combined with --preflight",
      lineage: true,
    },
    {
      name: "5 context with explicit cwd",
      argv: cr(...B, "--cwd=.", "--input=r.json"),
      text: "review capture-result accepts either --repository-context or --cwd, not both",
      lineage: true,
    },
    {
      name: "6 context without revision",
      argv: cr(...B.filter((t) => !t.startsWith("--expected-revision")), "--input=r.json"),
      text: "review capture-result with --repository-context requires --expected-revision",
      lineage: true,
    },
    {
      name: "7 agent without context",
      argv: cr(
        `--lineage=${L}`,
        `--target=${ids.targetIdentity}`,
        "--lens=review-risk",
        "--order=0",
        "--agent=pi",
        "--materialize=true",
      ),
      text: "review capture-result --agent requires the provider-issued --repository-context",
      lineage: true,
    },
    {
      name: "8 pi without handshake",
      argv: cr(...B, "--agent=pi", "--materialize=true"),
      text: NOT_ELIGIBLE,
      lineage: true,
    },
    {
      name: "8 wrong-case handshake",
      argv: cr(...B, "--agent=pi", "--materialize=true"),
      env: { GENTLE_PI_REVIEW_RELAY_CONTRACT: "GENTLE-PI.REVIEW-RELAY/V1" },
      text: NOT_ELIGIBLE,
      lineage: true,
    },
    {
      name: "9 opencode materialize (pre-#3441 shared sentence)",
      argv: cr(...B, "--agent=opencode", "--materialize=true"),
      text: 'review capture-result provider runtime "opencode" is host-mediated; use its live transport collection',
      lineage: true,
    },
    {
      name: "9 compiled runtime materialize",
      argv: cr(...B, "--agent=codex", "--materialize=true"),
      text: 'review capture-result --materialize is unavailable for "codex": a compiled runtime materializes internally; run the capture operation without --materialize',
      lineage: true,
    },
    {
      name: "9 pi without materialize",
      argv: cr(...B, "--agent=pi"),
      env: HANDSHAKE,
      text: 'review capture-result provider runtime "pi" is host-mediated; use its live transport collection',
      lineage: true,
    },
    {
      // Real gentle-ai 2.4.0 (301fb2ad) and 2.5.0 (fb55ef7b) bytes: the missing locator file's lstat error, scrubbed.
      name: "10 unknown context handle",
      argv: cr(
        ...B.map((t) => (t.startsWith("--repository-context") ? `--repository-context=rctx1_${"0".repeat(64)}` : t)),
        "--input=r.json",
      ),
      text: contextUnavailable("lstat <redacted> no such file or directory"),
      lineage: true,
    },
    {
      // Real gentle-ai 2.4.0 (301fb2ad) and 2.5.0 (fb55ef7b) bytes: the handle's shape check
      // (repository_locator.go:457).
      name: "10 malformed context handle",
      argv: cr(
        ...B.map((t) => (t.startsWith("--repository-context") ? "--repository-context=garbage" : t)),
        "--input=r.json",
      ),
      text: contextUnavailable("invalid review repository context handle"),
      lineage: true,
    },
    {
      name: "10 malformed context binding",
      argv: cr(...B.map((t) => (t.startsWith("--target") ? "--target=sha256:ABC" : t)), "--input=r.json"),
      text: contextUnavailable("invalid review repository context binding"),
      lineage: true,
    },
    {
      name: "10 revision drift under a context",
      argv: cr(
        ...B.map((t) => (t.startsWith("--expected-revision") ? `--expected-revision=sha256:${"a".repeat(64)}` : t)),
        "--input=r.json",
      ),
      text: contextUnavailable("review repository context binding is invalid"),
      lineage: true,
    },
    {
      name: "10 padded lineage under a context (only emptiness is tested on trimmed values)",
      argv: cr(...B.map((t) => (t.startsWith("--lineage") ? `--lineage=${L} ` : t)), "--input=r.json"),
      text: contextUnavailable("invalid review repository context binding"),
      lineage: false, // safeReviewIntegrationLineage drops a lineage that is not a valid identifier
    },
    {
      name: "13 order drift",
      argv: cr(...s.binding("review-risk", 1), "--input=r.json"),
      text: DRIFT,
      code: "capture_binding_mismatch",
      lineage: true,
    },
    {
      name: "13 order past the lenses",
      argv: cr(...s.binding("review-risk", 7), "--input=r.json"),
      text: DRIFT,
      code: "capture_binding_mismatch",
      lineage: true,
    },
    {
      name: "14 stale materialize subject hash",
      argv: cr(
        ...B.map((t) => (t.startsWith("--subject-hash") ? `--subject-hash=sha256:${"b".repeat(64)}` : t)),
        "--agent=pi",
        "--materialize=true",
      ),
      env: HANDSHAKE,
      text: "materialize subject hash does not match the provider-owned authority; refresh the binding with gentle-ai review status --cwd <repo> --contract <same-contract> --next-transition",
      code: "capture_binding_mismatch",
      lineage: true,
    },
  ];

  it("prints the failure/v2 envelope and `Error: <text> [<code>]` for every refusal, in order", async () => {
    const runs = await Promise.all(cases.map((c) => s.run(c.argv, { env: c.env ?? {} })));
    runs.forEach((r, i) => {
      const c = cases[i]!;
      const code = c.code ?? "invalid_request";
      const [message, next] =
        code === "invalid_request" ? [INVALID, "correct_request"] : [BINDING_MSG, "review.status"];
      expect({ name: c.name, code: r.code, stderr: r.stderrText, stdout: r.stdoutText }).toEqual({
        name: c.name,
        code: 1,
        stderr: `Error: ${c.text} [${code}]\n`,
        stdout: envelope(OP, code, message, next, cause(c.text), c.lineage ? L : undefined),
      });
    });
    expect(s.state()).toBeUndefined(); // no refusal wrote state
  });

  it("trims --agent before the runtime gate: a padded pi materializes the same task", async () => {
    const [padded, exact] = await Promise.all([
      s.run(cr(...B, "--agent= pi ", "--materialize=true"), { env: HANDSHAKE }),
      s.run(cr(...B, "--agent=pi", "--materialize=true"), { env: HANDSHAKE }),
    ]);
    expect([padded.code, padded.stderrText]).toEqual([0, ""]);
    expect(padded.stdout.equals(exact.stdout)).toBe(true);
  });

  it("on the --cwd route names the repository root (scrubbed in the envelope) and an unknown lineage", async () => {
    const root = s.dir;
    const base = [`--target=${ids.targetIdentity}`, "--lens=review-risk", "--input=r.json", `--cwd=${root}`];
    const [drift, unknown] = await Promise.all([
      s.run(cr(`--lineage=${L}`, "--order=1", ...base)),
      s.run(cr("--lineage=review-0000000000000000", "--order=0", ...base)),
    ]);
    const driftText = `capture binding does not match the current reviewing authority under repository "${root}"; verify the frozen lineage, target, lens, and order for that repository, or re-run with --cwd set to the repository where the review was started`;
    expect(drift.stderrText).toBe(`Error: ${driftText} [capture_binding_mismatch]\n`);
    expect(drift.stdoutText).toBe(
      envelope(OP, "capture_binding_mismatch", BINDING_MSG, "review.status", driftText.replace(root, "<redacted>"), L),
    );
    const absent =
      'no compact facade review lineage "review-0000000000000000" was found; run gentle-ai review start --lineage review-0000000000000000 to begin a fresh compact review, or use gentle-ai review-resume --cwd <repo> --lineage review-0000000000000000 for explicit read-only historical compatibility';
    expect(unknown.stderrText).toBe(
      `Error: resolve reviewing authority for lineage "review-0000000000000000" under repository "${root}": ${absent}; if the review was started in a different repository (for example a nested one), re-run with --cwd set to that repository [invalid_request]\n`,
    );
    expect(s.state()).toBeUndefined();
  });

  it("prints the usage and exits 0 for exactly -h/--help, and discards usage when -help is followed by a refusal", async () => {
    const [help, helpLong] = await Promise.all([
      s.run(["review", "capture-result", "-h"]),
      s.run(["review", "capture-result", "-help"]),
    ]);
    expect(help.code).toBe(0);
    expect(help.stderrText).toBe("");
    expect(
      help.stdoutText.startsWith(
        "Usage: gentle-ai review capture-result [flags]\n\nCapture one strict reviewer result in native authority and emit its bound manifest.\n\nFlags:\n  --agent <value>\n",
      ),
    ).toBe(true);
    expect(
      help.stdoutText.endsWith(
        "  --target <value>\n      exact frozen target identity\n  -h, --help\n      show this help\n",
      ),
    ).toBe(true);
    expect(helpLong.code).toBe(1);
    expect(helpLong.stderrText).toBe(`Error: ${REQUIRES} [invalid_request]\n`);
    expect(helpLong.stdoutText).toBe(envelope(OP, "invalid_request", INVALID, "correct_request", REQUIRES_CAUSE));
  });
});

describe("capture-result refusals at 2.5.0 (HEAD #3441/#3444 wordings; --agent with --input inferred from PR #3845)", () => {
  const s = sim({ profile: "2.5.0" });
  const B = s.binding("review-risk", 0);
  it("uses the split wordings and admits --agent pi with --input only through the handshake", async () => {
    const cases: Case[] = [
      { name: "pi without handshake", argv: [...B, "--agent=pi", "--materialize=true"], text: PR3444, lineage: true },
      {
        name: "pi submit without handshake",
        argv: [...B, "--agent=pi", "--input=r.json"],
        text: PR3444,
        lineage: true,
      },
      {
        name: "agent with preflight",
        argv: [...B, "--agent=pi", "--preflight"],
        env: HANDSHAKE,
        text: "review capture-result --agent cannot be combined with --preflight",
        lineage: true,
      },
      {
        name: "pi without materialize",
        argv: [...B, "--agent=pi"],
        env: HANDSHAKE,
        text: 'review capture-result --agent "pi" without --materialize has no in-process reviewer to run: its compiled transport is "pi_host_relay", whose host owns the reviewer subprocess; print the provider task with --materialize=true, run it in the host, then submit the raw result with --input and the same binding',
        lineage: true,
      },
      {
        name: "compiled runtime with input (inferred wording, HEAD transport name)",
        argv: [...B, "--agent=claude-code", "--input=r.json"],
        text: 'review capture-result --agent "claude-code" with --input is unavailable: only a compiled host-relay runtime may submit its raw reviewer result with the provider-owned runtime binding; this runtime\'s compiled transport is "claude_prompt_carried"',
        lineage: true,
      },
      {
        name: "opencode materialize (review_provider_materialize_test.go:140)",
        argv: [...B, "--agent=opencode", "--materialize=true"],
        text: 'review capture-result --materialize is unavailable for "opencode": printing the Go-materialized provider task is the host-relay form, and this runtime\'s compiled transport is "opencode_provider_injected"; collect its reviewer result through that live host transport instead',
        lineage: true,
      },
      {
        name: "opencode without materialize (review_capture_result_refusal_distinct_test.go)",
        argv: [...B, "--agent=opencode"],
        text: 'review capture-result --agent "opencode" has no compiled in-process reviewer adapter: its compiled transport is "opencode_provider_injected"; collect its reviewer result through that live host transport instead',
        lineage: true,
      },
    ];
    const runs = await Promise.all(
      cases.map((c) => s.run(["review", "capture-result", ...c.argv], { env: c.env ?? {} })),
    );
    runs.forEach((r, i) => {
      const c = cases[i]!;
      expect({ name: c.name, code: r.code, stderr: r.stderrText, stdout: r.stdoutText }).toEqual({
        name: c.name,
        code: 1,
        stderr: `Error: ${c.text} [invalid_request]\n`,
        stdout: envelope(OP, "invalid_request", INVALID, "correct_request", c.text, s.ids.lineageId),
      });
    });
  });
});

describe("capture-result at the pre-relay 2.3.0 profile (plain route)", () => {
  const s = sim({ profile: "2.3.0" });
  const B = s.binding("review-risk", 0);
  it("reports -agent first with the flag line and usage on stdout, bare Error on stderr", async () => {
    const r = await s.run(["review", "capture-result", ...B, "--agent=pi", "--materialize=true"], { env: HANDSHAKE });
    expect(r.code).toBe(1);
    expect(r.stderrText).toBe("Error: flag provided but not defined: -agent\n");
    expect(r.stdoutText).toBe(
      "flag provided but not defined: -agent\n" +
        "Usage: gentle-ai review capture-result [flags]\n\n" +
        "Capture one strict reviewer result in native authority and emit its bound manifest.\n\n" +
        "Flags:\n" +
        '  --cwd <value>\n      repository path (default ".")\n' +
        "  --expected-revision <value>\n      exact reviewing authority revision\n" +
        "  --input <value>\n      raw reviewer result JSON file or - for stdin; `gentle-ai review schema reviewer` emits the schema and a working example\n" +
        "  --lens <value>\n      exact selected lens\n" +
        "  --lineage <value>\n      exact review lineage identifier\n" +
        '  --order <value>\n      zero-based selected lens order (default "-1")\n' +
        '  --preflight\n      validate the capture binding and, when --input is supplied, the result admission without persisting anything (default "false")\n' +
        "  --repository-context <value>\n      opaque provider-issued repository context; supplied by the collect transition and mutually exclusive with --cwd, pass one or the other and not both\n" +
        "  --subject-hash <value>\n      provider-issued artifact subject hash for native-Git context\n" +
        "  --target <value>\n      exact frozen target identity\n" +
        "  -h, --help\n      show this help\n",
    );
    expect(r.stdoutText).not.toContain("Usage of");
  });

  it("prints other refusals as `Error: <text>` with empty stdout", async () => {
    const r = await s.run([
      "review",
      "capture-result",
      ...B.map((t) => (t.startsWith("--order") ? "--order=2" : t)),
      "--input=r.json",
    ]);
    expect(r.code).toBe(1);
    expect(r.stdoutText).toBe("");
    expect(r.stderrText).toBe(`Error: ${DRIFT}\n`);
  });
});

describe("rddDisabled", () => {
  it("refuses a submission with rdd_disabled (pre_native, not retry-safe) but still materializes", async () => {
    const s = sim({ profile: "2.4.0", lineage: { rddDisabled: true } });
    const B = s.binding("review-risk", 0);
    const input = s.file("r.json", s.piResult("review-risk"));
    const [submit, mat] = await Promise.all([
      s.run(["review", "capture-result", ...B, `--input=${input}`]),
      s.run(["review", "capture-result", ...B, "--agent=pi", "--materialize=true"], { env: HANDSHAKE }),
    ]);
    // RDDDisabledError.Error() for a mutation decided by the clone-local source
    // (reviewtransaction/rdd_mode.go:214-229).
    const text =
      "receipt-driven development is disabled: advancing an existing review is rejected because the clone_local mode source keeps it off" +
      "; the review is frozen, not discarded" +
      "; turn reviews on with gentle-ai review mode enable --scope=global then gentle-ai review mode enable --scope=clone to continue it from where it stopped";
    expect(submit.code).toBe(1);
    expect(submit.stderrText).toBe(`Error: ${text} [rdd_disabled]\n`);
    expect(submit.stdoutText).toBe(
      envelope(
        OP,
        "rdd_disabled",
        "Receipt-driven development is disabled; this operation never started.",
        "stop",
        text,
        s.ids.lineageId,
        false,
        "pre_native",
      ),
    );
    expect(mat.code).toBe(0);
    expect(mat.stdoutText.startsWith("GENTLE_AI_REVIEW_BINDING ")).toBe(true);
  });
});
