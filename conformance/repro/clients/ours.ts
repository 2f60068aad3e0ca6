// Our FINALIZE client (relay/finalize.ts) as a repro correction client. Our client takes no defects.
import * as finalizeModule from "../../../relay/finalize.ts";
import type { CorrectionClient, CorrectionClientContext } from "../client-contract.ts";
import { clientFromFinalizeModule } from "./adapt-finalize-module.ts";

/** One instance is one host process: it keeps the record it captured for the drift check before FINALIZE. */
export function createCorrectionClient(context: CorrectionClientContext): CorrectionClient {
  return clientFromFinalizeModule(finalizeModule as unknown as Record<string, unknown>, context);
}
