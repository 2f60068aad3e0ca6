import { describe, expect, it } from "vitest";
import { encodeReviewJson } from "../go/go-json.ts";
import { failureEnvelope, safeScanLineage, scrubCause } from "./envelope.ts";

describe("failure envelope", () => {
  it("scrubs the cause in the documented order", () => {
    expect(scrubCause("flag provided but not defined: -x")).toBe("flag provided but not defined: -x");
    expect(scrubCause("contract gentle-ai.review-integration/v2 bad")).toBe(
      "contract gentle-ai.review-integration<redacted> bad",
    );
    expect(scrubCause("  HOME=/x mail a.b@c.io at C:\\tmp\\f\rsecond")).toBe(
      "<redacted> mail <redacted> at <redacted>",
    );
    expect(Array.from(scrubCause("é".repeat(5000))).length).toBe(4000);
  });

  it("orders fields and omits empty optional ones", () => {
    const text = encodeReviewJson(
      failureEnvelope({
        version: 2,
        operation: "review.capture-result",
        code: "invalid_request",
        cause: "flag provided but not defined: -x",
      }),
    ).toString("utf8");
    expect(text).toBe(
      [
        "{",
        '  "schema": "gentle-ai.review-integration.failure/v2",',
        '  "contract": "gentle-ai.review-integration/v2",',
        '  "operation": "review.capture-result",',
        '  "phase": "preflight",',
        '  "code": "invalid_request",',
        '  "message": "The negotiated review request is invalid.",',
        '  "mutation_outcome": "not_started",',
        '  "authority_applicability": "not_evaluated",',
        '  "retry_safe": true,',
        '  "replayability": "not_replayable",',
        '  "required_inputs": [],',
        '  "next_action": "correct_request",',
        '  "cause": "flag provided but not defined: -x"',
        "}",
        "",
      ].join("\n"),
    );
    const v1 = failureEnvelope({
      version: 1,
      operation: "review.status",
      code: "rdd_disabled",
      lineageId: "review-ab",
    }) as Record<string, unknown>;
    expect(Object.keys(v1)).toContain("lineage_id");
    expect([v1["schema"], v1["contract"], v1["phase"], v1["retry_safe"], v1["next_action"], v1["cause"]]).toEqual([
      "gentle-ai.review-integration.failure/v1",
      "gentle-ai.review-integration/v1",
      "pre_native",
      false,
      "stop",
      undefined,
    ]);
  });

  it("includes lineage_id only when the arguments scan safely", () => {
    const flags = [
      { name: "lineage", kind: "string" as const },
      { name: "order", kind: "int" as const },
      { name: "materialize", kind: "bool" as const },
    ];
    expect(safeScanLineage(["--lineage=review-ab12", "--order", "3", "--materialize"], flags)).toBe("review-ab12");
    expect(safeScanLineage(["--lineage=review-ab12", "--x"], flags)).toBeUndefined();
    expect(safeScanLineage(["--lineage=review-ab12", "--order=0x1"], flags)).toBeUndefined();
    expect(safeScanLineage(["--lineage=review-ab12", "--materialize=yes"], flags)).toBeUndefined();
    expect(safeScanLineage(["--lineage=Review"], flags)).toBeUndefined();
    expect(safeScanLineage(["--lineage", "a".repeat(129)], flags)).toBeUndefined();
    expect(safeScanLineage(["--order", "1"], flags)).toBeUndefined();
    // Go flag stops at the first positional, `-` or `--`: what follows is never examined.
    expect(safeScanLineage(["--lineage=review-ab12", "pos", "--x"], flags)).toBe("review-ab12");
    expect(safeScanLineage(["--lineage=review-ab12", "--", "--x"], flags)).toBe("review-ab12");
    expect(safeScanLineage(["--lineage", "review-ab12", "--lineage=review-cd"], flags)).toBe("review-cd");
    expect(safeScanLineage(["--lineage", "review--ab"], flags)).toBeUndefined();
    expect(safeScanLineage(["--lineage", "review-ab-"], flags)).toBeUndefined();
    expect(
      safeScanLineage(
        ["--order", "+7", "--predecessor=review-x"],
        [...flags, { name: "predecessor", kind: "string" }],
        "predecessor",
      ),
    ).toBe("review-x");
  });

  it("publishes the negotiation and catch-all classes as the source builds them", () => {
    const unsupported = failureEnvelope({
      version: 1,
      operation: "review.finalize",
      code: "unsupported_contract",
      cause: "ignored",
    });
    expect(unsupported).toEqual({
      schema: "gentle-ai.review-integration.failure/v1",
      contract: "gentle-ai.review-integration/v1",
      operation: "review.finalize",
      phase: "preflight",
      code: "unsupported_contract",
      message: "The requested review integration contract is not supported.",
      mutation_outcome: "not_started",
      authority_applicability: "not_evaluated",
      retry_safe: true,
      replayability: "not_replayable",
      lineage_id: undefined,
      required_inputs: [],
      next_action: "correct_request",
      cause: undefined,
    });
    const failed = failureEnvelope({
      version: 2,
      operation: "review.capabilities",
      code: "operation_failed",
      cause: "x",
    }) as Record<string, unknown>;
    expect([failed["phase"], failed["retry_safe"], failed["next_action"], failed["cause"]]).toEqual([
      "pre_native",
      true,
      "retry",
      undefined,
    ]);
    const unknown = failureEnvelope({
      version: 2,
      operation: "review.finalize",
      code: "operation_outcome_unknown",
      cause: "boom",
    }) as Record<string, unknown>;
    expect([
      unknown["phase"],
      unknown["mutation_outcome"],
      unknown["retry_safe"],
      unknown["replayability"],
      unknown["next_action"],
      unknown["cause"],
    ]).toEqual(["native_running", "unknown", false, "status_required", "review.status", "boom"]);
  });
});
