// Go's JSON scanner reads bytes, so a non-ASCII character it refuses is named by its first UTF-8 byte as a rune.
// Expected texts: gentle-ai 2.4.0 (301fb2ad) and 2.5.0 (fb55ef7b), `review finalize --result-artifact=<value>`,
// whose stderr is "Error: decode reviewer artifact 1: " followed by exactly these.
import { describe, expect, it } from "vitest";
import { decodeStrict } from "./go-decode.ts";

const STRING = { kind: "string" } as const;

describe("decodeStrict's invalid-character texts", () => {
  it.each([
    ["ünï", "invalid character 'Ã' looking for beginning of value"],
    ["€", "invalid character 'â' looking for beginning of value"],
    ["😀", "invalid character 'ð' looking for beginning of value"],
    ["\u0085", "invalid character 'Â' looking for beginning of value"],
    ["[1,ü]", "invalid character 'Ã' looking for beginning of value"],
    ["x", "invalid character 'x' looking for beginning of value"],
  ])("%j", (text, error) => {
    expect(decodeStrict(text, STRING, { pkg: "cli" })).toEqual({ ok: false, error });
  });
});
