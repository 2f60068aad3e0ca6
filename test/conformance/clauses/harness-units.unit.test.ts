import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  derivedPiTimeoutMs,
  expectedSubmitArgv,
  PI_BOUND_TABLE,
  piTimeoutOverride,
  stagedPathIn,
} from "../../../conformance/clauses/common.ts";
import { plantUnremovableChain, removeUnremovableChain } from "../../../conformance/clauses/sabotage.ts";
import { runPool } from "../../../conformance/runner/pool.ts";

describe("the harness's own model of the contract", () => {
  it.each(PI_BOUND_TABLE)("derived pi bound for %d bytes is %d ms (relay reference §5.2 table)", (bytes, bound) => {
    expect(derivedPiTimeoutMs(bytes)).toBe(bound);
  });

  it("override rule: /^[1-9]\\d*$/ safe integers, clamped; anything else ignored", () => {
    expect(["1000", "9999999", "600000"].map(piTimeoutOverride)).toEqual([1000, 7200000, 600000]);
    expect(
      ["", "0", "-1", "12.5", "abc", " 600000", "600000 ", "1e6", "007", "99999999999999999999", undefined].map(
        piTimeoutOverride,
      ),
    ).toEqual(Array(11).fill(null));
  });

  it("expected submit argv substitutes every {{value}} of the location token only", () => {
    const form = {
      operationToken: "capture-result",
      argumentTokens: ["--a={{value}}", "--input={{value}}:{{value}}", "{{value}}"],
      values: [{ substitutionLocation: 1 }],
    };
    expect(expectedSubmitArgv(form, "/t/p")).toEqual([
      "review",
      "capture-result",
      "--a={{value}}",
      "--input=/t/p:/t/p",
      "{{value}}",
    ]);
  });

  it("finds the staged path under TMPDIR only", () => {
    expect(stagedPathIn("--input=/tmp/x.y/gentle-pi-host-relay-result-Ab12Cd/result.raw", "/tmp/x.y")).toBe(
      "/tmp/x.y/gentle-pi-host-relay-result-Ab12Cd/result.raw",
    );
    expect(stagedPathIn("--input=/tmp/xAy/gentle-pi-host-relay-result-Ab12Cd/result.raw", "/tmp/x.y")).toBeUndefined();
  });
});

describe("sabotage: a chain deeper than PATH_MAX defeats rm -r --force", () => {
  it("makes fs.rm fail with ENAMETOOLONG, and the harness can still remove it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "rc-sabotage-test-"));
    try {
      plantUnremovableChain(dir);
      await expect(rm(dir, { recursive: true, force: true })).rejects.toMatchObject({ code: "ENAMETOOLONG" });
      removeUnremovableChain(dir);
      expect(existsSync(dir)).toBe(false);
    } finally {
      if (existsSync(dir)) rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("runPool", () => {
  it("keeps order, never exceeds the lane count, and gives each task a lane id", async () => {
    let inFlight = 0;
    let peak = 0;
    const lanes = new Set<number>();
    const results = await runPool(
      Array.from({ length: 7 }, (_, i) => async (lane: number) => {
        lanes.add(lane);
        inFlight += 1;
        peak = Math.max(peak, inFlight);
        await new Promise((r) => setImmediate(r));
        inFlight -= 1;
        return i * 10;
      }),
      2,
    );
    expect(results).toEqual([0, 10, 20, 30, 40, 50, 60]);
    expect(peak).toBe(2);
    expect([...lanes].sort()).toEqual([0, 1]);
  });
});
