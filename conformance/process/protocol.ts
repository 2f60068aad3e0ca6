// The harness <-> adapter-child wire format: one JSON job per stdin line, one JSON reply per fd-3 line.
import * as z from "zod/mini";
import { ProcessSnapshotSchema } from "./process-census.ts";

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
  // Request fields passed as they are, whatever their type, over the ones above (binding clauses send malformed ones).
  raw: z.optional(z.record(z.string(), z.unknown())),
});
export type WireRelayRequest = z.infer<typeof WireRelayRequestSchema>;

/**
 * When the adapter aborts the request's signal: before the call; once a directory entry with a prefix appears; once
 * the relay has a child process running (after such an entry appeared, when one is named), so the abort lands while
 * a leg runs, never between legs; or never (the request carries a signal that is never aborted).
 */
export const AbortPlanSchema = z.discriminatedUnion("when", [
  z.strictObject({ when: z.literal("before") }),
  z.strictObject({ when: z.literal("entry-appears"), dir: z.string(), prefix: z.string() }),
  z.strictObject({ when: z.literal("child-running"), dir: z.optional(z.string()), prefix: z.optional(z.string()) }),
  z.strictObject({ when: z.literal("never") }),
]);
export type AbortPlan = z.infer<typeof AbortPlanSchema>;

/** The leftover an abort listener still on request.signal after the relay settled is reported as (one per listener). */
export const SIGNAL_LISTENER = "AbortSignal listener";

/** One call of a pure export, for the API clauses. */
export const ProbeCallSchema = z.strictObject({ fn: z.string(), args: z.array(z.unknown()) });
export type ProbeCall = z.infer<typeof ProbeCallSchema>;

/**
 * A harness task run inside the host child (goldens' conversations, repro's fresh-process client calls): the named
 * export of a harness module, called with JSON input; its JSON result is the reply.
 */
export const HostTaskSchema = z.strictObject({ module: z.string(), export: z.string(), input: z.unknown() });
export type HostTask = z.infer<typeof HostTaskSchema>;

/**
 * One job for the adapter child; `load` imports the relay module only (a fresh child's first job, in its own env);
 * `task` runs a HostTask, which loads the relay module itself.
 */
export const AdapterJobSchema = z.strictObject({
  id: z.number(),
  // `census` is answered at once, also while a run job is in flight (runner/hang-watch.ts asks it).
  op: z.enum(["run", "probe", "load", "task", "census"]),
  relayModule: z.string(),
  cwd: z.string(),
  // Replaces the child's process.env for the job (TMPDIR included), so defaults the relay takes from it are the case's.
  processEnv: z.record(z.string(), z.string()),
  request: z.optional(WireRelayRequestSchema),
  abort: z.optional(AbortPlanSchema),
  calls: z.optional(z.array(ProbeCallSchema)),
  task: z.optional(HostTaskSchema),
  // The folders whose processes are the job's (process/relay-host.ts kills them with the child): the child ends them
  // itself when the harness goes away mid-job.
  markers: z.optional(z.array(z.string())),
  // Mutation testing (conformance/mutate/): which mutant of an instrumented relay is active (null: none, and the
  // reply lists the mutants the job executed) and the test id the coverage is recorded under.
  mutant: z.optional(z.strictObject({ active: z.nullable(z.string()), testId: z.string() })),
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

// What a job left running in the child (ref'd handles and timers beyond those before it): the harness replaces such a
// child before the next case, so a relay's leftovers can never act during another case.
const leftovers = z.optional(z.array(z.string()));
// The processes of the job still running when the relay settled (then killed by the child): see processesOfJob.
const processes = z.optional(z.array(ProcessSnapshotSchema));
// The mutant ids a `mutant` job with no active mutant executed (`test`), those the module executed while loading, and
// those the previous job's code ran after its reply (`late`, under that job's test id).
const covered = z.optional(
  z.strictObject({
    test: z.array(z.string()),
    static: z.array(z.string()),
    late: z.optional(z.strictObject({ testId: z.string(), ids: z.array(z.string()) })),
  }),
);

/** The adapter's reply to one job, or its one unsolicited `ready` line once it is up. */
export const AdapterReplySchema = z.discriminatedUnion("type", [
  z.strictObject({ type: z.literal("ready"), id: z.literal(0) }),
  z.strictObject({ type: z.literal("loaded"), id: z.number() }),
  z.strictObject({ type: z.literal("result"), id: z.number(), value: z.unknown(), leftovers, processes, covered }),
  z.strictObject({
    type: z.literal("error"),
    id: z.number(),
    error: ErrorSnapshotSchema,
    leftovers,
    processes,
    covered,
  }),
  z.strictObject({
    type: z.literal("census"),
    id: z.number(),
    // The id of the job in flight (null: none), so a late answer is never taken for another job's.
    job: z.nullable(z.number()),
    // ms until the relay's earliest timer can fire (null: none), and ref'd timers armed where the census cannot see.
    nextTimerMs: z.nullable(z.number()),
    untrackedTimers: z.number(),
    // Handles and requests the job added (Node's names), timers excluded.
    resources: z.array(z.string()),
    processes: z.array(ProcessSnapshotSchema),
  }),
  z.strictObject({
    type: z.literal("probe"),
    id: z.number(),
    // typeof of every export, in module namespace order.
    exports: z.record(z.string(), z.string()),
    // JSON copies of non-function exports (functions and classes excluded).
    values: z.record(z.string(), z.unknown()),
    frozen: z.record(z.string(), z.boolean()),
    calls: z.array(ProbeResultSchema),
    leftovers,
    covered,
  }),
  z.strictObject({ type: z.literal("load-error"), id: z.number(), message: z.string() }),
]);
export type AdapterReply = z.infer<typeof AdapterReplySchema>;

/** A reply line longer than this is a relay writing to the harness's channel: the child is killed. */
export const MAX_REPLY_LINE_BYTES = 64 * 1024 * 1024;
/** A result or thrown field whose JSON exceeds this travels as a description instead (a 200 MiB result stays out). */
export const MAX_CARRIED_JSON_CHARS = 16 * 1024 * 1024;

/** Name of the export every relay under test must provide. */
export const RELAY_ENTRY_EXPORT = "runReviewHostRelaySlot";

/** How the adapter child ends when it finds its reply channel (fd 3) closed or replaced by the relay. */
export const CHANNEL_CLOSED_EXIT = 86;
export const CHANNEL_CLOSED_LINE = "relay-conformance adapter: the relay closed the reply channel (fd 3)";
