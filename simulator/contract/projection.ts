// gentle-ai.review-integration.projection/v1 (v1/schemas/projection.schema.json; ReviewTargetStatusProjection,
// review_status_contract.go): the restart projection every STATUS carries.
import { z } from "zod";
import type { ProviderDocument } from "./provider-document.ts";
import { GitTree, Sha256 } from "./status-formats.ts";

const RepoPath = z
  .string()
  .min(1)
  .regex(/^(?!\/)(?!.*(?:^|\/)\.\.(?:\/|$)).+$/);
const Paths = z.array(RepoPath).refine((p) => new Set(p).size === p.length, "paths must be unique");

export const ProjectionSchema = z.strictObject({
  schema: z.literal("gentle-ai.review-integration.projection/v1"),
  kind: z.enum(["current-changes", "base-diff", "base-workspace-overlay", "exact-revision", "fix-diff"]),
  projection: z.enum(["staged", "workspace"]),
  base_tree: GitTree,
  initial_review_tree: GitTree,
  current_candidate_tree: GitTree,
  paths_digest: Sha256,
  paths: Paths,
  intended_untracked: Paths,
  intended_untracked_proof: Sha256,
  initial_snapshot_identity: Sha256,
  current_snapshot_identity: Sha256,
});
export type Projection = z.infer<typeof ProjectionSchema>;

export const PROJECTION_DOCUMENTS: readonly ProviderDocument[] = [
  {
    id: "gentle-ai.review-integration.projection/v1",
    upstream: "v1/schemas/projection.schema.json",
    schema: ProjectionSchema,
    // The published gitTree admits 40 or 64 hex; the mirror shares the 40(+24) form the v2 schemas use, same set.
    stricter: [],
  },
];
