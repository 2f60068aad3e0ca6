import { describe, expect, it } from "vitest";
import { REVIEW_HOST_RELAY_FAILURE, ReviewHostRelayError } from "../../relay/index.ts";

describe("REVIEW_HOST_RELAY_FAILURE", () => {
  it("has the exact keys, values and order", () => {
    expect(Object.entries(REVIEW_HOST_RELAY_FAILURE)).toEqual([
      ["RELAY_UNAVAILABLE", "relay-unavailable"],
      ["HANDSHAKE_REFUSED", "handshake-refused"],
      ["SUBMISSION_CONTRACT_MISMATCH", "submission-contract-mismatch"],
      ["MATERIALIZE_FAILED", "materialize-failed"],
      ["EMPTY_PROMPT", "empty-prompt"],
      ["PI_LAUNCH_FAILED", "pi-launch-failed"],
      ["PI_FAILED", "pi-failed"],
      ["PI_TIMED_OUT", "pi-timed-out"],
      ["PI_EMPTY_OUTPUT", "pi-empty-output"],
      ["SUBMISSION_REFUSED", "submission-refused"],
    ]);
    expect(Object.isFrozen(REVIEW_HOST_RELAY_FAILURE)).toBe(true);
  });
});

describe("ReviewHostRelayError", () => {
  it("defaults every detail", () => {
    const error = new ReviewHostRelayError("pi-failed", "pi", "pi subprocess failed");
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe("ReviewHostRelayError");
    expect(error.message).toBe("pi subprocess failed");
    expect([
      error.kind,
      error.stage,
      error.exitCode,
      error.stderr,
      error.timedOut,
      error.elapsedMs,
      error.timeoutMs,
      error.mutationOutcome,
    ]).toEqual(["pi-failed", "pi", null, "", false, null, null, "none"]);
  });

  it.each([
    ["binding", "none"],
    ["materialize", "none"],
    ["pi", "none"],
    ["submit", "unknown"],
  ] as const)("stage %s defaults mutationOutcome to %s", (stage, outcome) => {
    expect(new ReviewHostRelayError("submission-refused", stage, "m").mutationOutcome).toBe(outcome);
  });

  it("keeps explicit details, including the submit override to none", () => {
    const error = new ReviewHostRelayError("submission-refused", "submit", "Error: x [invalid_request]", {
      exitCode: 1,
      stderr: "Error: x [invalid_request]\n",
      timedOut: false,
      elapsedMs: 12,
      timeoutMs: 120000,
      mutationOutcome: "none",
    });
    expect([
      error.exitCode,
      error.stderr,
      error.timedOut,
      error.elapsedMs,
      error.timeoutMs,
      error.mutationOutcome,
    ]).toEqual([1, "Error: x [invalid_request]\n", false, 12, 120000, "none"]);
  });
});
