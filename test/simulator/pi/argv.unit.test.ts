// The fake pi's argv handling against the real pi's bytes (test/support/pi-argv-table.ts: npm
// @earendil-works/pi-coding-agent 1.6.0), in process.
import { describe, expect, it } from "vitest";
import { PI_VERSION, piArgvOutcome } from "../../../simulator/pi/argv.ts";
import { PI_ARGV_TABLE, REAL_PI_VERSION } from "../../support/pi-argv-table.ts";
import { LOCKED_DOWN_PI_ARGV } from "../../support/contract.ts";

function answer(argv: readonly string[]): { exit: number | null; stdout: string; stderr: string } {
  const o = piArgvOutcome(argv);
  if (o.kind === "run") return { exit: null, stdout: "", stderr: o.stderr.toString("utf8") };
  return {
    exit: o.exitCode,
    stdout: o.kind === "version" ? o.stdout.toString("utf8") : "",
    stderr: o.stderr.toString("utf8"),
  };
}

describe("fake pi argv", () => {
  it("reproduces the pi version the table was recorded from", () => {
    expect(PI_VERSION).toBe(REAL_PI_VERSION);
  });

  it.each(PI_ARGV_TABLE.map((row) => [row.name, row] as const))("%s", (_name, row) => {
    expect(answer(row.argv)).toEqual({ exit: row.exit, stdout: row.stdout, stderr: row.stderr });
  });

  it("runs the relay's locked argv, and a bad --thinking level only warns", () => {
    expect(answer(LOCKED_DOWN_PI_ARGV)).toEqual({ exit: null, stdout: "", stderr: "" });
    expect(answer([...LOCKED_DOWN_PI_ARGV, "--thinking", "huge"]).stderr).toBe(
      'Warning: Invalid thinking level "huge". Valid values: off, minimal, low, medium, high, xhigh, max\n',
    );
  });
});
