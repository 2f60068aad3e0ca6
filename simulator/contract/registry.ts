// Every provider document kind the simulator prints, with its published schema and our zod mirror.
import { CAPABILITIES_DOCUMENTS } from "./capabilities.ts";
import { CAPTURE_RESULT_DOCUMENTS } from "./capture-result.ts";
import { FAILURE_DOCUMENTS } from "./failure.ts";
import { LENS_CONTEXT_BINDING_DOCUMENTS } from "./lens-context-binding.ts";
import { OPERATION_DOCUMENTS } from "./operation.ts";
import type { ProviderDocument } from "./provider-document.ts";
import { REVIEWER_RESULT_DOCUMENTS } from "./reviewer-result.ts";
import { VERIFICATION_EVIDENCE_DOCUMENTS } from "./verification-evidence.ts";

/** All mirrored document kinds. */
export const PROVIDER_DOCUMENTS: readonly ProviderDocument[] = [
  ...CAPABILITIES_DOCUMENTS,
  ...FAILURE_DOCUMENTS,
  ...OPERATION_DOCUMENTS,
  ...REVIEWER_RESULT_DOCUMENTS,
  ...CAPTURE_RESULT_DOCUMENTS,
  ...LENS_CONTEXT_BINDING_DOCUMENTS,
  ...VERIFICATION_EVIDENCE_DOCUMENTS,
];

const BY_ID = new Map(PROVIDER_DOCUMENTS.map((d) => [d.id, d]));

/** The mirrored kind with this `schema` identifier (or descriptive name), if any. */
export function providerDocument(id: string): ProviderDocument | undefined {
  return BY_ID.get(id);
}
