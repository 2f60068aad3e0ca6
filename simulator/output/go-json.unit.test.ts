import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { encodeReviewJson, goMarshal, goQuote } from "./go-json.ts";
import { failureEnvelope, safeScanLineage, scrubCause } from "./envelope.ts";

describe("Go encoding/json", () => {
  it("HTML-escapes and uses Go's short escapes", () => {
    expect(goQuote('<a>&\u2028\u2029\b\f\n\r\t\u0001"\\é')).toBe('"\\u003ca\\u003e\\u0026\\u2028\\u2029\\b\\f\\n\\r\\t\\u0001\\"\\\\é"');
    expect(goQuote("\ud800x")).toBe('"\\ufffdx"');
  });

  it("quotes any string as JSON.stringify does, plus Go's HTML escapes and U+FFFD for a lone surrogate", () => {
    // An oracle that is not our encoder: V8's well-formed JSON.stringify has Go 1.22's short escapes and \u00XX
    // controls; Go also escapes <, >, &, U+2028 and U+2029, and replaces invalid UTF-8 (a lone surrogate) with U+FFFD.
    const oracle = (s: string): string =>
      JSON.stringify(s).replace(/\\u(d[89a-f][0-9a-f]{2})|\\.|[<>&\u2028\u2029]/g, (m: string, lone: string | undefined) =>
        lone !== undefined ? "\\ufffd" : m.startsWith("\\") ? m : "\\u" + m.charCodeAt(0).toString(16).padStart(4, "0"),
      );
    const tricky = fc.constantFrom('"', "\\", "<", ">", "&", "\u2028", "\u2029", "\ud800", "\udbff", "\udc00", "\udfff", "\ud83d\ude00", "\u00e9", "\u007f");
    const unit = fc.oneof(
      tricky,
      fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)),
    );
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 24 }), (s) => goQuote(s) === oracle(s)),
      { numRuns: 2000, seed: 1 },
    );
  });

  it("marshals compactly in insertion order and skips undefined members", () => {
    expect(goMarshal({ b: 1, a: [true, null], c: undefined, d: "x" })).toBe('{"b":1,"a":[true,null],"d":"x"}');
  });

  it("indents with two spaces, keeps [] and {}, renders changed_path_manifest compact per line", () => {
    const out = encodeReviewJson({
      a: [],
      b: {},
      nested: {
        changed_path_manifest: [
          { path: "a<b", status: "M" },
          { path: "c", status: "A" },
        ],
        list: [1, 2],
      },
      changed_path_manifest: [],
    }).toString("utf8");
    expect(out).toBe(
      "{\n" +
        '  "a": [],\n' +
        '  "b": {},\n' +
        '  "nested": {\n' +
        '    "changed_path_manifest": [\n' +
        '      {"path":"a\\u003cb","status":"M"},\n' +
        '      {"path":"c","status":"A"}\n' +
        "    ],\n" +
        '    "list": [\n      1,\n      2\n    ]\n' +
        "  },\n" +
        '  "changed_path_manifest": []\n' +
        "}\n",
    );
  });
});

describe("failure envelope", () => {
  it("scrubs the cause in the documented order", () => {
    expect(scrubCause("flag provided but not defined: -x")).toBe("flag provided but not defined: -x");
    expect(scrubCause("contract gentle-ai.review-integration/v2 bad")).toBe("contract gentle-ai.review-integration<redacted> bad");
    expect(scrubCause("  HOME=/x mail a.b@c.io at C:\\tmp\\f\rsecond")).toBe("<redacted> mail <redacted> at <redacted>");
    expect(Array.from(scrubCause("é".repeat(5000))).length).toBe(4000);
  });

  it("orders fields and omits empty optional ones", () => {
    const text = encodeReviewJson(
      failureEnvelope({ version: 2, operation: "review.capture-result", code: "invalid_request", cause: "flag provided but not defined: -x" }),
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
    const v1 = failureEnvelope({ version: 1, operation: "review.status", code: "rdd_disabled", lineageId: "review-ab" }) as Record<string, unknown>;
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
    expect(safeScanLineage(["--order", "+7", "--predecessor=review-x"], [...flags, { name: "predecessor", kind: "string" }], "predecessor")).toBe("review-x");
  });

  it("publishes the negotiation and catch-all classes as the source builds them", () => {
    const unsupported = failureEnvelope({ version: 1, operation: "review.finalize", code: "unsupported_contract", cause: "ignored" });
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
    const failed = failureEnvelope({ version: 2, operation: "review.capabilities", code: "operation_failed", cause: "x" }) as Record<string, unknown>;
    expect([failed["phase"], failed["retry_safe"], failed["next_action"], failed["cause"]]).toEqual(["pre_native", true, "retry", undefined]);
    const unknown = failureEnvelope({ version: 2, operation: "review.finalize", code: "operation_outcome_unknown", cause: "boom" }) as Record<string, unknown>;
    expect([unknown["phase"], unknown["mutation_outcome"], unknown["retry_safe"], unknown["replayability"], unknown["next_action"], unknown["cause"]]).toEqual([
      "native_running",
      "unknown",
      false,
      "status_required",
      "review.status",
      "boom",
    ]);
  });
});
