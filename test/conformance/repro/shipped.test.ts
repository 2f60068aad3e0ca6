import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COMPILE_CACHE_NAMES } from "../../support/compile-cache.ts";
import { runRepro } from "../../support/run-repro.ts";

const SHIPPED = ["279", "367", "522", "handshake", "old-binary"];

/** The shipped reproductions whose expectations bound wall-clock time (367: the pi timeout's elapsedMs). */
const TIMED = new Set(["367"]);

/**
 * Runs every shipped reproduction whole in one private TMPDIR (every sandbox, staging and scratch dir of a run lands
 * there, so "nothing left behind" is exact even while other test files run in parallel): the untimed ones at once
 * (they wait on child processes), then each timed one alone, so their bounds see no load of this file's own.
 */
async function runShipped(dir: string): Promise<Map<string, { code: number; out: string; err: string }>> {
  const saved = process.env["TMPDIR"];
  process.env["TMPDIR"] = dir;
  try {
    const untimed = SHIPPED.filter((id) => !TIMED.has(id));
    const results = new Map(await Promise.all(untimed.map(async (id) => [id, await runRepro([id])] as const)));
    for (const id of TIMED) results.set(id, await runRepro([id]));
    return results;
  } finally {
    if (saved === undefined) delete process.env["TMPDIR"];
    else process.env["TMPDIR"] = saved;
  }
}

describe("shipped reproductions", () => {
  it("--list names every shipped reproduction with its title", async () => {
    const { code, out, err } = await runRepro(["--list"]);
    expect(err).toBe("");
    expect(code).toBe(0);
    const ids = out.split("\n").map((l) => l.split(/\s+/)[0]);
    expect(ids).toEqual(SHIPPED);
    expect(out).toContain(
      "279          correction FINALIZE cannot bind its provider-owned targeted validation or its captured evidence",
    );
  });

  describe("each shipped reproduction, run whole", () => {
    let dir: string;
    let results: Map<string, { code: number; out: string; err: string }>;
    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), "repro-shipped-"));
      results = await runShipped(dir);
    }, 480_000);
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    for (const id of SHIPPED) {
      it(`${id} behaves as documented (exit 0, no mismatch, no temp dir left)`, () => {
        const { code, out, err } = results.get(id)!;
        expect(err).toBe("");
        expect(out).not.toContain("MISMATCH");
        expect(out.split("\n").at(-1)).toMatch(
          new RegExp(`^PASS ${id}: behaves as documented \\(\\d+ phases, \\d+ steps, \\d+ checks\\)$`),
        );
        expect(code).toBe(0);
        // jiti and tsx keep their compile caches in TMPDIR on purpose; everything else must be gone (read once
        // every run that shared the folder has ended).
        expect(readdirSync(dir).filter((n) => !COMPILE_CACHE_NAMES.includes(n))).toEqual([]);
      });
    }
  });

  it("279 prints the argv, the provider answer and expected vs actual of each step", { timeout: 60_000 }, async () => {
    const { code, out } = await runRepro(["279", "--phase", "1,2"]);
    expect(code).toBe(0);
    expect(out).toContain(
      "-- 279.txtar:34: finalize client=gentle-pi-2.1.2 defects=D1,D2,D3 validation=validation.json",
    );
    expect(out).toContain(
      '   => error name=CandidateViewError code=correction-evidence-binding-drift\n      message: "captured correction evidence does not match the requested lineage, target, and outcome"',
    );
    expect(out).toContain("   ok        calls finalize=0");
    expect(out).toMatch(
      /\$ gentle-ai review finalize --contract gentle-ai\.review-integration\/v2 --cwd \$WORK --lineage review-[0-9a-f]{16} --validation \$TMPDIR\/gentle-ai-finalize-\w+\/validation\.json --evidence \$TMPDIR\/gentle-ai-finalize-\w+\/evidence\.txt\n {5}-> exit 1\n {8}stderr: "Error: The negotiated review request is invalid\. \[invalid_request\]\\n"/,
    );
    expect(out).toContain('cause="compact correction acceptance requires captured repository verification evidence"');
  });

  it("bad input exits 2: unknown id, unknown flag, bad --defects, missing module", async () => {
    expect(await runRepro(["no-such-issue"])).toEqual({
      code: 2,
      out: "",
      err: 'relay-conformance repro: no reproduction "no-such-issue" (see relay-conformance repro --list)',
    });
    expect((await runRepro(["279", "--frobnicate"])).code).toBe(2);
    expect(await runRepro(["279", "--defects", "D4"])).toMatchObject({
      code: 2,
      err: 'relay-conformance repro: --defects: unknown defect "D4" (known: D1, D2, D3, or none)',
    });
    expect(await runRepro(["279", "--against", "./nope.ts"])).toMatchObject({
      code: 2,
      err: "--against ./nope.ts: no such module",
    });
    expect(await runRepro(["279", "--phase", "0"])).toMatchObject({ code: 2 });
    expect(await runRepro([])).toMatchObject({ code: 2 });
  });

  it("a module lacking the export a step needs is bad input (exit 2)", { timeout: 60_000 }, async () => {
    const r = await runRepro(["367", "--against", "conformance/repro/clients/gentle-pi-2.1.2.ts", "--phase", "1"]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/gentle-pi-2\.1\.2\.ts exports no runReviewHostRelaySlot\(\)$/);
    expect(existsSync("nope.ts")).toBe(false);
  });
});
