// review capture-result (provider reference §7). Work in progress.
import type { Invocation, Outcome } from "../invocation.ts";
import { plainError } from "../route.ts";

/** review capture-result. */
export function captureResult(invocation: Invocation): Outcome {
  void invocation;
  return plainError("gentle-ai-sim: review capture-result is not simulated yet");
}
