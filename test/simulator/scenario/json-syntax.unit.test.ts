import { describe, expect, it } from "vitest";
import { findJsonSyntaxError } from "../../../simulator/scenario/json-syntax.ts";

describe("findJsonSyntaxError", () => {
  it.each([
    ['{"a": 1}', null],
    ['  [1, 2.5e-3, true, null, "\\u00e9"]\n', null],
    ["", { line: 1, column: 1, reason: "unexpected end of input" }],
    ["{\n  'a': 1}", { line: 2, column: 3, reason: "expected a property name" }],
    ['{"a" 1}', { line: 1, column: 6, reason: "expected ':' after property name" }],
    ["[1 2]", { line: 1, column: 4, reason: "expected ',' or ']' after array element" }],
    ['{"a": 01}', { line: 1, column: 8, reason: "expected ',' or '}' after property value" }],
    ['"ab\tc"', { line: 1, column: 4, reason: "control character in string" }],
    ['"\\x"', { line: 1, column: 3, reason: "invalid escape" }],
    ['{"a": tru}', { line: 1, column: 10, reason: 'unexpected character "}"' }],
    ["{} {}", { line: 1, column: 4, reason: 'unexpected "{" after the JSON value' }],
    ["\ufeff{}", { line: 1, column: 1, reason: "byte order mark is not allowed" }],
    ['{"a":\r\n\r\n -}', { line: 3, column: 2, reason: 'unexpected character "-"' }],
  ])("%j", (text, expected) => {
    expect(findJsonSyntaxError(text)).toEqual(expected);
    // It agrees with JSON.parse on validity.
    let valid = true;
    try {
      JSON.parse(text);
    } catch {
      valid = false;
    }
    expect(expected === null).toBe(valid);
  });
});
