// The reviewer artifact subject STATUS prints on each `review.capture-result` input: v2 for the native-Git contract
// (v2/schemas/artifact-subject.schema.json), v1 for review-integration/v1 (v1/schemas/artifact-subject.schema.json).
// Field order is ArtifactSubject's (reviewtransaction/artifact_subject.go:17).
import { z } from "zod";
import type { ProviderDocument } from "./provider-document.ts";
import { GitTree, LensName, LineageId, Sha256 } from "./status-formats.ts";

const Order = z.number().int().min(0).max(3);

export const ArtifactSubjectV2Schema = z.strictObject({
  schema: z.literal("gentle-ai.review-artifact-subject/v2"),
  subject_hash: Sha256,
  lineage_id: LineageId,
  authority_revision: Sha256,
  target_identity: Sha256,
  base_tree: GitTree,
  candidate_tree: GitTree,
  changed_path_manifest_sha256: Sha256,
  lens: LensName,
  selected_order: Order,
  correction_target_identity: z.optional(Sha256),
});
export type ArtifactSubjectV2 = z.infer<typeof ArtifactSubjectV2Schema>;

export const ArtifactSubjectV1Schema = z.strictObject({
  schema: z.literal("gentle-ai.review-artifact-subject/v1"),
  subject_hash: Sha256,
  lineage_id: LineageId,
  authority_revision: Sha256,
  target_identity: Sha256,
  candidate_diff_sha256: Sha256,
  changed_path_manifest_sha256: Sha256,
  lens: LensName,
  selected_order: Order,
  correction_target_identity: z.optional(Sha256),
});
export type ArtifactSubjectV1 = z.infer<typeof ArtifactSubjectV1Schema>;

export const ARTIFACT_SUBJECT_DOCUMENTS: readonly ProviderDocument[] = [
  {
    id: "gentle-ai.review-artifact-subject/v2",
    upstream: "v2/schemas/artifact-subject.schema.json",
    schema: ArtifactSubjectV2Schema,
    stricter: [],
  },
  {
    id: "gentle-ai.review-artifact-subject/v1",
    upstream: "v1/schemas/artifact-subject.schema.json",
    schema: ArtifactSubjectV1Schema,
    stricter: [],
  },
];
