// Mirror of `review capabilities`: capabilities/v1.5 (the default v1 contract) and capabilities/v2.2 (`--contract
// gentle-ai.review-integration/v2`), written from the facts of the published schemas (v1/schemas/capabilities-v1.4,
// -v1.5; v2/schemas/capabilities-v2.2) and review_capabilities.go at fb55ef7b.
import { z } from "zod";
import type { ProviderDocument } from "./provider-document.ts";

const Sha256 = z.string().regex(/^sha256:[0-9a-f]{64}$/);

/** A closed-enum array of exact length whose members are unique (`minItems = maxItems`, `uniqueItems`). */
function uniqueSet<T extends readonly [string, ...string[]]>(values: T, length: number) {
  return z
    .array(z.enum(values))
    .length(length)
    .refine((items) => new Set(items).size === items.length, { message: "items must be unique" });
}

const OPERATIONS = [
  "review.bind_sdd",
  "review.capabilities",
  "review.finalize",
  "review.repair",
  "review.retry_final_verification",
  "review.start",
  "review.status",
  "review.validate",
] as const;

const GATES = ["post-apply", "pre-commit", "pre-push", "pre-pr", "release"] as const;

const FEATURES_V1 = [
  "base_ref_workspace_overlay",
  "bounded_process_waits",
  "classified_authority_repair",
  "compact_v2_authority",
  "exact_gate_receipt_discovery",
  "exact_receipt_replay",
  "five_delivery_gates",
  "immutable_snapshot",
  "legacy_v1_target_scoped_read_only",
  "native_frozen_candidate_context",
  "native_low_risk_verification",
  "native_next_transition",
  "one_shot_final_verification_retry",
  "opaque_repository_context",
  "outcome_bound_verification_evidence",
  "provider_artifact_admission",
  "provider_targeted_validation_request",
  "recovered_correction_evidence",
  "repository_independent_capabilities",
  "restart_safe_projection",
  "risk_reasons",
  "scope_change_diagnostics",
  "sdd_receipt_binding",
  "target_scoped_status",
  "uniform_failure_envelope",
  "validating_result_reopen",
] as const;

const FEATURES_V2 = [...FEATURES_V1, "provider_bound_native_git_context", "provider_submission_descriptors"] as const;

const Package = z.strictObject({
  name: z.literal("gentle-ai"),
  version: z.string().min(1),
  release_channel: z.enum(["development", "prerelease", "stable"]),
});

const Build = z.strictObject({
  id: Sha256,
  go_version: z.string().min(1),
  module_version: z.string(),
  vcs: z.string(),
  vcs_revision: z.string(),
  vcs_time: z.string(),
  vcs_modified: z.enum(["true", "false", "unknown"]),
});

const Executable = z.strictObject({
  sha256: Sha256,
  evidence: z.literal("self-reported"),
  verification: z.literal("compare-with-published-manifest"),
});

const TargetSelector = z.strictObject({
  target_type: z.enum(["staged", "base_ref", "workspace_overlay_base_ref", "workspace_overlay_base_tree"]),
  arguments: z.array(z.string().min(1)).min(2),
});

function bootstrap(contract: string) {
  return z.strictObject({
    command: z.literal(`gentle-ai review status --cwd <repo> --contract ${contract} --next-transition`),
    target_selector_variants: z.array(TargetSelector).length(4),
    required_feature: z.literal("native_next_transition"),
    unsupported_outcome: z.literal("unsupported-capability"),
    parent_only: z.literal(true),
  });
}

const LegacyWindow = z.strictObject({
  mode: z.literal("legacy-v1"),
  state: z.enum(["pre-fence", "active", "deprecated", "expired"]),
  read_only: z.boolean(),
  deprecation_started: z.boolean(),
  removal: z.string().min(1),
  minimum_compatibility_releases: z.int().min(1),
});

function compatibility(major: 1 | 2) {
  return z.strictObject({
    minimum_protocol_major: z.literal(major),
    maximum_protocol_major: z.literal(major),
    additive_minor_policy: z.literal("optional-fields-only"),
    unknown_mandatory: z.literal("reject"),
    unknown_optional: z.literal("ignore"),
    modes: z.tuple([z.literal("compact-v2"), z.literal("legacy-v1")]),
    legacy_window: LegacyWindow,
  });
}

/** One feature; v1.x leaves `requires` free strings, v2.2 closes them over the feature names. */
function feature<T extends readonly [string, ...string[]]>(names: T, closedRequires: boolean) {
  const requires = closedRequires ? z.enum(names) : z.string().min(1);
  return z.strictObject({
    name: z.enum(names),
    supported: z.boolean(),
    requires: z
      .array(requires)
      .refine((items) => new Set(items).size === items.length, { message: "requires must be unique" }),
  });
}

/** Schema ids both capabilities documents list, at the same versions (the rest of each list differs by contract). */
const STABLE_SCHEMAS = [
  "gentle-ai.review-receipt/v1",
  "gentle-ai.review-receipt/v2",
  "gentle-ai.review-result-artifact/v2",
  "gentle-ai.review-targeted-validation-request/v1",
  "gentle-ai.review-verification-evidence/v2",
  "https://gentle-ai.dev/schema/review/refuter/v1",
  "https://gentle-ai.dev/schema/review/reviewer/v1",
  "https://gentle-ai.dev/schema/review/validator/v1",
] as const;

/** `gentle-ai.review-integration.capabilities/v1.5`: what plain `review capabilities` prints. */
export const CapabilitiesV15Schema = z.strictObject({
  schema: z.literal("gentle-ai.review-integration.capabilities/v1.5"),
  contract: z.literal("gentle-ai.review-integration/v1"),
  protocol: z.strictObject({ major: z.literal(1), minor: z.literal(5) }),
  package: Package,
  build: Build,
  executable: Executable,
  operations: uniqueSet(OPERATIONS, 8),
  gates: uniqueSet(GATES, 5),
  projections: uniqueSet(["staged", "workspace"], 2),
  schemas: uniqueSet(
    [
      "gentle-ai.review-admitted-result/v1",
      "gentle-ai.review-artifact-subject/v1",
      "gentle-ai.review-authority-repair-assessment/v1",
      "gentle-ai.review-authority-status/v1",
      "gentle-ai.review-gate-request/v1",
      "gentle-ai.review-integration.capabilities/v1.5",
      "gentle-ai.review-integration.failure/v1",
      "gentle-ai.review-final-verification-incident/v1",
      "gentle-ai.review-integration.operation/v1",
      "gentle-ai.review-integration.projection/v1",
      "gentle-ai.review-integration.repair/v1",
      "gentle-ai.review-integration.start/v2",
      "gentle-ai.review-integration.status/v2",
      ...STABLE_SCHEMAS,
    ],
    21,
  ),
  features: z.strictObject({
    mandatory: z.array(feature(FEATURES_V1, false)).length(10),
    optional: z.array(feature(FEATURES_V1, false)).length(16),
  }),
  bootstrap: bootstrap("gentle-ai.review-integration/v1").optional(),
  compatibility: compatibility(1),
});
export type CapabilitiesV15 = z.infer<typeof CapabilitiesV15Schema>;

/** `gentle-ai.review-integration.capabilities/v2.2`: what `review capabilities --contract …/v2` prints. */
export const CapabilitiesV22Schema = z.strictObject({
  schema: z.literal("gentle-ai.review-integration.capabilities/v2.2"),
  contract: z.literal("gentle-ai.review-integration/v2"),
  protocol: z.strictObject({ major: z.literal(2), minor: z.literal(2) }),
  package: Package,
  build: Build,
  executable: Executable,
  operations: uniqueSet(OPERATIONS, 8),
  gates: uniqueSet(GATES, 5),
  projections: uniqueSet(["staged", "workspace"], 2),
  schemas: uniqueSet(
    [
      "gentle-ai.review-admitted-result/v2",
      "gentle-ai.review-artifact-subject/v2",
      "gentle-ai.review-authority-repair-assessment/v1",
      "gentle-ai.review-authority-status/v1",
      "gentle-ai.review-gate-request/v1",
      "gentle-ai.review-integration.capabilities/v2.2",
      "gentle-ai.review-integration.consent/v3",
      "gentle-ai.review-integration.failure/v2",
      "gentle-ai.review-final-verification-incident/v1",
      "gentle-ai.review-integration.operation/v2",
      "gentle-ai.review-integration.projection/v1",
      "gentle-ai.review-integration.repair/v2",
      "gentle-ai.review-integration.start/v3",
      "gentle-ai.review-integration.status/v5",
      ...STABLE_SCHEMAS,
    ],
    22,
  ),
  features: z.strictObject({
    mandatory: z.array(feature(FEATURES_V2, true)).length(10),
    optional: z.array(feature(FEATURES_V2, true)).length(18),
  }),
  bootstrap: bootstrap("gentle-ai.review-integration/v2").optional(),
  compatibility: compatibility(2),
});
export type CapabilitiesV22 = z.infer<typeof CapabilitiesV22Schema>;

/** The capabilities documents the simulator prints. */
export const CAPABILITIES_DOCUMENTS: readonly ProviderDocument[] = [
  {
    id: "gentle-ai.review-integration.capabilities/v1.5",
    upstream: "v1/schemas/capabilities-v1.5.schema.json",
    schema: CapabilitiesV15Schema,
    stricter: [],
  },
  {
    id: "gentle-ai.review-integration.capabilities/v2.2",
    upstream: "v2/schemas/capabilities-v2.2.schema.json",
    schema: CapabilitiesV22Schema,
    stricter: [],
  },
];
