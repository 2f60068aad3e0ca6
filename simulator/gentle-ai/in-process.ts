// The fake gentle-ai answered inside the calling process: for a harness's own setup calls (e.g. STATUS to obtain a
// relay slot), which cost a Node start each when spawned. Calls a relay under test makes must stay processes.
import { callInProcess, type InProcessRequest, type InProcessResult } from "../runtime/call-in-process.ts";
import { dispatch } from "./dispatch.ts";
import { gentleAiProgram } from "./program.ts";

export type { InProcessRequest, InProcessResult };

const program = gentleAiProgram(dispatch);

/**
 * One gentle-ai call in this process with the spawned binary's bytes, state and transcript; null when it needs a
 * process.
 */
export function gentleAiInProcess(request: InProcessRequest): Promise<InProcessResult | null> {
  return callInProcess(program, request);
}
