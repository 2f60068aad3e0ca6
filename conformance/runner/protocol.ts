// The harness <-> adapter-child wire format: one JSON job per stdin line, one JSON reply per fd-3 line.
import * as z from "zod/mini";

/** The relay request as JSON: what the adapter turns into a ReviewHostRelayRequest (signal added by `abort`). */
export const WireRelayRequestSchema = z.strictObject({
  captureArgumentTokens: z.array(z.string()),
  targetCwd: z.optional(z.string()),
  // Deliberately untyped: binding clauses send broken forms.
  submission: z.optional(z.unknown()),
  gentleAiExecutable: z.optional(z.string()),
  piExecutable: z.optional(z.string()),
  environment: z.optional(z.record(z.string(), z.string())),
  gentleAiTimeoutMs: z.optional(z.number()),
  piTimeoutMs: z.optional(z.number()),
});
export type WireRelayRequest = z.infer<typeof WireRelayRequestSchema>;

/** When the adapter aborts the request's signal: before the call, or once a directory entry with a prefix appears. */
export const AbortPlanSchema = z.discriminatedUnion("when", [
  z.strictObject({ when: z.literal("before") }),
  z.strictObject({ when: z.literal("entry-appears"), dir: z.string(), prefix: z.string() }),
]);
export type AbortPlan = z.infer<typeof AbortPlanSchema>;

/** One call of a pure export, for the API clauses. */
export const ProbeCallSchema = z.strictObject({ fn: z.string(), args: z.array(z.unknown()) });
export type ProbeCall = z.infer<typeof ProbeCallSchema>;

/** One job for the adapter child. */
export const AdapterJobSchema = z.strictObject({
  id: z.number(),
  op: z.enum(["run", "probe"]),
  relayModule: z.string(),
  cwd: z.string(),
  // Replaces the child's process.env for the job (TMPDIR included), so defaults the relay takes from it are the case's.
  processEnv: z.record(z.string(), z.string()),
  request: z.optional(WireRelayRequestSchema),
  abort: z.optional(AbortPlanSchema),
  calls: z.optional(z.array(ProbeCallSchema)),
});
export type AdapterJob = z.infer<typeof AdapterJobSchema>;

/** What was thrown, flattened: every relay error field the contract names, plus class facts. */
export const ErrorSnapshotSchema = z.object({
  name: z.string(),
  message: z.string(),
  constructorName: z.string(),
  isError: z.boolean(),
  // null when the module exports no ReviewHostRelayError to compare against.
  instanceOfRelayError: z.nullable(z.boolean()),
  kind: z.optional(z.unknown()),
  stage: z.optional(z.unknown()),
  exitCode: z.optional(z.unknown()),
  stderr: z.optional(z.unknown()),
  timedOut: z.optional(z.unknown()),
  elapsedMs: z.optional(z.unknown()),
  timeoutMs: z.optional(z.unknown()),
  mutationOutcome: z.optional(z.unknown()),
});
export type ErrorSnapshot = z.infer<typeof ErrorSnapshotSchema>;

export const ProbeResultSchema = z.union([
  z.strictObject({ ok: z.literal(true), value: z.unknown() }),
  z.strictObject({ ok: z.literal(false), error: z.strictObject({ name: z.string(), message: z.string() }) }),
]);
export type ProbeResult = z.infer<typeof ProbeResultSchema>;

/** The adapter's reply to one job. */
export const AdapterReplySchema = z.discriminatedUnion("type", [
  z.strictObject({ type: z.literal("result"), id: z.number(), value: z.unknown() }),
  z.strictObject({ type: z.literal("error"), id: z.number(), error: ErrorSnapshotSchema }),
  z.strictObject({
    type: z.literal("probe"),
    id: z.number(),
    // typeof of every export, in module namespace order.
    exports: z.record(z.string(), z.string()),
    // JSON copies of non-function exports (functions and classes excluded).
    values: z.record(z.string(), z.unknown()),
    frozen: z.record(z.string(), z.boolean()),
    calls: z.array(ProbeResultSchema),
  }),
  z.strictObject({ type: z.literal("load-error"), id: z.number(), message: z.string() }),
]);
export type AdapterReply = z.infer<typeof AdapterReplySchema>;

/** Name of the export every relay under test must provide. */
export const RELAY_ENTRY_EXPORT = "runReviewHostRelaySlot";
