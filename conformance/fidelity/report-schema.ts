import * as z from "zod/mini";
import { ProfileSchema } from "../../simulator/scenario/schema.ts";

export const FIDELITY_REPORT_SCHEMA_ID = "gentle-relay-conformance.fidelity-report/v1";

/** One schema violation: the JSON path in the document and the reason. */
export const SchemaIssueSchema = z.strictObject({ path: z.string(), message: z.string() });
export type SchemaIssue = z.infer<typeof SchemaIssueSchema>;

/** One invalid document: the scenario, profile and call that printed it, and what is wrong with it. */
export const InvalidDocumentSchema = z.strictObject({
  scenario: z.string(),
  profile: ProfileSchema,
  call: z.string(),
  issues: z.array(SchemaIssueSchema),
});
export type InvalidDocument = z.infer<typeof InvalidDocumentSchema>;

/** The verdict for one document kind. */
export const KindVerdictSchema = z.strictObject({
  kind: z.string(),
  // The published schema it was checked against (relative to contracts/review-integration); null: none is published.
  schema: z.nullable(z.string()),
  status: z.enum(["valid", "invalid"]),
  documents: z.number(),
  invalid: z.array(InvalidDocumentSchema),
  // What it was checked against instead, when no schema is published.
  note: z.optional(z.string()),
});
export type KindVerdict = z.infer<typeof KindVerdictSchema>;

/** The fidelity report (`--json`). */
export const FidelityReportSchema = z.strictObject({
  schema: z.literal(FIDELITY_REPORT_SCHEMA_ID),
  // The contracts/review-integration folder checked against, or "mirror" for our zod mirror.
  contracts: z.string(),
  profiles: z.array(ProfileSchema),
  scenarios: z.array(z.string()),
  // Shipped scenarios not swept, and why (a scenario that models an issue report rather than the source).
  skipped: z.array(z.strictObject({ scenario: z.string(), reason: z.string() })),
  documents: z.number(),
  verdict: z.enum(["valid", "invalid"]),
  kinds: z.array(KindVerdictSchema),
});
export type FidelityReport = z.infer<typeof FidelityReportSchema>;
