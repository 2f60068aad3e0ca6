// The zod mirror of the documents `review capture-result` prints on success, written from gentle-ai's facts at
// fb55ef7b: the capture preflight (internal/cli/review_incident.go:29-41, no published schema), the admission dry run
// (contracts/review-integration/v2/schemas/capture-result-dry-run.schema.json, review_artifact.go:211-220) and the
// result artifact v2 (v1/schemas/result-artifact-v2.schema.json, review_artifact.go:197-209).
import { z } from "zod";
import type { ProviderDocument } from "./provider-document.ts";
import { ArtifactSubjectV2Schema } from "./artifact-subject.ts";
import { ChangedPathSchema } from "./changed-path.ts";
import { GitTree, LensName, LineageId, Sha256 } from "./status-formats.ts";

const ORDER = z.number().int().min(0).max(3);

/** reviewCapturePreflightResult: repository_root only on the --cwd route (omitempty). */
export const CapturePreflightSchema = z
  .strictObject({
    schema: z.literal("gentle-ai.review-capture-preflight/v1"),
    capability: z.literal("review.native_capture_preflight"),
    repository_root: z.string().min(1).optional(),
    lineage_id: LineageId,
    target_identity: Sha256,
    lens: LensName,
    selected_order: ORDER,
    artifact_subject: ArtifactSubjectV2Schema,
    base_tree: GitTree,
    candidate_tree: GitTree,
    changed_path_manifest: z.array(ChangedPathSchema),
  })
  .refine(
    (d) =>
      d.artifact_subject.lineage_id === d.lineage_id &&
      d.artifact_subject.target_identity === d.target_identity &&
      d.artifact_subject.lens === d.lens &&
      d.artifact_subject.selected_order === d.selected_order &&
      d.artifact_subject.base_tree === d.base_tree &&
      d.artifact_subject.candidate_tree === d.candidate_tree,
    "the artifact subject binds the same lineage, target, lens slot and trees (NewArtifactSubject)",
  );

/** gentle-ai.review-capture-result-dry-run/v1. */
export const CaptureResultDryRunSchema = z.strictObject({
  schema: z.literal("gentle-ai.review-capture-result-dry-run/v1"),
  operation: z.literal("review/capture-result"),
  validation: z.literal("accepted"),
  lineage_id: LineageId,
  lens: z.enum([
    "risk",
    "resilience",
    "readability",
    "reliability",
    "review-risk",
    "review-resilience",
    "review-readability",
    "review-reliability",
  ]),
  selected_order: ORDER,
  subject_hash: Sha256,
  admission_decision: z.literal("completed").optional(),
});

/** gentle-ai.review-result-artifact/v2: exactly one of the absolute slot `path` and the opaque `reference`. */
export const ResultArtifactV2Schema = z
  .strictObject({
    schema: z.literal("gentle-ai.review-result-artifact/v2"),
    capability: z.literal("review.native_result_artifact"),
    path: z.string().min(1).optional(),
    reference: z
      .string()
      .regex(/^rart1_[0-9a-f]{64}$/)
      .optional(),
    sha256: Sha256,
    lineage_id: LineageId,
    target_identity: Sha256,
    lens: LensName,
    selected_order: ORDER,
    subject_hash: Sha256,
    admission_decision: z.literal("completed"),
  })
  .refine((d) => (d.path === undefined) !== (d.reference === undefined), "exactly one of path and reference");

export type CapturePreflight = z.infer<typeof CapturePreflightSchema>;
export type CaptureResultDryRun = z.infer<typeof CaptureResultDryRunSchema>;
export type ResultArtifactV2 = z.infer<typeof ResultArtifactV2Schema>;

export const CAPTURE_RESULT_DOCUMENTS: readonly ProviderDocument[] = [
  {
    id: "gentle-ai.review-capture-preflight/v1",
    upstream: undefined,
    schema: CapturePreflightSchema,
    stricter: [],
  },
  {
    id: "gentle-ai.review-capture-result-dry-run/v1",
    upstream: "v2/schemas/capture-result-dry-run.schema.json",
    schema: CaptureResultDryRunSchema,
    stricter: [],
  },
  {
    id: "gentle-ai.review-result-artifact/v2",
    upstream: "v1/schemas/result-artifact-v2.schema.json",
    schema: ResultArtifactV2Schema,
    stricter: [],
  },
];
