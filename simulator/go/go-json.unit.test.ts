import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { encodeReviewJson, goMarshal, goQuote } from "./go-json.ts";

describe("Go encoding/json", () => {
  it("HTML-escapes and uses Go's short escapes", () => {
    expect(goQuote('<a>&\u2028\u2029\b\f\n\r\t\u0001"\\é')).toBe(
      '"\\u003ca\\u003e\\u0026\\u2028\\u2029\\b\\f\\n\\r\\t\\u0001\\"\\\\é"',
    );
    expect(goQuote("\ud800x")).toBe('"\\ufffdx"');
  });

  it("quotes any string as JSON.stringify does, plus Go's HTML escapes and U+FFFD for a lone surrogate", () => {
    // An oracle that is not our encoder: V8's well-formed JSON.stringify has Go 1.22's short escapes and \u00XX
    // controls; Go also escapes <, >, &, U+2028 and U+2029, and replaces invalid UTF-8 (a lone surrogate) with U+FFFD.
    const oracle = (s: string): string =>
      JSON.stringify(s).replace(
        /\\u(d[89a-f][0-9a-f]{2})|\\.|[<>&\u2028\u2029]/g,
        (m: string, lone: string | undefined) =>
          lone !== undefined
            ? "\\ufffd"
            : m.startsWith("\\")
              ? m
              : "\\u" + m.charCodeAt(0).toString(16).padStart(4, "0"),
      );
    const tricky = fc.constantFrom(
      '"',
      "\\",
      "<",
      ">",
      "&",
      "\u2028",
      "\u2029",
      "\ud800",
      "\udbff",
      "\udc00",
      "\udfff",
      "\ud83d\ude00",
      "\u00e9",
      "\u007f",
    );
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
