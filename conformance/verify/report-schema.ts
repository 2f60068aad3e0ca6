import * as z from "zod/mini";
import { ProfileSchema } from "../../simulator/scenario/schema.ts";

export const VERIFY_REPORT_SCHEMA_ID = "gentle-relay-conformance.verify-report/v1";

/**
 * pass: as the contract says; drift: differs; inconclusive: could not be checked here; not-applicable: not in this
 * profile.
 */
export const ProbeStatusSchema = z.enum(["pass", "drift", "inconclusive", "not-applicable"]);
export type ProbeStatus = z.infer<typeof ProbeStatusSchema>;

/** One contract clause checked against the binary. */
export const ProbeResultSchema = z.strictObject({
  id: z.string(),
  clause: z.string(),
  status: ProbeStatusSchema,
  // What differed or why the probe could not run (one line each).
  findings: z.array(z.string()),
});
export type ProbeResult = z.infer<typeof ProbeResultSchema>;

/** One shipped golden re-run against the binary. */
export const GoldenCheckSchema = z.strictObject({
  golden: z.string(),
  status: ProbeStatusSchema,
  diff: z.optional(z.string()),
});
export type GoldenCheck = z.infer<typeof GoldenCheckSchema>;

/** The verify report (`--json`). */
export const VerifyReportSchema = z.strictObject({
  schema: z.literal(VERIFY_REPORT_SCHEMA_ID),
  binary: z.string(),
  versionOutput: z.string(),
  profile: ProfileSchema,
  profileSource: z.enum(["version", "flag"]),
  // True when the binary answered the simulator's transcript variable, so goldens could be compared byte for byte.
  simulator: z.boolean(),
  drift: z.boolean(),
  probes: z.array(ProbeResultSchema),
  goldens: z.array(GoldenCheckSchema),
});
export type VerifyReport = z.infer<typeof VerifyReportSchema>;
