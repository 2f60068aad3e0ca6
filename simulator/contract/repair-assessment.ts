// gentle-ai.review-authority-repair-assessment/v1 (v1/schemas/authority-repair-assessment.schema.json;
// AuthorityRepairAssessment, reviewtransaction/authority_repair.go): STATUS `repair`.
import { z } from "zod";
import type { ProviderDocument } from "./provider-document.ts";
import { LineageId, Sha256 } from "./status-formats.ts";

const bounded = (max: number) => z.number().int().min(0).max(max);

export const RepairCountsSchema = z.strictObject({
  lineages: bounded(256),
  compact_lineages: bounded(256),
  legacy_lineages: bounded(256),
  events: bounded(1024),
  bytes: bounded(8388608),
  eligible_candidates: bounded(256),
  unsupported_lineages: bounded(1024),
  conflicts: bounded(1024),
});

const OPERATIONS = ["review/complete-fix", "review/validate-fix"] as const;

const RepairCandidateSchema = z.strictObject({
  lineage_id: LineageId,
  revision: Sha256,
  chain_identity: Sha256,
  event_count: z.number().int().min(2).max(1024),
  alias_event_count: z.number().int().min(1).max(1024),
  operations: z
    .array(z.enum(OPERATIONS))
    .min(1)
    .max(2)
    .refine((o) => new Set(o).size === o.length, "operations must be unique"),
});

export const RepairAssessmentSchema = z
  .strictObject({
    schema: z.literal("gentle-ai.review-authority-repair-assessment/v1"),
    status: z.enum(["eligible", "unsupported", "ambiguous", "conflicting", "truncated"]),
    class: z.optional(z.literal("legacy_v1_historical_alias")),
    cause: z.optional(z.literal("unsupported_historical_v1_operation_alias")),
    disposition: z.optional(z.literal("quarantine-approved-historical-alias")),
    repository_binding: z.optional(Sha256),
    candidate: z.optional(RepairCandidateSchema),
    counts: RepairCountsSchema,
    supported_operations: z.tuple([z.literal(OPERATIONS[0]), z.literal(OPERATIONS[1])]),
    authorization_schema: z.literal("gentle-ai.review-repair-authorization/v1"),
  })
  .superRefine((v, ctx) => {
    const extras = [v.class, v.cause, v.disposition, v.repository_binding, v.candidate];
    if (v.status === "eligible") {
      if (extras.some((x) => x === undefined))
        ctx.addIssue({
          code: "custom",
          message: "an eligible assessment names class, cause, disposition, repository_binding and candidate",
        });
      if (v.counts.eligible_candidates !== 1 || v.counts.unsupported_lineages !== 0 || v.counts.conflicts !== 0)
        ctx.addIssue({
          code: "custom",
          message: "an eligible assessment counts exactly one candidate and no conflicts",
        });
    } else if (extras.some((x) => x !== undefined)) {
      ctx.addIssue({ code: "custom", message: "only an eligible assessment names a candidate" });
    }
  });
export type RepairAssessment = z.infer<typeof RepairAssessmentSchema>;

export const REPAIR_ASSESSMENT_DOCUMENTS: readonly ProviderDocument[] = [
  {
    id: "gentle-ai.review-authority-repair-assessment/v1",
    upstream: "v1/schemas/authority-repair-assessment.schema.json",
    schema: RepairAssessmentSchema,
    stricter: [],
  },
];
