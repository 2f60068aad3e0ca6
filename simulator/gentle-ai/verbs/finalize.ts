// placeholder: sim-correction replaces this
import type { Invocation, Outcome } from "../invocation.ts";
import { plainError } from "../route.ts";

/** review finalize. */
export function finalize(invocation: Invocation): Outcome {
  void invocation;
  return plainError('unknown review command "finalize"');
}
