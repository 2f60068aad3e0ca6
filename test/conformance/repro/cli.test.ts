import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../../conformance/repro/paths.ts";

// The bundled CLI (dist/relay-conformance.mjs via conformance/bin), spawned as a user would run it.
const BIN = join(REPO_ROOT, "conformance", "bin", "relay-conformance");

function cli(
  args: string[],
  env: Record<string, string> = {},
): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(BIN, args, {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    encoding: "utf8",
    shell: false,
    timeout: 120_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("relay-conformance repro (bundled CLI)", () => {
  it("--list prints id and title of each shipped reproduction", () => {
    const r = cli(["repro", "--list"]);
    expect(r).toEqual({
      status: 0,
      stderr: "",
      stdout: [
        "279          correction FINALIZE cannot bind its provider-owned targeted validation or its captured evidence",
        "367          a reviewer that outlives the relay bound is pi-timed-out with elapsed, limit and prompt-size evidence",
        "522          an [invalid_request] admission refusal is mutationOutcome none; the same slot is offered again",
        "handshake    the handshake missing or wrong gives handshake-refused with the provider text verbatim",
        "old-binary   an old (pre-relay, 2.3.0) gentle-ai binary gives relay-unavailable",
        "",
      ].join("\n"),
    });
  });

  it("exits 0 when the reproduction behaves as documented", { timeout: 60_000 }, () => {
    const r = cli(["repro", "old-binary"]);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(r.stdout.endsWith("\nPASS old-binary: behaves as documented (2 phases, 3 steps, 12 checks)\n")).toBe(true);
  });

  it("exits 1 with the mismatch line when the module under test regressed", { timeout: 60_000 }, () => {
    const r = cli(
      ["repro", "522", "--against", "test/conformance/repro/regressions/relay-regressions.ts", "--phase", "1"],
      { REPRO_RELAY_REGRESSION: "untyped-admission" },
    );
    expect(r.status).toBe(1);
    expect(r.stdout).toContain(
      "\n   MISMATCH  522.txtar:21: expect kind=submission-refused stage=submit mutationOutcome=none exitCode=1 timedOut=false\n",
    );
    expect(r.stdout).toMatch(/\nFAIL 522: \d+ mismatch(es)? \(1 phases, 2 steps, \d+ checks\)\n$/);
  });

  it("exits 2 on bad input: unknown reproduction, parse error with file:line: reason", () => {
    expect(cli(["repro", "no-such"])).toEqual({
      status: 2,
      stdout: "",
      stderr: 'relay-conformance repro: no reproduction "no-such" (see relay-conformance repro --list)\n',
    });
    const dir = mkdtempSync(join(tmpdir(), "repro-cli-"));
    try {
      const file = join(dir, "broken.txtar");
      writeFileSync(file, "title broken\nscenario s.json\nrelay slot=one\n-- s.json --\n{}\n");
      expect(cli(["repro", file])).toEqual({
        status: 2,
        stdout: "",
        stderr: `${file}:3: relay: slot: must be a non-negative integer\n`,
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
