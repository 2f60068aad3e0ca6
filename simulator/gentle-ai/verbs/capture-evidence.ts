// placeholder: sim-correction replaces this
import type { Invocation, Outcome } from "../invocation.ts";
import { plainError } from "../route.ts";

/** review capture-evidence. */
export function captureEvidence(invocation: Invocation): Outcome {
  void invocation;
  return plainError('unknown review command "capture-evidence"');
}
