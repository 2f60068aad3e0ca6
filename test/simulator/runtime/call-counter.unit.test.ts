// The call counter names one file per call key: a key longer than a file name allows (a generated operation token
// is a verb) must still count, and two such keys must count apart.
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { fileNameOf, nextCallIndex } from "../../../simulator/runtime/call-counter.ts";

const state = mkdtempSync(join(tmpdir(), "rc-call-counter-"));
afterAll(() => rmSync(state, { recursive: true, force: true }));

describe("nextCallIndex", () => {
  it("counts keys whose encoding exceeds NAME_MAX (was ENAMETOOLONG), each apart", () => {
    const long = (tail: string): string => `gentle-ai ${"日本🙂".repeat(40)}${tail} -`;
    expect(Buffer.byteLength(long("a"), "utf8") * 3).toBeGreaterThan(255);
    expect([nextCallIndex(state, long("a")), nextCallIndex(state, long("a")), nextCallIndex(state, long("b"))]).toEqual(
      [1, 2, 1],
    );
    for (const name of readdirSync(join(state, "calls"))) expect(Buffer.byteLength(name)).toBeLessThanOrEqual(255);
  });

  it("keeps short keys' file names as before", () => {
    expect(fileNameOf("gentle-ai capture-result materialize")).toBe("gentle-ai%20capture-result%20materialize");
  });
});
