import { describe, expect, it } from "vitest";
import { jsonPath } from "../../../simulator/scenario/format-issues.ts";

describe("jsonPath", () => {
  it("renders identifiers, indexes and odd keys", () => {
    expect(jsonPath([])).toBe("$");
    expect(jsonPath(["lineage", "lenses", 0])).toBe("$.lineage.lenses[0]");
    expect(jsonPath(["$schema", "a b", "x.y"])).toBe('$.$schema["a b"]["x.y"]');
  });
});
