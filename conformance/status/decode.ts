// The harness's own STATUS decoding (never the relay's): just enough of status/v5 to find relay slots.
import * as z from "zod/mini";

const ValueWireSchema = z.looseObject({
  slot: z.string(),
  domain: z.string(),
  schema: z.optional(z.string()),
  minimum: z.optional(z.number()),
  maximum: z.optional(z.number()),
  allowed_values: z.optional(z.array(z.string())),
  substitution_location: z.number(),
});

/** Both wire forms of a submission descriptor: v5 singular `value` and the legacy `values` array. */
export const SubmissionWireSchema = z.looseObject({
  operation_token: z.string(),
  argument_tokens: z.array(z.string()),
  value: z.optional(ValueWireSchema),
  values: z.optional(z.array(ValueWireSchema)),
});
export type SubmissionWire = z.infer<typeof SubmissionWireSchema>;

export const CollectArgumentSchema = z.looseObject({
  name: z.string(),
  value: z.string(),
  token: z.optional(z.string()),
});
export type CollectArgument = z.infer<typeof CollectArgumentSchema>;

export const CollectInputSchema = z.looseObject({
  name: z.string(),
  capture_operation: z.string(),
  arguments: z.array(CollectArgumentSchema),
  submission: z.optional(SubmissionWireSchema),
  artifact_subject: z.optional(z.looseObject({ subject_hash: z.optional(z.string()) })),
  base_tree: z.optional(z.string()),
  candidate_tree: z.optional(z.string()),
});
export type CollectInput = z.infer<typeof CollectInputSchema>;

export const StatusSchema = z.looseObject({
  schema: z.string(),
  next_transition: z.optional(
    z.looseObject({
      kind: z.string(),
      reason_code: z.optional(z.string()),
      collect: z.optional(z.looseObject({ inputs: z.array(CollectInputSchema) })),
    }),
  ),
});
export type Status = z.infer<typeof StatusSchema>;

/** gentle-pi's typed form (ReviewCaptureSubmissionV1), the shape the relay's `submission` field takes. */
export interface TypedSubmission {
  readonly operationToken: string;
  readonly argumentTokens: readonly string[];
  readonly values: readonly TypedSubmissionValue[];
}

/** One value of the typed form; the bounds and allowed values belong to the correction forms. */
export interface TypedSubmissionValue {
  readonly slot: string;
  readonly domain: string;
  readonly substitutionLocation: number;
  readonly schema?: string;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly allowedValues?: readonly string[];
}

/** Maps either wire form onto the typed one-entry-array shape, as gentle-pi's STATUS decoder does. */
export function typedSubmission(wire: SubmissionWire): TypedSubmission {
  const wireValues = wire.value !== undefined ? [wire.value] : (wire.values ?? []);
  return {
    operationToken: wire.operation_token,
    argumentTokens: [...wire.argument_tokens],
    values: wireValues.map((v) => ({
      slot: v.slot,
      domain: v.domain,
      substitutionLocation: v.substitution_location,
      ...(v.schema === undefined ? {} : { schema: v.schema }),
      ...(v.minimum === undefined ? {} : { minimum: v.minimum }),
      ...(v.maximum === undefined ? {} : { maximum: v.maximum }),
      ...(v.allowed_values === undefined ? {} : { allowedValues: [...v.allowed_values] }),
    })),
  };
}

/** Decodes a submission descriptor in the STATUS wire form (throws on one that is not). */
export function decodeSubmission(wire: unknown): TypedSubmission {
  return typedSubmission(SubmissionWireSchema.parse(wire));
}

/** STATUS's collect inputs, or [] when the transition collects nothing. */
export function collectInputs(status: Status): readonly CollectInput[] {
  return status.next_transition?.collect?.inputs ?? [];
}

const ReplyInputsSchema = z.array(CollectInputSchema);

/**
 * The collect inputs of a STATUS reply as a host reads them: [] when it failed, is not JSON or collects nothing;
 * throws on a collect input that does not decode. Only the inputs are decoded, not the rest of the document.
 */
export function replyCollectInputs(reply: {
  readonly exitCode: number | null;
  readonly stdout: Buffer;
}): readonly CollectInput[] {
  if (reply.exitCode !== 0) return [];
  let status: unknown;
  try {
    status = JSON.parse(reply.stdout.toString("utf8"));
  } catch {
    return [];
  }
  const inputs =
    (status as { next_transition?: { collect?: { inputs?: unknown } } } | null)?.next_transition?.collect?.inputs ?? [];
  return ReplyInputsSchema.parse(inputs);
}
