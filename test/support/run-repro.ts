// Test helper: runs `relay-conformance repro …` in-process and returns the exit code and both streams.
import { cli } from "./cli.ts";

/** Exit code plus stdout and stderr text of one repro command (each without its final newline). */
export async function runRepro(argv: readonly string[]): Promise<{ code: number; out: string; err: string }> {
  const r = await cli(["repro", ...argv], { cwd: process.cwd() });
  return { code: r.code, out: r.stdout.replace(/\n$/, ""), err: r.stderr.replace(/\n$/, "") };
}
