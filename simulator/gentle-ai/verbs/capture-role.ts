// placeholder: sim-correction replaces this
import type { VerbHandler } from "../invocation.ts";
import { plainError } from "../route.ts";

/** review capture-refuter / capture-validation. */
export function captureRole(verb: "capture-refuter" | "capture-validation"): VerbHandler {
  return () => plainError(`unknown review command "${verb}"`);
}
