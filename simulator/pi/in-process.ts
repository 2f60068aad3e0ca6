// The fake pi answered inside the calling process: for a harness's own sweeps over the simulator's documents, which
// cost a Node start a call when spawned. A relay under test always gets the real process.
import { callInProcess, type InProcessRequest, type InProcessResult } from "../runtime/call-in-process.ts";
import { piProgram } from "./program.ts";

/** One pi call in this process with the spawned binary's bytes and transcript; null when it needs a process. */
export function piInProcess(request: InProcessRequest): Promise<InProcessResult | null> {
  return callInProcess(piProgram, request);
}
