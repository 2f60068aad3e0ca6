// Every provider document kind the simulator prints, with its published schema and our zod mirror.
import { ARTIFACT_SUBJECT_DOCUMENTS } from "./artifact-subject.ts";
import { CAPABILITIES_DOCUMENTS } from "./capabilities.ts";
import { CAPTURE_RESULT_DOCUMENTS } from "./capture-result.ts";
import { CONSENT_DOCUMENTS } from "./consent.ts";
import { CORRECTION_PLAN_REQUEST_DOCUMENTS } from "./correction-plan-request.ts";
import { FAILURE_DOCUMENTS } from "./failure.ts";
import { GATE_RESULT_DOCUMENTS } from "./gate-result.ts";
import { LENS_CONTEXT_BINDING_DOCUMENTS } from "./lens-context-binding.ts";
import { OPERATION_DOCUMENTS } from "./operation.ts";
import { PROJECTION_DOCUMENTS } from "./projection.ts";
import type { ProviderDocument } from "./provider-document.ts";
import { REPAIR_ASSESSMENT_DOCUMENTS } from "./repair-assessment.ts";
import { REVIEW_MODE_DOCUMENTS } from "./review-mode.ts";
import { REVIEWER_RESULT_DOCUMENTS } from "./reviewer-result.ts";
import { START_DOCUMENTS } from "./start.ts";
import { STATUS_DOCUMENTS } from "./status.ts";
import { TARGETED_VALIDATION_REQUEST_DOCUMENTS } from "./targeted-validation-request.ts";
import { VERIFICATION_EVIDENCE_DOCUMENTS } from "./verification-evidence.ts";

/** All mirrored document kinds: the ones the simulator prints, and the ones those embed (STATUS's projection…). */
export const PROVIDER_DOCUMENTS: readonly ProviderDocument[] = [
  ...STATUS_DOCUMENTS,
  ...PROJECTION_DOCUMENTS,
  ...REPAIR_ASSESSMENT_DOCUMENTS,
  ...ARTIFACT_SUBJECT_DOCUMENTS,
  ...CORRECTION_PLAN_REQUEST_DOCUMENTS,
  ...TARGETED_VALIDATION_REQUEST_DOCUMENTS,
  ...CAPABILITIES_DOCUMENTS,
  ...FAILURE_DOCUMENTS,
  ...OPERATION_DOCUMENTS,
  ...REVIEWER_RESULT_DOCUMENTS,
  ...CAPTURE_RESULT_DOCUMENTS,
  ...LENS_CONTEXT_BINDING_DOCUMENTS,
  ...VERIFICATION_EVIDENCE_DOCUMENTS,
  ...START_DOCUMENTS,
  ...CONSENT_DOCUMENTS,
  ...GATE_RESULT_DOCUMENTS,
  ...REVIEW_MODE_DOCUMENTS,
];

const BY_ID = new Map(PROVIDER_DOCUMENTS.map((d) => [d.id, d]));

/** The mirrored kind with this `schema` identifier (or descriptive name), if any. */
export function providerDocument(id: string): ProviderDocument | undefined {
  return BY_ID.get(id);
}
