// Properties of the pure relay pieces (fast-check).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  resolveReviewHostRelayPiTimeoutMs,
  resolveReviewHostRelaySubmission,
  REVIEW_HOST_RELAY_PI_TIMEOUT_ENV,
} from "../../relay/index.ts";
import { reviewHostRelaySubmitArgv } from "../../relay/submission.ts";

describe("pi bound properties", () => {
  it("is non-decreasing in the prompt size and stays within [floor, ceiling]", () => {
    fc.assert(
      fc.property(fc.nat({ max: 20_000_000 }), fc.nat({ max: 1_000_000 }), (a, d) => {
        const lo = resolveReviewHostRelayPiTimeoutMs(a, {});
        const hi = resolveReviewHostRelayPiTimeoutMs(a + d, {});
        return lo <= hi && lo >= 900_000 && hi <= 7_200_000;
      }),
    );
  });

  it("a canonical positive integer override replaces the bound, clamped to the ceiling", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }), fc.nat(), (value, bytes) => {
        expect(resolveReviewHostRelayPiTimeoutMs(bytes, { [REVIEW_HOST_RELAY_PI_TIMEOUT_ENV]: String(value) })).toBe(
          Math.min(value, 7_200_000),
        );
      }),
    );
  });
});

describe("submission substitution properties", () => {
  // No braces in generated text, so the only {{value}} occurrences are the ones placed on purpose.
  const braceless = (min: number) => fc.string({ minLength: min }).filter((t) => !/[{}]/.test(t));
  const token = braceless(1);
  it("changes only the token at the location, replacing every {{value}} in it", () => {
    fc.assert(
      fc.property(
        fc.array(token, { minLength: 1, maxLength: 8 }),
        fc.array(braceless(0), { minLength: 1, maxLength: 3 }),
        fc.nat(),
        fc.string({ minLength: 1 }),
        (tokens, pieces, seed, path) => {
          const location = seed % tokens.length;
          const slotted = pieces.join("{{value}}");
          const withSlot = tokens.map((t, i) => (i === location ? `${t}${slotted}{{value}}` : t));
          const binding = resolveReviewHostRelaySubmission({
            operationToken: "capture-result",
            argumentTokens: withSlot,
            values: [{ slot: "s", domain: "d", substitutionLocation: location }],
          });
          const argv = reviewHostRelaySubmitArgv(binding, path);
          expect(argv.length).toBe(withSlot.length + 2);
          withSlot.forEach((t, i) => {
            expect(argv[i + 2]).toBe(i === location ? `${tokens[i]}${pieces.join(path)}${path}` : t);
          });
        },
      ),
    );
  });
});
