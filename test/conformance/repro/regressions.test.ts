import { afterEach, describe, expect, it } from "vitest";
import { runRepro } from "../../support/run-repro.ts";

// Each reproduction must notice a regression: the documented bug fixed in the buggy variant, or a fix
// re-introduced as a defect in ours. Expected: exit 1 and the MISMATCH line naming the file and line.

afterEach(() => {
  delete process.env["REPRO_RELAY_REGRESSION"];
});

describe("279 notices regressions", () => {
  it(
    "the subject replaced by the 2.1.2 variant (--against … --defects D1,D2,D3): our phases report the bug",
    { timeout: 60_000 },
    async () => {
      const r = await runRepro(["279", "--against", "gentle-pi-2.1.2", "--defects", "D1,D2,D3", "--phase", "8"]);
      expect(r.code).toBe(1);
      expect(r.out).toContain("  subject: gentle-pi-2.1.2 defects=D1,D2,D3");
      // The variant's decoder keeps the bare ids it was given.
      expect(r.out).toContain(
        "   MISMATCH  279.txtar:109: expect ok record.target_identity~'^sha256:[0-9a-f]{64}$' record.authority_revision~'^sha256:'",
      );
      expect(r.out).toContain('   MISMATCH  279.txtar:111: expect ok\n             ok: expected "true", actual false');
      expect(r.out).toContain("   => error name=CandidateViewError code=correction-evidence-binding-drift");
      expect(r.out.split("\n").at(-1)).toMatch(/^FAIL 279: \d+ mismatches \(1 phases, \d+ steps, \d+ checks\)$/);
    },
  );

  it(
    "the fix-in-turn order is data: --defects D1 on the variant makes the all-fixed expectations fail with D1's refusal",
    { timeout: 60_000 },
    async () => {
      const r = await runRepro(["279", "--against", "gentle-pi-2.1.2", "--defects", "D1", "--phase", "10"]);
      expect(r.code).toBe(1);
      expect(r.out).toContain(
        '      message: "targeted validation result does not bind the provider-owned correction request"',
      );
      expect(r.out).toContain("   MISMATCH  279.txtar:136: expect ok");
    },
  );

  it(
    "D3 quietly fixed in the buggy variant (--module gentle-pi-2.1.2=…): the documented drift no longer fires",
    { timeout: 60_000 },
    async () => {
      const r = await runRepro([
        "279",
        "--module",
        "gentle-pi-2.1.2=test/conformance/repro/regressions/variant-d3-fixed.ts",
        "--phase",
        "1",
      ]);
      expect(r.code).toBe(1);
      expect(r.out).toContain(
        "   MISMATCH  279.txtar:35: expect name=CandidateViewError code=correction-evidence-binding-drift",
      );
      expect(r.out).toContain(
        '             name: expected "CandidateViewError", actual "NativeReviewError"; code: expected "correction-evidence-binding-drift", actual "invalid_request"',
      );
      expect(r.out).toContain("   MISMATCH  279.txtar:37: calls finalize=0");
    },
  );

  it(
    "D2 re-introduced in our client: our same-process phase reports the provider's D2 refusal",
    { timeout: 60_000 },
    async () => {
      const r = await runRepro([
        "279",
        "--against",
        "test/conformance/repro/regressions/ours-with-d2.ts",
        "--phase",
        "8",
      ]);
      expect(r.code).toBe(1);
      expect(r.out).toContain("   MISMATCH  279.txtar:111: expect ok");
      expect(r.out).toMatch(
        /--validation \$TMPDIR\/gentle-ai-finalize-\w+\/validation\.json --evidence \$TMPDIR\/gentle-ai-finalize-\w+\/evidence\.txt\n/,
      );
      expect(r.out).toContain(
        'cause="compact correction acceptance requires captured repository verification evidence"',
      );
    },
  );

  it(
    "D3 re-introduced in our client: bare evidence ids drift again before FINALIZE launches",
    { timeout: 60_000 },
    async () => {
      const r = await runRepro([
        "279",
        "--against",
        "test/conformance/repro/regressions/ours-with-d3.ts",
        "--phase",
        "8",
      ]);
      expect(r.code).toBe(1);
      expect(r.out).toContain("   MISMATCH  279.txtar:111: expect ok");
      expect(r.out).toContain(
        "   MISMATCH  279.txtar:115: calls phase pi=0 capture-result=0 capture-refuter=0 capture-validation=0 capture-evidence=1 finalize=1",
      );
    },
  );
});

describe("relay reproductions notice regressions in our relay", () => {
  const WRAPPER = "test/conformance/repro/regressions/relay-regressions.ts";

  it("522: typed admission refusal reported as unknown (pre-2.3.0)", { timeout: 60_000 }, async () => {
    process.env["REPRO_RELAY_REGRESSION"] = "untyped-admission";
    const r = await runRepro(["522", "--against", WRAPPER, "--phase", "1"]);
    expect(r.code).toBe(1);
    expect(r.out).toContain(
      "   MISMATCH  522.txtar:21: expect kind=submission-refused stage=submit mutationOutcome=none exitCode=1 timedOut=false",
    );
    expect(r.out).toContain('             mutationOutcome: expected "none", actual "unknown"');
  });

  it("367: a pi timeout reported as pi-failed (pre-#367)", { timeout: 60_000 }, async () => {
    process.env["REPRO_RELAY_REGRESSION"] = "pi-failed";
    const r = await runRepro(["367", "--against", WRAPPER, "--phase", "1"]);
    expect(r.code).toBe(1);
    expect(r.out).toContain(
      "   MISMATCH  367.txtar:22: expect kind=pi-timed-out stage=pi mutationOutcome=none timedOut=true timeoutMs=300 elapsedMs>=300 elapsedMs<=2500",
    );
    expect(r.out).toContain('             kind: expected "pi-timed-out", actual "pi-failed"');
    expect(r.out).toContain(
      "   MISMATCH  367.txtar:32: step not run: variable $PROMPT_BYTES is not set (the check that sets it did not match)",
    );
  });

  it("old-binary: relay-unavailable reported as materialize-failed", { timeout: 60_000 }, async () => {
    process.env["REPRO_RELAY_REGRESSION"] = "no-unknown-flag";
    const r = await runRepro(["old-binary", "--against", WRAPPER, "--phase", "2"]);
    expect(r.code).toBe(1);
    expect(r.out).toContain('             kind: expected "relay-unavailable", actual "materialize-failed"');
  });

  it("handshake: the refusal text trimmed instead of verbatim", { timeout: 60_000 }, async () => {
    process.env["REPRO_RELAY_REGRESSION"] = "trimmed-handshake";
    const r = await runRepro(["handshake", "--against", WRAPPER, "--phase", "1"]);
    expect(r.code).toBe(1);
    expect(r.out).toContain("   MISMATCH  handshake.txtar:23: expect message=@refusal-2.4.0.stderr");
  });
});
