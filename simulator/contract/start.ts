// START's two answers: the negotiated start/v3 document (contracts/review-integration/v2/schemas/start.schema.json,
// cli/review_start_contract.go) and the typed relayed decline, which is the facade's own review/start result with
// `consent: declined_this_candidate` (cli/review_facade.go reviewFacadeStartDeclinedResult; no published schema).
import { z } from "zod";
import type { ProviderDocument } from "./provider-document.ts";
import { ArtifactSubjectV2Schema } from "./artifact-subject.ts";
import { ChangedPathSchema, GitMode } from "./changed-path.ts";
import { RepositoryContextSchema } from "./status.ts";
import { GitTree, LensName, Sha256 } from "./status-formats.ts";

const RiskLevel = z.enum(["low", "medium", "high"]);

const RiskReason = z.strictObject({
  code: z.enum([
    "configuration_change",
    "empty_content",
    "executable_change",
    "executable_mode",
    "hot_path",
    "large_change",
    "non_executable_only",
    "process_boundary",
    "process_scan_limit",
    "service_token",
    "shell_source",
  ]),
  signal: z.optional(z.enum(["auth", "update", "security", "payments", "permissions", "shell_process"])),
  path: z.optional(z.string().min(1)),
  old_mode: z.optional(GitMode),
  new_mode: z.optional(GitMode),
});

/** start/v3. */
export const StartV3Schema = z
  .strictObject({
    schema: z.literal("gentle-ai.review-integration.start/v3"),
    contract: z.literal("gentle-ai.review-integration/v2"),
    operation: z.literal("review.start"),
    // "resumed" before the atomic START route (301fb2ad's published start schema), "replayed" at fb55ef7b.
    action: z.enum(["created", "resumed", "replayed"]),
    lenses_required: z.boolean(),
    lineage_id: z.string().min(1),
    state: z.enum([
      "unreviewed",
      "reviewing",
      "judges_confirmed",
      "findings_frozen",
      "evidence_classified",
      "fix_required",
      "fixing",
      "fix_validating",
      "correction_required",
      "validating",
      "ready_final_verification",
      "final_verifying",
      "approved",
      "escalated",
      "invalidated",
    ]),
    risk_level: RiskLevel,
    selected_lenses: z.array(LensName).max(4),
    projection: z.enum(["workspace", "staged"]),
    target_mode: z.optional(z.literal("base-workspace-overlay")),
    target_identity: z.optional(Sha256),
    base_tree: z.optional(GitTree),
    candidate_tree: z.optional(GitTree),
    changed_files: z.number().int().min(0),
    changed_lines: z.number().int().min(0),
    correction_budget: z.number().int().min(0).max(200),
    risk_reasons: z.array(RiskReason).min(1),
    artifact_subjects: z.array(ArtifactSubjectV2Schema).max(4),
    changed_path_manifest: z.optional(z.array(ChangedPathSchema)),
    repository_context: z.optional(RepositoryContextSchema),
  })
  .superRefine((d, ctx) => {
    const issue = (message: string): void => ctx.addIssue({ code: "custom", message });
    if ((d.base_tree === undefined) !== (d.candidate_tree === undefined))
      issue("base_tree and candidate_tree come together");
    if (d.changed_path_manifest !== undefined && d.base_tree === undefined)
      issue("changed_path_manifest requires the trees");
    if ((d.target_mode === undefined) !== (d.target_identity === undefined))
      issue("target_mode and target_identity come together");
    if (d.selected_lenses.length > 0 && (d.base_tree === undefined || d.changed_path_manifest === undefined))
      issue("selected lenses require the frozen trees and manifest");
    const live = d.state === "reviewing";
    if (live !== (d.repository_context !== undefined))
      issue("repository_context exactly when a reviewing lineage was created or replayed");
    if (new Set(d.selected_lenses).size !== d.selected_lenses.length) issue("selected_lenses are unique");
  });
export type StartV3 = z.infer<typeof StartV3Schema>;
/** START's action (created, or its replay: `resumed` before the atomic route, `replayed` after). */
export type StartAction = StartV3["action"];
export type StartLens = StartV3["selected_lenses"][number];
export type StartRiskLevel = StartV3["risk_level"];
/** One risk reason, in Go field order (signal, path and modes omitted when empty). */
export type StartRiskReason = StartV3["risk_reasons"][number];

/** The relayed decline: review/start with no lineage, no lenses, nothing persisted. */
export const StartDeclinedSchema = z.strictObject({
  operation: z.literal("review/start"),
  action: z.literal("declined"),
  lenses_required: z.literal(false),
  lineage_id: z.literal(""),
  state: z.literal(""),
  risk_level: RiskLevel,
  selected_lenses: z.tuple([]),
  lens_bindings: z.tuple([]),
  projection: z.enum(["workspace", "staged"]),
  target_identity: Sha256,
  changed_files: z.number().int().min(0),
  changed_lines: z.number().int().min(0),
  correction_budget: z.literal(0),
  risk_evidence: z.optional(z.array(z.string().min(1))),
  consent: z.literal("declined_this_candidate"),
});
export type StartDeclined = z.infer<typeof StartDeclinedSchema>;

export const START_DOCUMENTS: readonly ProviderDocument[] = [
  {
    id: "gentle-ai.review-integration.start/v3",
    upstream: "v2/schemas/start.schema.json",
    schema: StartV3Schema,
    stricter: [
      "artifact subjects are the native Git v2 shape (trees, no candidate_diff_sha256), as review_start_contract.go Validate requires for start/v3",
    ],
  },
  {
    id: "review/start (declined)",
    upstream: undefined,
    schema: StartDeclinedSchema,
    stricter: [],
  },
];
