import { describe, expect, it } from "vitest";
import { callKey, classifyCall } from "../../../simulator/runtime/classify-call.ts";

describe("classifyCall", () => {
  it.each([
    [["version"], { verb: "version" }],
    [["-v"], { verb: "version" }],
    [["--version"], { verb: "version" }],
    [["review"], { verb: "review" }],
    [["review", "--help"], { verb: "review" }],
    [["review", "status", "--agent", "pi"], { verb: "status" }],
    [["review", "capture-result", "--agent=pi", "--materialize=true"], { verb: "capture-result", leg: "materialize" }],
    [["review", "capture-result", "-materialize"], { verb: "capture-result", leg: "materialize" }],
    [["review", "capture-result", "--input=/tmp/x/result.raw"], { verb: "capture-result", leg: "submit" }],
    [["review", "capture-result", "--input", "-"], { verb: "capture-result", leg: "submit" }],
    [["review", "capture-result", "--materialize", "--input=x"], { verb: "capture-result", leg: "materialize" }],
    [["review", "capture-result", "--inputs=x", "--materialized"], { verb: "capture-result" }],
    [[], {}],
  ] as const)("%j", (argv, expected) => {
    expect(classifyCall("gentle-ai", argv)).toEqual(expected);
  });

  it("pi calls have neither verb nor leg", () => {
    expect(classifyCall("pi", ["--print", "--input=x"])).toEqual({});
    expect(callKey("pi", {})).toBe("pi - -");
    expect(callKey("gentle-ai", { verb: "capture-result", leg: "submit" })).toBe("gentle-ai capture-result submit");
  });
});
