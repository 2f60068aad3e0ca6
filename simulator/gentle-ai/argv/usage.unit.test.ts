import { describe, expect, it } from "vitest";
import type { FlagSetSpec } from "../../go/flag-spec.ts";
import { usageText } from "./usage.ts";

const SPEC: FlagSetSpec = {
  name: "review demo",
  details: "Demo details.",
  flags: [
    { name: "lens", kind: "string", usage: "exact selected lens" },
    { name: "cwd", kind: "string", default: ".", usage: "repository path" },
    { name: "order", kind: "int", default: -1, usage: "zero-based selected lens order" },
    { name: "lines", kind: "int", usage: "positive predicted correction changed lines" },
    { name: "materialize", kind: "bool", usage: "print the task" },
    { name: "file", kind: "string", usage: "repeatable file" },
  ],
};

const USAGE =
  "Usage: gentle-ai review demo [flags]\n\nDemo details.\n\nFlags:\n" +
  '  --cwd <value>\n      repository path (default ".")\n' +
  "  --file <value>\n      repeatable file\n" +
  "  --lens <value>\n      exact selected lens\n" +
  // review.go:64 prints every non-empty DefValue: an int flag's zero default is "0", not empty.
  '  --lines <value>\n      positive predicted correction changed lines (default "0")\n' +
  '  --materialize\n      print the task (default "false")\n' +
  '  --order <value>\n      zero-based selected lens order (default "-1")\n' +
  "  -h, --help\n      show this help\n";

describe("gentle-ai's flag set usage block", () => {
  it("renders the usage block in lexical order with defaults", () => {
    expect(usageText(SPEC)).toBe(USAGE);
  });
});
