// Regression fixture: a "2.1.2" build in which D3 was quietly fixed. Swapped in for the named
// gentle-pi-2.1.2 module, the 279 reproduction must notice that the documented drift no longer fires.
import { createCorrectionClient as create212 } from "../../../../conformance/repro/clients/gentle-pi-2.1.2.ts";
import type { CorrectionClient, CorrectionClientContext } from "../../../../conformance/repro/client-contract.ts";

export const DEFAULT_DEFECTS = ["D1", "D2"] as const;

/** The 2.1.2 model with D3 always off, whatever the reproduction asks for. */
export function createCorrectionClient(context: CorrectionClientContext): CorrectionClient {
  return create212({ ...context, defects: context.defects.filter((d) => d !== "D3") });
}
