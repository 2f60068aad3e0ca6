import { describe, expect, it } from "vitest";
import {
  classifyReviewHostRelayRefusal,
  isReviewHostRelayAdmissionRefusal,
  REVIEW_HOST_RELAY_UNAVAILABLE_MESSAGE,
} from "../../relay/index.ts";

const V240_HANDSHAKE =
  "Error: the active runtime is not eligible for immutable receipt review; exit receipt-driven review with `gentle-ai review mode disable --scope clone --cwd <repo>`; supported immutable review runtimes: claude-code, opencode, codex [invalid_request]\n";

describe("classifyReviewHostRelayRefusal (reference §8)", () => {
  it.each([
    ["Error: flag provided but not defined: -agent\n", "unknown-flag"],
    ["flag provided but not defined: --materialize", "unknown-flag"],
    ["Error: flag provided but not defined: -agent [invalid_request]\n", "unknown-flag"],
    // \b needs a word boundary: -agentx is another flag.
    ["flag provided but not defined: -agentx", "other"],
    ["flag provided but not defined: ---agent", "other"],
    ["flag provided but not defined: -input", "other"],
    [V240_HANDSHAKE, "handshake"],
    ["pi is eligible only while GENTLE_PI_REVIEW_RELAY_CONTRACT declares", "handshake"],
    ["wants gentle-pi.review-relay/v1", "handshake"],
    // The dot is escaped: any other character in its place does not match.
    ["wants gentle-piXreview-relay/v1", "other"],
    ["NOT ELIGIBLE FOR IMMUTABLE RECEIPT REVIEW", "other"],
    ["Error: the active runtime lacks immutable receipt-review transport [invalid_request]", "other"],
    ["", "other"],
  ] as const)("%j -> %s", (stderr, kind) => {
    expect(classifyReviewHostRelayRefusal(stderr)).toBe(kind);
  });

  it("tests unknown-flag before handshake", () => {
    expect(classifyReviewHostRelayRefusal(`flag provided but not defined: -agent\n${V240_HANDSHAKE}`)).toBe(
      "unknown-flag",
    );
  });

  it("exports the unavailable message", () => {
    expect(REVIEW_HOST_RELAY_UNAVAILABLE_MESSAGE).toBe(
      "provider relay requires a gentle-ai build with the pi host relay surface",
    );
  });
});

describe("isReviewHostRelayAdmissionRefusal (reference §10.4)", () => {
  it.each([
    [1, false, "Error: reviewer result payload is empty [invalid_request]\n", true],
    [1, false, "x\n[invalid_request] anywhere", true],
    [1, true, "Error: x [invalid_request]", false],
    [2, false, "Error: x [invalid_request]", false],
    [null, false, "Error: x [invalid_request]", false],
    [0, false, "Error: x [invalid_request]", false],
    [1, false, "Error: x [capture_binding_mismatch]", false],
    [1, false, "Error: x [INVALID_REQUEST]", false],
  ] as const)("exit %s timedOut %s %j -> %s", (exitCode, timedOut, stderr, expected) => {
    expect(isReviewHostRelayAdmissionRefusal({ exitCode, timedOut }, stderr)).toBe(expected);
  });
});
