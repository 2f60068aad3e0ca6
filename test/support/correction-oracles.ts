// Independent oracles for the correction lineage: scenarios, binding tokens, the evidence record and the
// targeted-validation document (values come from identities; layout and digests are recomputed here).
import { createHash } from "node:crypto";
import type { ScenarioInput } from "../../simulator/scenario/schema.ts";
import type { Identities } from "../../simulator/state/identities.ts";
import { failureEnvelope, goIndent, INVALID } from "./go-oracles.ts";

/** Anything that knows a scenario's identities (a SimWorld). */
export interface WithIds {
  readonly ids: Identities;
}

/** The profiles that have a correction lineage. */
export const PROFILES = ["2.4.0", "2.5.0"] as const;
/** The ledger id of the finding the seeded correction fixes. */
export const FIX_FINDING_ID = "R1-001";

/** sha256 hex. */
export function sha(b: Buffer | string): string {
  return createHash("sha256").update(b).digest("hex");
}

/** A correction_required scenario at a stage. */
export function correctionScenario(
  profile: "2.3.0" | "2.4.0" | "2.5.0",
  stage: string,
  extra: Partial<ScenarioInput> = {},
): ScenarioInput {
  return {
    profile,
    ...extra,
    lineage: { state: "correction_required", correction: { stage: stage as never }, ...(extra.lineage ?? {}) },
  };
}

/** The capture-evidence binding tokens of the correction (with or without the repository context). */
export function evidenceTokens(
  s: WithIds,
  opts: { context?: boolean; revisionIndex?: number; target?: string } = {},
): string[] {
  const t = [
    `--lineage=${s.ids.lineageId}`,
    `--expected-revision=${s.ids.revision(opts.revisionIndex ?? 0)}`,
    `--target=${opts.target ?? s.ids.correctionTargetIdentity}`,
  ];
  if (opts.context !== false) t.push(`--repository-context=${s.ids.repositoryContext}`);
  return t;
}

/** Independent oracle of the record capture-evidence prints in correction_required (indented Go JSON). */
export function expectedCorrectionRecord(
  s: WithIds,
  payload: Buffer,
  outcome: string,
  mode: "prefixed" | "bare",
  revisionIndex = 0,
): string {
  const id = (v: string) => (mode === "bare" ? v.replace(/^sha256:/, "") : v);
  const fields: Record<string, unknown> = {
    schema: "gentle-ai.review-verification-evidence/v2",
    version: 2,
    lineage_id: s.ids.lineageId,
    authority_revision: id(s.ids.revision(revisionIndex)),
    target_identity: id(s.ids.correctionTargetIdentity),
    candidate_tree: s.ids.correctionCandidateTree,
    paths_digest: id(s.ids.correctionPathsDigest),
    paths: [...s.ids.correctionPaths],
    ledger_ids: [FIX_FINDING_ID],
    raw_payload_sha256: id("sha256:" + sha(payload)),
    raw_payload_bytes: payload.length,
    outcome,
    record_digest: "",
  };
  const unsigned = JSON.stringify(fields);
  fields.record_digest =
    "sha256:" +
    sha(Buffer.concat([Buffer.from("gentle-ai.review-verification-evidence-record/v2\u0000"), Buffer.from(unsigned)]));
  return goIndent(fields);
}

/** The top-level validation_request of a correction lineage (request hash and correction target). */
export function requestHash(s: WithIds, revisionIndex = 0): string {
  return s.ids.requestHash(revisionIndex);
}

/** A targeted-validation document; `fields` picks five-field or three-field bodies. */
export function validationDoc(
  s: WithIds,
  opts: {
    fields?: 3 | 5;
    hash?: "prefixed" | "bare";
    target?: "prefixed" | "bare";
    evidence?: string[];
    passed?: boolean;
  } = {},
): string {
  const checks = {
    original_criteria: { passed: opts.passed ?? true, evidence: opts.evidence ?? ["criteria hold"] },
    correction_regression: { passed: opts.passed ?? true, evidence: opts.evidence ?? ["no regression"] },
    follow_ups: [],
  };
  if (opts.fields === 3) return JSON.stringify(checks);
  const bare = (v: string, m?: "prefixed" | "bare") => (m === "bare" ? v.replace(/^sha256:/, "") : v);
  return JSON.stringify({
    targeted_validation_request_hash: bare(requestHash(s), opts.hash),
    correction_target_identity: bare(s.ids.correctionTargetIdentity, opts.target),
    ...checks,
  });
}

/** A failure/v1|v2 envelope of review.finalize with a cause (negotiated route). */
export function finalizeEnvelope(cause: string, lineageId: string | undefined, version: 1 | 2 = 2): string {
  return failureEnvelope(version, "review.finalize", "invalid_request", INVALID, "correct_request", cause, lineageId);
}

/** Parses a STATUS stdout. */
export function statusOf(stdout: string): {
  next_transition: Record<string, unknown>;
  validation_request?: Record<string, unknown>;
  authority: { state: string; revision: string };
} {
  return JSON.parse(stdout) as never;
}
