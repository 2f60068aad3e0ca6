import { describe, expect, it } from "vitest";
import { createHash } from "node:crypto";
import { readSimConfig, tmpDirOf } from "../../../simulator/runtime/env-config.ts";

describe("readSimConfig", () => {
  it("resolves relative paths against cwd; empty values are unset; the default state dir follows TMPDIR", () => {
    const c = readSimConfig(
      {
        GENTLE_AI_SIM_SCENARIO: "s.json",
        GENTLE_AI_SIM_STATE: "",
        GENTLE_AI_SIM_TRANSCRIPT: "t/x.jsonl",
        TMPDIR: "/tmpx/",
      },
      "/w",
    );
    expect(c).toEqual({
      scenarioPath: "/w/s.json",
      stateDir: `/tmpx/gentle-ai-sim-state/${createHash("sha256").update("/w/s.json").digest("hex").slice(0, 16)}`,
      transcriptPath: "/w/t/x.jsonl",
      inlineMax: Number.POSITIVE_INFINITY,
    });
    expect(tmpDirOf({})).toBe("/tmp");
    expect(tmpDirOf({ TMP: "/a/" })).toBe("/a");
    expect(tmpDirOf({ TMPDIR: "/" })).toBe("/");
    expect(readSimConfig({ GENTLE_AI_SIM_TRANSCRIPT_INLINE_MAX: "0" }, "/").inlineMax).toBe(0);
  });
});
