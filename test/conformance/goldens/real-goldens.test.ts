// Goldens recorded from real gentle-ai builds (source `binary`, with their commit and build): CI has no gentle-ai,
// so it runs each golden's script live on the simulator in the golden's profile and compares the calls with the
// recorded ones by the differential run's rules (docs/differential.md). The simulator proven against real bytes.
import { describe, expect, it } from "vitest";
import { simulatorAgainstGolden } from "../../../conformance/diff/golden-check.ts";
import { divergenceLines } from "../../../conformance/diff/render.ts";
import { readGolden, shippedGoldens } from "../../../conformance/goldens/golden-file.ts";

const real = shippedGoldens()
  .map((path) => ({ path, golden: readGolden(path) }))
  .filter((g) => g.golden.source.kind === "binary");

describe("goldens recorded from real gentle-ai builds", () => {
  it("ship for both releases, each with its provenance", () => {
    expect(new Set(real.map((g) => g.golden.source.version))).toEqual(new Set(["gentle-ai 2.4.0", "gentle-ai 2.5.0"]));
    for (const { golden } of real) {
      expect(golden.source.commit).toBe(
        golden.profile === "2.4.0"
          ? "301fb2ad7f3f3bda71f516d6e2848ef3fa6fe9bb"
          : "fb55ef7b5b3fdb7200b1f5eb560cc5d8a726127f",
      );
      expect(golden.source.build).toMatch(/^CGO_ENABLED=0 go build -trimpath /);
    }
  });

  it.each(real.map((g) => [g.golden.name, g.path] as const))(
    "the live simulator answers %s's script byte for byte",
    { timeout: 240_000 },
    async (_name, path) => {
      const divergences = await simulatorAgainstGolden(path);
      expect(divergences.flatMap(divergenceLines).join("\n")).toBe("");
    },
  );
});
