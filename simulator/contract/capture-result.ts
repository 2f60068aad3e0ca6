// The zod mirror of the documents `review capture-result` prints on success, written from gentle-ai's facts at
// fb55ef7b: the capture preflight (internal/cli/review_incident.go:29-41, no published schema), the admission dry run
// (contracts/review-integration/v2/schemas/capture-result-dry-run.schema.json, review_artifact.go:211-220) and the
// result artifact v2 (v1/schemas/result-artifact-v2.schema.json, review_artifact.go:197-209).
import { z } from "zod";
import type { ProviderDocument } from "./provider-document.ts";

const SHA256 = z.string().regex(/^sha256:[0-9a-f]{64}$/);
const GIT_TREE = z.string().regex(/^[0-9a-f]{40}([0-9a-f]{24})?$/);
const LINEAGE_ID = z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);
const SELECTED_LENS = z.enum(["review-risk", "review-resilience", "review-readability", "review-reliability"]);
const ORDER = z.number().int().min(0).max(3);
const MODE = z.string().regex(/^[0-7]{6}$/);

/** One ChangedPathManifestEntry (v2/schemas/start.schema.json $defs.changed_path). */
export const ChangedPathSchema = z.strictObject({
  path: z.string().min(1),
  status: z.enum(["A", "D", "M", "T"]),
  old_mode: MODE,
  new_mode: MODE,
  deleted: z.boolean(),
  type_changed: z.boolean(),
  mode_only: z.boolean(),
  intended_untracked: z.boolean(),
});

/** The v2 artifact subject (v2/schemas/artifact-subject.schema.json). */
export const ArtifactSubjectSchema = z.strictObject({
  schema: z.literal("gentle-ai.review-artifact-subject/v2"),
  subject_hash: SHA256,
  lineage_id: LINEAGE_ID,
  authority_revision: SHA256,
  target_identity: SHA256,
  base_tree: GIT_TREE,
  candidate_tree: GIT_TREE,
  changed_path_manifest_sha256: SHA256,
  lens: SELECTED_LENS,
  selected_order: ORDER,
  correction_target_identity: SHA256.optional(),
});

/** reviewCapturePreflightResult: repository_root only on the --cwd route (omitempty). */
export const CapturePreflightSchema = z
  .strictObject({
    schema: z.literal("gentle-ai.review-capture-preflight/v1"),
    capability: z.literal("review.native_capture_preflight"),
    repository_root: z.string().min(1).optional(),
    lineage_id: LINEAGE_ID,
    target_identity: SHA256,
    lens: SELECTED_LENS,
    selected_order: ORDER,
    artifact_subject: ArtifactSubjectSchema,
    base_tree: GIT_TREE,
    candidate_tree: GIT_TREE,
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
  lineage_id: LINEAGE_ID,
  lens: z.enum(["risk", "resilience", "readability", "reliability", "review-risk", "review-resilience", "review-readability", "review-reliability"]),
  selected_order: ORDER,
  subject_hash: SHA256,
  admission_decision: z.literal("completed").optional(),
});

/** gentle-ai.review-result-artifact/v2: exactly one of the absolute slot `path` and the opaque `reference`. */
export const ResultArtifactV2Schema = z
  .strictObject({
    schema: z.literal("gentle-ai.review-result-artifact/v2"),
    capability: z.literal("review.native_result_artifact"),
    path: z.string().min(1).optional(),
    reference: z.string().regex(/^rart1_[0-9a-f]{64}$/).optional(),
    sha256: SHA256,
    lineage_id: LINEAGE_ID,
    target_identity: SHA256,
    lens: SELECTED_LENS,
    selected_order: ORDER,
    subject_hash: SHA256,
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
