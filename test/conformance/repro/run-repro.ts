// Test helper: runs `relay-conformance repro …` in-process and returns the exit code and both streams.
import { main } from "../../../conformance/cli/main.ts";

/** Exit code plus stdout and stderr text of one repro command (each without its final newline). */
export async function runRepro(argv: readonly string[]): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const code = await main(["repro", ...argv], { stdout: (t) => (out += t), stderr: (t) => (err += t), cwd: process.cwd() });
  return { code, out: out.replace(/\n$/, ""), err: err.replace(/\n$/, "") };
}
