// placeholder: sim-correction replaces this
import type { StatusContext, StatusExtension } from "./status-context.ts";

/** STATUS transition for correction_required / validating lineages. */
export function correctionStatus(ctx: StatusContext): StatusExtension {
  void ctx;
  return { nextTransition: { kind: "stop", reason_code: "correction_not_simulated" } };
}
