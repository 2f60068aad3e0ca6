import { describe, expect, it } from "vitest";
import { parseTap } from "./tap.ts";

// The shape Node 20's tap reporter prints (indented subtests, YAML diagnostics, `...` terminators).
const TAP = `TAP version 13
# Subtest: combined relay
    # Subtest: inner step
    ok 1 - inner step
      ---
      duration_ms: 1.5
      ...
    1..1
ok 1 - combined relay
  ---
  duration_ms: 228.66783
  ...
# Subtest: status derives from the repository
not ok 2 - status derives from the repository
  ---
  duration_ms: 12.2
  failureType: 'testCodeFailure'
  error: |-
    Command failed: gentle-ai review mode status --json
    Error: gentle-ai-sim: review mode is not simulated

  code: 'ERR_TEST_FAILURE'
  ...
ok 3 - windows only # SKIP not on this platform
  ---
  duration_ms: 0.1
  ...
not ok 4 - an assertion
  ---
  duration_ms: 7.06
  error: 'Expected values to be strictly equal'
  ...
1..4
# tests 4
`;

describe("parseTap", () => {
  it("returns each top-level test with its status, duration and the first lines of its error", () => {
    expect(parseTap(TAP)).toEqual([
      { name: "combined relay", status: "pass", durationMs: 229, detail: "" },
      {
        name: "status derives from the repository",
        status: "fail",
        durationMs: 12,
        detail:
          "Command failed: gentle-ai review mode status --json Error: gentle-ai-sim: review mode is not simulated",
      },
      { name: "windows only", status: "skip", durationMs: 0, detail: "" },
      { name: "an assertion", status: "fail", durationMs: 7, detail: "Expected values to be strictly equal" },
    ]);
  });

  it("finds nothing in output that is not TAP", () => {
    expect(parseTap("Error: Cannot find module 'x'\n")).toEqual([]);
  });
});
