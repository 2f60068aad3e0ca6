// Fake `gentle-ai` entry: the shared process runtime around dispatch.
// TEMPORARY until sim-core's dispatch.ts lands: a version-only stand-in so the runtime can be exercised.
import { runProcess } from "../runtime/run-process.ts";
import { gentleAiProgram } from "./program.ts";
import type { Invocation, Outcome } from "./invocation.ts";

async function dispatch(invocation: Invocation): Promise<Outcome> {
  const first = invocation.argv[0];
  if (first === "version" || first === "--version" || first === "-v") {
    return { stdout: Buffer.from(`gentle-ai ${invocation.scenario.profile}\n`), stderr: Buffer.alloc(0), exitCode: 0 };
  }
  return { stdout: Buffer.alloc(0), stderr: Buffer.from(`Error: unknown command ${JSON.stringify(first ?? "")}\n`), exitCode: 1 };
}

await runProcess(gentleAiProgram(dispatch));
