import * as z from "zod/mini";
import { ScenarioSchema } from "../../simulator/scenario/schema.ts";

export const GOLDEN_SCHEMA_ID = "gentle-relay-conformance.golden/v1";

const hex64 = z.string().check(z.regex(/^[0-9a-f]{64}$/));
const count = z.number().check(z.int(), z.nonnegative());

/** Exact bytes after normalisation: digest, length and the content itself (base64). */
export const GoldenBlobSchema = z.strictObject({ sha256: hex64, length: count, base64: z.string() });
export type GoldenBlob = z.infer<typeof GoldenBlobSchema>;

/** A provider-owned submission form in the relay's typed (camelCase) shape. */
export const GoldenSubmissionSchema = z.strictObject({
  operationToken: z.string(),
  argumentTokens: z.array(z.string()),
  values: z.array(
    z.strictObject({
      slot: z.string(),
      domain: z.string(),
      substitutionLocation: z.number(),
      schema: z.optional(z.string()),
      minimum: z.optional(z.number()),
      maximum: z.optional(z.number()),
      allowedValues: z.optional(z.array(z.string())),
    }),
  ),
});
export type GoldenSubmission = z.infer<typeof GoldenSubmissionSchema>;

/** One step of the recorded conversation: who drives which call. */
export const GoldenStepSchema = z.discriminatedUnion("kind", [
  // The host's own provider call (STATUS and the like), spawned directly; `handshake` exports the relay contract.
  z.strictObject({ kind: z.literal("provider"), argv: z.array(z.string()), handshake: z.boolean() }),
  // One runReviewHostRelaySlot request of the relay under test.
  z.strictObject({
    kind: z.literal("slot"),
    captureArgumentTokens: z.array(z.string()),
    submission: z.optional(GoldenSubmissionSchema),
    piTimeoutMs: z.optional(count),
    gentleAiTimeoutMs: z.optional(count),
  }),
  // A self-contained role vector: the host runs `gentle-ai review <operation> <tokens>` verbatim with the handshake.
  z.strictObject({ kind: z.literal("role-vector"), captureOperation: z.string(), argumentTokens: z.array(z.string()) }),
  // The correction FINALIZE client of the relay under test (relay/finalize.ts), given the STATUS input it answers.
  z.strictObject({ kind: z.literal("finalize"), request: z.record(z.string(), z.unknown()) }),
]);
export type GoldenStep = z.infer<typeof GoldenStepSchema>;

/** What a step returned, with durations replaced by `<MS>` and paths by placeholders. */
export const GoldenOutcomeSchema = z.discriminatedUnion("kind", [
  z.strictObject({ kind: z.literal("process"), exitCode: z.nullable(z.number()), signal: z.nullable(z.string()) }),
  z.strictObject({ kind: z.literal("result"), value: z.unknown() }),
  z.strictObject({
    kind: z.literal("relay-error"),
    name: z.string(),
    errorKind: z.string(),
    stage: z.string(),
    message: z.string(),
    exitCode: z.nullable(z.number()),
    stderr: z.string(),
    timedOut: z.boolean(),
    elapsedMs: z.nullable(z.literal("<MS>")),
    timeoutMs: z.nullable(z.number()),
    mutationOutcome: z.string(),
  }),
  z.strictObject({ kind: z.literal("thrown"), name: z.string(), message: z.string(), details: z.optional(z.record(z.string(), z.unknown())) }),
]);
export type GoldenOutcome = z.infer<typeof GoldenOutcomeSchema>;

/** One process call, normalised: temp paths, pids, timings and timestamps removed or replaced by placeholders. */
export const GoldenCallSchema = z.strictObject({
  program: z.enum(["gentle-ai", "pi"]),
  // Made by the provider itself during another call (e.g. the pi a role vector runs), not by the host or relay:
  // the replayer answers the outer call from the golden, so nested calls are compared only in live runs.
  nested: z.optional(z.literal(true)),
  argv: z.array(z.string()),
  cwd: z.string(),
  cwdListing: z.optional(z.array(z.string())),
  handshake: z.nullable(z.string()),
  stdin: GoldenBlobSchema,
  files: z.array(z.strictObject({ path: z.string(), sha256: hex64, length: count, base64: z.string() })),
  stdout: GoldenBlobSchema,
  stderr: GoldenBlobSchema,
  exit: z.strictObject({ code: z.nullable(count), signal: z.nullable(z.string()), completed: z.boolean() }),
});
export type GoldenCall = z.infer<typeof GoldenCallSchema>;

/** A golden: the scenario (inline; null for a real binary), the conversation, every call in order, every outcome. */
export const GoldenSchema = z.strictObject({
  $schema: z.optional(z.string()),
  schema: z.literal(GOLDEN_SCHEMA_ID),
  name: z.string().check(z.regex(/^[a-z0-9]+(?:-[a-z0-9.]+)*$/)),
  description: z.optional(z.string()),
  source: z.strictObject({
    kind: z.enum(["simulator", "binary"]),
    // `gentle-ai version` stdout of the recorded binary, trailing newline removed.
    version: z.string(),
  }),
  scenario: z.nullable(ScenarioSchema),
  // The conversation that produced the steps; `replay --update` re-runs it against the live simulator.
  conversation: z.optional(z.string()),
  steps: z.array(GoldenStepSchema),
  outcomes: z.array(GoldenOutcomeSchema),
  calls: z.array(GoldenCallSchema),
});
export type Golden = z.infer<typeof GoldenSchema>;
