// The `key=value` step commands of a reproduction script. A new one is one entry here (its name also goes into
// STEP_COMMANDS in format.ts, the published file format; the type below makes the two agree).
import type { STEP_COMMANDS } from "../format.ts";
import { captureEvidenceStep, correctionFinalizeStep, finalizeStep } from "./client.ts";
import { boundStep, relayStep } from "./relay.ts";
import type { StepDef } from "./step-def.ts";
import { collectStep, modeStep, roleVectorStep, startStep, transitionStep, validateStep } from "./lifecycle.ts";
import { statusStep } from "./status.ts";

/** The script's own verbs, parsed and run by parse.ts and run-step.ts themselves. */
export type BuiltinStep = "exec" | "gentle-ai" | "git" | "note" | "env";

/** Every `key=value` step by name. */
export const STEPS: { readonly [K in Exclude<(typeof STEP_COMMANDS)[number], BuiltinStep>]: StepDef<K> } = {
  relay: relayStep,
  status: statusStep,
  mode: modeStep,
  start: startStep,
  validate: validateStep,
  transition: transitionStep,
  collect: collectStep,
  "role-vector": roleVectorStep,
  "correction-finalize": correctionFinalizeStep,
  "capture-evidence": captureEvidenceStep,
  finalize: finalizeStep,
  bound: boundStep,
};

/** The step named `name`, if it is a `key=value` step. */
export function stepDef(name: string): StepDef | undefined {
  return Object.hasOwn(STEPS, name) ? STEPS[name as keyof typeof STEPS] : undefined;
}
