// Mirror of `gentle-ai.review-verification-evidence/v2`, the record `review capture-evidence` prints, written from the
// facts of v1/schemas/verification-evidence.schema.json and reviewtransaction/verification_evidence.go at fb55ef7b.
import { z } from "zod";
import type { ProviderDocument } from "./provider-document.ts";

const Sha256 = z.string().regex(/^sha256:[0-9a-f]{64}$/);

function unique<T>(items: readonly T[]): boolean {
  return new Set(items).size === items.length;
}

/** The record in `VerificationEvidenceRecord` field order. */
export const VerificationEvidenceRecordSchema = z.strictObject({
  schema: z.literal("gentle-ai.review-verification-evidence/v2"),
  version: z.literal(2),
  lineage_id: z
    .string()
    .max(128)
    .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/),
  authority_revision: Sha256,
  target_identity: Sha256,
  candidate_tree: z.string().regex(/^(?:[0-9a-f]{40}|[0-9a-f]{64})$/),
  paths_digest: Sha256,
  paths: z.array(z.string().min(1)).refine(unique, { message: "paths must be unique" }),
  ledger_ids: z.array(z.string().min(1)).refine(unique, { message: "ledger_ids must be unique" }),
  raw_payload_sha256: Sha256,
  raw_payload_bytes: z
    .int()
    .min(1)
    .max(4 * 1024 * 1024),
  outcome: z.enum(["passed", "verification_failed", "procedural_tooling_failed"]),
  record_digest: Sha256,
});
export type VerificationEvidenceRecordDocument = z.infer<typeof VerificationEvidenceRecordSchema>;

/** The verification evidence documents the simulator prints. */
export const VERIFICATION_EVIDENCE_DOCUMENTS: readonly ProviderDocument[] = [
  {
    id: "gentle-ai.review-verification-evidence/v2",
    upstream: "v1/schemas/verification-evidence.schema.json",
    schema: VerificationEvidenceRecordSchema,
    stricter: [],
  },
];
