// The run report: source of truth for --json output and for schemas/report.schema.json.
import * as z from "zod/mini";
import { ProfileSchema } from "../../simulator/scenario/schema.ts";

export const REPORT_SCHEMA_ID = "gentle-relay-conformance.report/v1";

// error: the harness could not decide (its own fault, or the run's deadline), never the relay's failure.
export const ClauseStatusSchema = z.enum(["pass", "fail", "skip", "error"]);
export type ClauseStatus = z.infer<typeof ClauseStatusSchema>;

export const ProfileResultSchema = z.strictObject({
  profile: ProfileSchema,
  status: ClauseStatusSchema,
  message: z.string(),
});
export type ProfileResult = z.infer<typeof ProfileResultSchema>;

export const ClauseResultSchema = z.strictObject({
  id: z.string(),
  status: ClauseStatusSchema,
  // Empty on pass; the first failure (or the harness error, or the skip reason) otherwise.
  message: z.string(),
  statement: z.string(),
  source: z.string(),
  profiles: z.array(ProfileResultSchema),
});
export type ClauseResult = z.infer<typeof ClauseResultSchema>;

const count = z.number().check(z.int(), z.nonnegative());

/**
 * A process the run's end-of-run scan found still running (process/left-behind.ts): started during it, owned by init.
 */
export const LeftBehindSchema = z.strictObject({ pid: count, argv: z.array(z.string()) });
export type LeftBehind = z.infer<typeof LeftBehindSchema>;

/** One `relay-conformance run`. */
export const ReportSchema = z.strictObject({
  schema: z.literal(REPORT_SCHEMA_ID),
  relay: z.string(),
  profiles: z.array(ProfileSchema),
  seed: z.number().check(z.int()),
  runs: count,
  startedAt: z.string(),
  durationMs: z.number().check(z.nonnegative()),
  // Relay calls made: catalogue cases plus every property run.
  cases: count,
  // Digest of the clause catalogue the run used (runner/shard.ts): reports of different catalogues never merge.
  catalogue: z.optional(z.string()),
  // `run --shard i/n`: this report holds shard `index` of `count`, whose union is `selected` clauses.
  shard: z.optional(z.strictObject({ index: count, count, selected: count })),
  summary: z.strictObject({ passed: count, failed: count, skipped: count, errored: count }),
  clauses: z.array(ClauseResultSchema),
  // Present when the scan at the run's end found processes started during the run that escaped every process tree
  // of the run (a fully detached process, where no PID namespace held the relay): reported, not killed, since on a
  // shared machine one may not be the relay's.
  leftBehind: z.optional(z.array(LeftBehindSchema)),
});
export type Report = z.infer<typeof ReportSchema>;
