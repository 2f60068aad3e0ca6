import * as z from "zod/mini";
import type { ReviewCaptureSubmissionV1, ReviewCaptureSubmissionValueV1, ReviewCollectInputV3 } from "./types.ts";

const WireValue = z.object({
  slot: z.string(),
  domain: z.string(),
  schema: z.optional(z.string()),
  minimum: z.optional(z.number()),
  maximum: z.optional(z.number()),
  allowed_values: z.optional(z.array(z.string())),
  substitution_location: z.number(),
});

const WireSubmission = z.object({
  operation_token: z.string(),
  argument_tokens: z.array(z.string()),
  value: z.optional(WireValue),
  values: z.optional(z.array(WireValue)),
});

const WireCollectInput = z.object({
  name: z.string(),
  schema: z.string(),
  capture_operation: z.string(),
  arguments: z.array(z.object({ name: z.string(), value: z.string(), token: z.optional(z.string()) })),
  provider_task: z.optional(z.unknown()),
  submission: z.optional(WireSubmission),
  artifact_subject: z.optional(z.object({ subject_hash: z.string() })),
  candidate_diff: z.optional(z.unknown()),
  base_tree: z.optional(z.string()),
  candidate_tree: z.optional(z.string()),
  changed_path_manifest: z.optional(z.unknown()),
  validation_request: z.optional(z.unknown()),
});

function decodeValue(wire: z.infer<typeof WireValue>): ReviewCaptureSubmissionValueV1 {
  return {
    slot: wire.slot,
    domain: wire.domain,
    substitutionLocation: wire.substitution_location,
    ...(wire.schema !== undefined ? { schema: wire.schema } : {}),
    ...(wire.minimum !== undefined ? { minimum: wire.minimum } : {}),
    ...(wire.maximum !== undefined ? { maximum: wire.maximum } : {}),
    ...(wire.allowed_values !== undefined ? { allowedValues: wire.allowed_values } : {}),
  };
}

/** Decodes a STATUS submission descriptor; the singular v5 `value` and the legacy `values` array both map to `values`. */
export function decodeReviewCaptureSubmission(wire: unknown): ReviewCaptureSubmissionV1 {
  const parsed = WireSubmission.parse(wire);
  const values = parsed.value !== undefined ? [decodeValue(parsed.value)] : (parsed.values ?? []).map(decodeValue);
  return { operationToken: parsed.operation_token, argumentTokens: parsed.argument_tokens, values };
}

/** Decodes one STATUS `next_transition.collect.inputs[]` entry (snake_case wire) into the camelCase collect input. */
export function decodeReviewCollectInput(wire: unknown): ReviewCollectInputV3 {
  const parsed = WireCollectInput.parse(wire);
  return {
    name: parsed.name,
    schema: parsed.schema,
    captureOperation: parsed.capture_operation,
    arguments: parsed.arguments.map((a) => ({ name: a.name, value: a.value, ...(a.token !== undefined ? { token: a.token } : {}) })),
    ...(parsed.provider_task !== undefined ? { providerTask: parsed.provider_task } : {}),
    ...(parsed.submission !== undefined ? { submission: decodeReviewCaptureSubmission(parsed.submission) } : {}),
    ...(parsed.artifact_subject !== undefined ? { artifactSubject: { subjectHash: parsed.artifact_subject.subject_hash } } : {}),
    ...(parsed.candidate_diff !== undefined ? { candidateDiff: parsed.candidate_diff } : {}),
    ...(parsed.base_tree !== undefined ? { baseTree: parsed.base_tree } : {}),
    ...(parsed.candidate_tree !== undefined ? { candidateTree: parsed.candidate_tree } : {}),
    ...(parsed.changed_path_manifest !== undefined ? { changedPathManifest: parsed.changed_path_manifest } : {}),
    ...(parsed.validation_request !== undefined ? { validationRequest: parsed.validation_request } : {}),
  };
}
