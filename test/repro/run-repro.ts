// Test helper: runs `relay-conformance repro …` in-process and returns the exit code and both streams.
import { reproCommand } from "../../conformance/repro/command.ts";

/** Exit code plus stdout and stderr text of one repro command. */
export async function runRepro(argv: readonly string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await reproCommand(argv, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out: out.join("\n"), err: err.join("\n") };
}
