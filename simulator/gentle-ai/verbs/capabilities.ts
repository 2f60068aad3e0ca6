// review capabilities (review_capabilities.go `RunReviewCapabilities`, `reviewCapabilitiesStaticSurface` at fb55ef7b):
// always negotiated; the v1 contract by default (capabilities/v1.5), capabilities/v2.2 with `--contract …/v2`.
import { readFileSync } from "node:fs";
import { sha256Hex } from "../../platform/sha256.ts";
import type { Invocation, Outcome } from "../invocation.ts";
import type { FlagSetSpec } from "../../go/flag-spec.ts";
import { traitsOf } from "../profiles.ts";
import { routeFor, runRouted } from "../route.ts";
import { nativeError } from "../refusal.ts";
import type { StdoutBuffer } from "../route.ts";
import { CONTRACT_V1, CONTRACT_V2 } from "../../output/envelope.ts";
import { encodeReviewJson, goMarshal } from "../../go/go-json.ts";
import type { Profile } from "../../scenario/schema.ts";
import type { CapabilitiesV15, CapabilitiesV22 } from "../../contract/capabilities.ts";
import { negotiatedOperations } from "../operation-registry.ts";
import { checkContract, parseVerbFlags, refusePositionals } from "./shared/verb-flags.ts";

const V = "review capabilities";

const FLAGS: FlagSetSpec = {
  name: V,
  details:
    "Report the repository-independent negotiated review provider surface and self-reported executable identity.",
  flags: [
    { name: "contract", kind: "string", default: CONTRACT_V1, usage: "review integration contract to negotiate" },
  ],
};

type Build = CapabilitiesV22["build"];
type BuildSettings = Omit<Build, "id">;

/**
 * The Go build metadata each profile's release binary reports (`debug.ReadBuildInfo`). (inferred) all of it: GoReleaser
 * builds with the toolchain of go.mod's `go 1.25.10` (setup-go `go-version-file`), Go stamps the module version from
 * the release tag, and `.goreleaser-provider-contract/` is git-ignored, so the tree is clean. 2.4.0 is tag v2.4.0 →
 * 301fb2ad. 2.3.0 is d94dc00c: its v2.3.0-rc.2 module hash is gentle-pi's pinned one (449a2fe1), and the stable
 * promotion workflow tags the promoted RC's commit. For 2.5.0 (f5dd1a6c) only the short commit is known and its time is
 * not.
 */
const BUILDS: Readonly<Record<Profile, BuildSettings>> = {
  "2.3.0": {
    go_version: "go1.25.10",
    module_version: "v2.3.0",
    vcs: "git",
    vcs_revision: "d94dc00ccb37625b475d040caace717465bf5ceb",
    vcs_time: "2026-08-06T23:41:13Z",
    vcs_modified: "false",
  },
  "2.4.0": {
    go_version: "go1.25.10",
    module_version: "v2.4.0",
    vcs: "git",
    vcs_revision: "301fb2ad7f3f3bda71f516d6e2848ef3fa6fe9bb",
    vcs_time: "2026-08-17T17:44:19Z",
    vcs_modified: "false",
  },
  "2.5.0": {
    go_version: "go1.25.10",
    module_version: "v2.5.0",
    vcs: "git",
    vcs_revision: "f5dd1a6c",
    vcs_time: "",
    vcs_modified: "false",
  },
};

/** The build metadata a profile's binary reports (also the commit a defect report names). */
export function buildSettingsOf(profile: Profile): BuildSettings {
  return BUILDS[profile];
}

/** `reviewCapabilitiesBuildDigest` (:391-408): sha256 over a domain tag, NUL and the compact JSON preimage. */
export function buildDigest(packageVersion: string, b: BuildSettings): string {
  const preimage = goMarshal({
    package_version: packageVersion,
    go_version: b.go_version,
    module_version: b.module_version,
    vcs: b.vcs,
    vcs_revision: b.vcs_revision,
    vcs_time: b.vcs_time,
    vcs_modified: b.vcs_modified,
  });
  return "sha256:" + sha256Hex("gentle-ai.review-build-identity/v1\0", preimage);
}

/** `reviewReleaseChannel` (:423-431). */
export function releaseChannel(version: string): "development" | "prerelease" | "stable" {
  if (version === "dev" || version.toLowerCase().includes("devel")) return "development";
  return version.includes("-") ? "prerelease" : "stable";
}

type Feature = CapabilitiesV22["features"]["optional"][number];
const f = (name: Feature["name"], requires: Feature["requires"] = []): Feature => ({ name, supported: true, requires });

const MANDATORY: Feature[] = [
  f("compact_v2_authority"),
  f("exact_receipt_replay", ["compact_v2_authority"]),
  f("five_delivery_gates", ["compact_v2_authority"]),
  f("immutable_snapshot"),
  f("legacy_v1_target_scoped_read_only", ["target_scoped_status"]),
  f("repository_independent_capabilities"),
  f("restart_safe_projection", ["target_scoped_status"]),
  f("sdd_receipt_binding", ["compact_v2_authority"]),
  f("target_scoped_status", ["repository_independent_capabilities"]),
  f("uniform_failure_envelope", ["repository_independent_capabilities"]),
];

const OPTIONAL_V1: Feature[] = [
  f("base_ref_workspace_overlay", ["immutable_snapshot", "restart_safe_projection"]),
  f("bounded_process_waits", ["uniform_failure_envelope"]),
  f("classified_authority_repair", ["native_next_transition", "uniform_failure_envelope"]),
  f("exact_gate_receipt_discovery", ["five_delivery_gates"]),
  f("native_frozen_candidate_context", ["immutable_snapshot"]),
  f("native_low_risk_verification", ["compact_v2_authority"]),
  f("native_next_transition", ["target_scoped_status"]),
  f("one_shot_final_verification_retry", ["compact_v2_authority", "exact_receipt_replay", "native_next_transition"]),
  f("opaque_repository_context", ["compact_v2_authority", "native_next_transition"]),
  f("outcome_bound_verification_evidence", ["compact_v2_authority", "native_next_transition"]),
  f("provider_artifact_admission", [
    "compact_v2_authority",
    "native_frozen_candidate_context",
    "opaque_repository_context",
  ]),
  f("provider_targeted_validation_request", ["compact_v2_authority", "native_next_transition"]),
  f("recovered_correction_evidence", ["compact_v2_authority", "provider_targeted_validation_request"]),
  f("risk_reasons", ["repository_independent_capabilities"]),
  f("scope_change_diagnostics", ["uniform_failure_envelope"]),
  f("validating_result_reopen", ["compact_v2_authority", "provider_artifact_admission"]),
];

// v2 appends these two to the v1 optional list (:328-335).
const OPTIONAL_V2_EXTRA: Feature[] = [
  f("provider_bound_native_git_context", [
    "native_frozen_candidate_context",
    "opaque_repository_context",
    "provider_artifact_admission",
  ]),
  f("provider_submission_descriptors", [
    "native_next_transition",
    "opaque_repository_context",
    "provider_targeted_validation_request",
  ]),
];

/** The v1.5 schemas list (:235-257) and, index for index, what the v2 contract publishes instead (:303-325). */
const SCHEMAS: readonly (readonly [string, string])[] = [
  ["gentle-ai.review-admitted-result/v1", "gentle-ai.review-admitted-result/v2"],
  ["gentle-ai.review-artifact-subject/v1", "gentle-ai.review-artifact-subject/v2"],
  ["gentle-ai.review-authority-repair-assessment/v1", "gentle-ai.review-authority-repair-assessment/v1"],
  ["gentle-ai.review-authority-status/v1", "gentle-ai.review-authority-status/v1"],
  ["gentle-ai.review-gate-request/v1", "gentle-ai.review-gate-request/v1"],
  ["gentle-ai.review-integration.capabilities/v1.5", "gentle-ai.review-integration.capabilities/v2.2"],
  ["gentle-ai.review-integration.failure/v1", "gentle-ai.review-integration.failure/v2"],
  ["gentle-ai.review-final-verification-incident/v1", "gentle-ai.review-final-verification-incident/v1"],
  ["gentle-ai.review-integration.operation/v1", "gentle-ai.review-integration.operation/v2"],
  ["gentle-ai.review-integration.projection/v1", "gentle-ai.review-integration.projection/v1"],
  ["gentle-ai.review-integration.repair/v1", "gentle-ai.review-integration.repair/v2"],
  ["gentle-ai.review-integration.start/v2", "gentle-ai.review-integration.start/v3"],
  ["gentle-ai.review-integration.status/v2", "gentle-ai.review-integration.status/v5"],
  ["gentle-ai.review-receipt/v1", "gentle-ai.review-receipt/v1"],
  ["gentle-ai.review-receipt/v2", "gentle-ai.review-receipt/v2"],
  ["gentle-ai.review-result-artifact/v2", "gentle-ai.review-result-artifact/v2"],
  ["gentle-ai.review-targeted-validation-request/v1", "gentle-ai.review-targeted-validation-request/v1"],
  ["gentle-ai.review-verification-evidence/v2", "gentle-ai.review-verification-evidence/v2"],
  ["https://gentle-ai.dev/schema/review/refuter/v1", "https://gentle-ai.dev/schema/review/refuter/v1"],
  ["https://gentle-ai.dev/schema/review/reviewer/v1", "https://gentle-ai.dev/schema/review/reviewer/v1"],
  ["https://gentle-ai.dev/schema/review/validator/v1", "https://gentle-ai.dev/schema/review/validator/v1"],
];

const TARGET_SELECTORS = [
  { target_type: "staged", arguments: ["--projection", "staged"] },
  { target_type: "base_ref", arguments: ["--base-ref", "<ref>"] },
  { target_type: "workspace_overlay_base_ref", arguments: ["--workspace-overlay", "--base-ref", "<ref>"] },
  { target_type: "workspace_overlay_base_tree", arguments: ["--workspace-overlay", "--base-tree", "<tree>"] },
] as const;

/** Builds the capabilities document of a profile for one contract, in `ReviewCapabilitiesResult` field order. */
export function capabilitiesDocument(
  profile: Profile,
  contract: string,
  executableSha256: string,
): CapabilitiesV15 | CapabilitiesV22 {
  const v2 = contract === CONTRACT_V2;
  const version = traitsOf(profile).version;
  const settings = BUILDS[profile];
  return {
    schema: v2 ? "gentle-ai.review-integration.capabilities/v2.2" : "gentle-ai.review-integration.capabilities/v1.5",
    contract: v2 ? CONTRACT_V2 : CONTRACT_V1,
    protocol: v2 ? { major: 2, minor: 2 } : { major: 1, minor: 5 },
    package: { name: "gentle-ai", version, release_channel: releaseChannel(version) },
    build: { id: buildDigest(version, settings), ...settings },
    executable: {
      sha256: executableSha256,
      evidence: "self-reported",
      verification: "compare-with-published-manifest",
    },
    operations: negotiatedOperations(),
    gates: ["post-apply", "pre-commit", "pre-push", "pre-pr", "release"],
    projections: ["staged", "workspace"],
    schemas: v2
      ? [...SCHEMAS.map(([, s2]) => s2), "gentle-ai.review-integration.consent/v3"]
      : SCHEMAS.map(([s1]) => s1),
    features: { mandatory: MANDATORY, optional: v2 ? [...OPTIONAL_V1, ...OPTIONAL_V2_EXTRA] : OPTIONAL_V1 },
    bootstrap: {
      command: `gentle-ai review status --cwd <repo> --contract ${v2 ? CONTRACT_V2 : CONTRACT_V1} --next-transition`,
      target_selector_variants: TARGET_SELECTORS.map((t) => ({
        target_type: t.target_type,
        arguments: [...t.arguments],
      })),
      required_feature: "native_next_transition",
      unsupported_outcome: "unsupported-capability",
      parent_only: true,
    },
    compatibility: {
      minimum_protocol_major: v2 ? 2 : 1,
      maximum_protocol_major: v2 ? 2 : 1,
      additive_minor_policy: "optional-fields-only",
      unknown_mandatory: "reject",
      unknown_optional: "ignore",
      modes: ["compact-v2", "legacy-v1"],
      legacy_window: {
        mode: "legacy-v1",
        state: "active",
        read_only: true,
        deprecation_started: true,
        removal: "not-scheduled",
        minimum_compatibility_releases: 1,
      },
    },
  } as CapabilitiesV15 | CapabilitiesV22;
}

function body(invocation: Invocation, argv: readonly string[], out: StdoutBuffer): void {
  const flags = parseVerbFlags(FLAGS, argv, out);
  if (flags === undefined) return;
  refusePositionals(flags, V);
  const contract = flags.str("contract");
  checkContract(contract);
  let bytes: Buffer;
  try {
    bytes = readFileSync(invocation.executablePath);
  } catch (error) {
    throw nativeError(`open gentle-ai executable: ${(error as Error).message}`); // (inferred) Go's *PathError wording differs
  }
  out.write(
    encodeReviewJson(capabilitiesDocument(invocation.scenario.profile, contract, "sha256:" + sha256Hex(bytes))),
  );
}

/** review capabilities: the negotiated route with or without --contract (failure/v1 unless --contract names v2). */
export function capabilities(invocation: Invocation): Promise<Outcome> {
  const argv = invocation.argv.slice(2);
  return runRouted(routeFor(argv, "capabilities", "negotiable"), (out) => body(invocation, argv, out));
}
