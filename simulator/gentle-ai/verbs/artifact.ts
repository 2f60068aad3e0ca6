// The capture-result success artifact (gentle-ai.review-result-artifact/v2) and its rart1_ reference, §7.5.
import { goMarshal } from "../../output/go-json.ts";
import type { GoJson } from "../../output/go-json.ts";
import { sha256Hex, sha256Prefixed } from "../../state/identities.ts";
import type { Identities } from "../../state/identities.ts";
import type { CapturedSlot } from "../../state/lineage-state.ts";
import type { Lens } from "../../scenario/lineage-spec.ts";

export const ARTIFACT_SCHEMA = "gentle-ai.review-result-artifact/v2";
export const ARTIFACT_CAPABILITY = "review.native_result_artifact";

/** What one admitted capture binds. */
export interface ArtifactBinding {
  readonly lineageId: string;
  readonly targetIdentity: string;
  readonly lens: Lens;
  readonly order: number;
  readonly subjectHash: string;
  /** `sha256:` digest of the canonical slot bytes. */
  readonly sha256: string;
}

/** reviewResultReference: rart1_ + sha256(compact Marshal of the Go-field-named preimage). */
export function resultReference(b: ArtifactBinding): string {
  const preimage: GoJson = {
    Schema: ARTIFACT_SCHEMA,
    Capability: ARTIFACT_CAPABILITY,
    SHA256: b.sha256,
    LineageID: b.lineageId,
    TargetIdentity: b.targetIdentity,
    Lens: b.lens,
    SubjectHash: b.subjectHash,
    SelectedOrder: b.order,
    AdmissionDecision: "completed",
  };
  return "rart1_" + sha256Hex(goMarshal(preimage));
}

/**
 * The artifact object. With a repository context `reference` replaces `path`; on the --cwd route the path is
 * (inferred) the slot file under the repository's review store.
 */
export function artifactObject(b: ArtifactBinding, viaContext: boolean): GoJson {
  return {
    schema: ARTIFACT_SCHEMA,
    capability: ARTIFACT_CAPABILITY,
    path: viaContext ? undefined : `.git/gentle-ai/review/${b.lineageId}/results/${b.order}-${b.lens}.json`,
    reference: viaContext ? resultReference(b) : undefined,
    sha256: b.sha256,
    lineage_id: b.lineageId,
    target_identity: b.targetIdentity,
    lens: b.lens,
    selected_order: b.order,
    subject_hash: b.subjectHash,
    admission_decision: "completed",
  };
}

/** The canonical bytes of the reviewer result the fake pi produces for a lens (no findings, every manifest path). */
export function fakePiCanonical(ids: Identities, lens: Lens): Buffer {
  return Buffer.from(
    goMarshal({
      subject_hash: ids.subjectHash(lens),
      inspection: { status: "completed", paths: ids.manifest.map((m) => m.path) },
      lens,
      findings: [],
      evidence: [],
    }),
    "utf8",
  );
}

/** A slot the scenario declares as already captured: the fake pi's canonical result, admitted via the context. */
export function seededSlot(ids: Identities, lens: Lens, order: number): CapturedSlot {
  const canonical = fakePiCanonical(ids, lens);
  const binding: ArtifactBinding = {
    lineageId: ids.lineageId,
    targetIdentity: ids.targetIdentity,
    lens,
    order,
    subjectHash: ids.subjectHash(lens),
    sha256: sha256Prefixed(canonical),
  };
  return {
    canonicalSha256: binding.sha256,
    canonicalBase64: canonical.toString("base64"),
    rawBase64: "",
    order,
    artifact: goMarshal(artifactObject(binding, true)),
  };
}
