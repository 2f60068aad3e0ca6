import { describe, expect, it } from "vitest";
import { PI_BOUND_TABLE } from "../../conformance/clauses/common.ts";
import {
  REVIEW_HOST_RELAY_PI_TIMEOUT_ENV,
  REVIEW_HOST_RELAY_PI_TIMEOUT_FLOOR_MS,
  REVIEW_HOST_RELAY_PI_TIMEOUT_MAX_MS,
  REVIEW_HOST_RELAY_PI_TIMEOUT_PER_MEBIBYTE_MS,
  resolveReviewHostRelayPiTimeoutMs,
  reviewHostRelayPiTimeoutMessage,
} from "../../relay/index.ts";

describe("pi timeout derivation (reference §5.2)", () => {
  it("exports the constants", () => {
    expect(REVIEW_HOST_RELAY_PI_TIMEOUT_ENV).toBe("GENTLE_PI_REVIEW_RELAY_PI_TIMEOUT_MS");
    expect(REVIEW_HOST_RELAY_PI_TIMEOUT_FLOOR_MS).toBe(900_000);
    expect(REVIEW_HOST_RELAY_PI_TIMEOUT_PER_MEBIBYTE_MS).toBe(900_000);
    expect(REVIEW_HOST_RELAY_PI_TIMEOUT_MAX_MS).toBe(7_200_000);
  });

  it.each(PI_BOUND_TABLE)("%s bytes -> %s ms", (bytes, bound) => {
    expect(resolveReviewHostRelayPiTimeoutMs(bytes, {})).toBe(bound);
  });

  it.each([
    ["1000", 1000],
    ["1", 1],
    ["600000", 600000],
    ["7200000", 7200000],
    ["9999999", 7200000],
  ])("env override %j replaces the derived bound -> %s", (value, bound) => {
    expect(resolveReviewHostRelayPiTimeoutMs(4194304, { [REVIEW_HOST_RELAY_PI_TIMEOUT_ENV]: value })).toBe(bound);
  });

  it.each(["", "0", "-1", "12.5", "abc", " 600000", "600000 ", "1e6", "007", "99999999999999999999", "+5", "0x10"])(
    "ignores malformed override %j",
    (value) => {
      expect(resolveReviewHostRelayPiTimeoutMs(1000, { [REVIEW_HOST_RELAY_PI_TIMEOUT_ENV]: value })).toBe(900859);
    },
  );

  it("reads process.env by default", () => {
    const saved = process.env[REVIEW_HOST_RELAY_PI_TIMEOUT_ENV];
    process.env[REVIEW_HOST_RELAY_PI_TIMEOUT_ENV] = "4321";
    try {
      expect(resolveReviewHostRelayPiTimeoutMs(1)).toBe(4321);
    } finally {
      if (saved === undefined) delete process.env[REVIEW_HOST_RELAY_PI_TIMEOUT_ENV];
      else process.env[REVIEW_HOST_RELAY_PI_TIMEOUT_ENV] = saved;
    }
  });

  it("formats the timeout message exactly", () => {
    expect(reviewHostRelayPiTimeoutMessage(1234, 1000, 42)).toBe(
      "pi reviewer subprocess exceeded the relay bound: killed after 1234ms against a 1000ms limit for a 42-byte materialized prompt. Relaunching the same slot unchanged reaches the same wall. Raise GENTLE_PI_REVIEW_RELAY_PI_TIMEOUT_MS above the reviewer's real wall time (ceiling 7200000ms) or reduce the candidate scope so the materialized prompt is smaller.",
    );
  });
});
