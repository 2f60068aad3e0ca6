import { describe, expect, it } from "vitest";
import { escapeBytes, firstDivergence, renderDivergence } from "../../../conformance/goldens/diff.ts";
import type { GoldenCall } from "../../../conformance/goldens/golden-schema.ts";
import { blobOf } from "../../../conformance/goldens/normalise.ts";

function call(stdout: Buffer, argv = ["review", "capture-result", "--lens=review-risk"]): GoldenCall {
  const empty = blobOf(Buffer.alloc(0));
  return {
    program: "gentle-ai",
    argv,
    cwd: "<CWD>",
    handshake: null,
    stdin: empty,
    files: [],
    stdout: blobOf(stdout),
    stderr: empty,
    exit: { code: 0, signal: null, completed: true },
  };
}

describe("golden diff", () => {
  it("escapes every non-printable byte", () => {
    expect(escapeBytes(Buffer.from([0x61, 0x00, 0x0a, 0x0d, 0x09, 0x22, 0x5c, 0xff, 0x7f]))).toBe(
      'a\\x00\\n\\r\\t\\"\\\\\\xff\\x7f',
    );
  });

  it("points at the call, field and first differing byte", () => {
    const want = Buffer.from('GENTLE_AI_REVIEW_BINDING {"a":1}\n\x00tail');
    const got = Buffer.from(want);
    got[33] = 0x01;
    const d = firstDivergence(
      { calls: [call(Buffer.from("x")), call(want)], outcomes: [] },
      { calls: [call(Buffer.from("x")), call(got)], outcomes: [] },
    );
    expect(d?.where).toBe("call 1 (gentle-ai review capture-result)");
    expect(d?.field).toBe("stdout");
    expect(renderDivergence("g", d!)).toBe(
      [
        "golden g: divergence at call 1 (gentle-ai review capture-result), field stdout",
        "  first differing byte at offset 33 (expected 38 bytes, actual 38 bytes)",
        '  expected: …"_REVIEW_BINDING {\\"a\\":1}\\n\\x00tail"',
        '  actual:   …"_REVIEW_BINDING {\\"a\\":1}\\n\\x01tail"',
        "  expected hex @9: 5f 52 45 56 49 45 57 5f 42 49 4e 44 49 4e 47 20 7b 22 61 22 3a 31 7d 0a 00 74 61 69 6c",
        "  actual hex   @9: 5f 52 45 56 49 45 57 5f 42 49 4e 44 49 4e 47 20 7b 22 61 22 3a 31 7d 0a 01 74 61 69 6c",
        '  expected value: "GENTLE_AI_REVIEW_BINDING {\\"a\\":1}\\n\\x00tail"',
      ].join("\n"),
    );
  });

  it("reports argv per token, missing calls and outcome differences", () => {
    const a = call(Buffer.alloc(0), ["review", "capture-result", "--order=0"]);
    const b = call(Buffer.alloc(0), ["review", "capture-result", "--order=1"]);
    expect(firstDivergence({ calls: [a], outcomes: [] }, { calls: [b], outcomes: [] })?.field).toBe("argv[2]");
    const missing = firstDivergence({ calls: [a, a], outcomes: [] }, { calls: [a], outcomes: [] });
    expect([missing?.where, missing?.actual]).toEqual(["call 1 (gentle-ai review capture-result)", undefined]);
    expect(renderDivergence("g", missing!)).toContain("actual:   (nothing: the relay never made this call)");
    const outcome = firstDivergence(
      { calls: [], outcomes: [{ kind: "process", exitCode: 0, signal: null }] },
      { calls: [], outcomes: [{ kind: "process", exitCode: 1, signal: null }] },
    );
    expect([outcome?.where, outcome?.field, outcome?.expected?.toString(), outcome?.actual?.toString()]).toEqual([
      "outcome of step 0",
      "exitCode",
      "0",
      "1",
    ]);
    expect(firstDivergence({ calls: [a], outcomes: [] }, { calls: [a], outcomes: [] })).toBeUndefined();
  });
});
