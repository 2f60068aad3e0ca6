import * as z from "zod/mini";
import { ProfileSchema } from "../../simulator/scenario/schema.ts";

export const LANES_REPORT_SCHEMA_ID = "gentle-relay-conformance.upstream-lanes-report/v1";

/** gentle-pi's lanes that run against the simulator. */
export const LaneNameSchema = z.enum(["devbinary", "maintainer", "positive"]);
export type LaneName = z.infer<typeof LaneNameSchema>;

/** One of gentle-pi's tests (or, for the positive lane, one matrix case) and how it ended. */
export const LaneTestSchema = z.strictObject({
  lane: LaneNameSchema,
  file: z.string(),
  name: z.string(),
  status: z.enum(["pass", "fail", "skip"]),
  durationMs: z.nullable(z.number()),
  detail: z.string(),
});
export type LaneTest = z.infer<typeof LaneTestSchema>;

/** The upstream-lanes report (`--json`). */
export const LanesReportSchema = z.strictObject({
  schema: z.literal(LANES_REPORT_SCHEMA_ID),
  checkout: z.string(),
  commit: z.string(),
  /** The simulator's profile, when the lanes ran against the simulator. */
  profile: z.optional(ProfileSchema),
  /** The gentle-ai binary the lanes ran against instead (`--binary`), as given. */
  binary: z.optional(z.string()),
  lanes: z.array(LaneNameSchema),
  tests: z.array(LaneTestSchema),
  summary: z.strictObject({ passed: z.number(), failed: z.number(), skipped: z.number() }),
});
export type LanesReport = z.infer<typeof LanesReportSchema>;
