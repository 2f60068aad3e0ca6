import { describe, expect, it } from "vitest";
import { shellWord } from "./status-context.ts";

describe("transition commands", () => {
  it("shell words follow pathquote.ShellWord (internal/pathquote/pathquote_test.go)", () => {
    expect(shellWord("sha256:abc-123")).toBe("sha256:abc-123");
    expect(shellWord("two words")).toBe("'two words'");
    expect(shellWord("o'brien")).toBe("'o'\\''brien'");
    expect(shellWord("$(touch marker)")).toBe("'$(touch marker)'");
    expect(shellWord("")).toBe("''");
  });
});
