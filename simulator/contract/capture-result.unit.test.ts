// The capture-result document mirrors accept what gentle-ai publishes and refuse obvious mutations. The accepted
// documents are written from the facts of contracts/review-integration/v2/fixtures/capture-result-dry-run.fixture.json
// and gentle-pi's tests/fixtures/devbinary/result-artifact-v2*.captured.json (real-binary outputs).
import { describe, expect, it } from "vitest";
import { CapturePreflightSchema, CaptureResultDryRunSchema, ResultArtifactV2Schema } from "./capture-result.ts";

const h = (c: string) => "sha256:" + c.repeat(64);
const DRY = {
  schema: "gentle-ai.review-capture-result-dry-run/v1",
  operation: "review/capture-result",
  validation: "accepted",
  lineage_id: "review-example",
  lens: "review-reliability",
  selected_order: 0,
  subject_hash: h("1"),
  admission_decision: "completed",
};
const ARTIFACT = {
  schema: "gentle-ai.review-result-artifact/v2",
  capability: "review.native_result_artifact",
  reference: "rart1_" + "a".repeat(64),
  sha256: h("c"),
  lineage_id: "review-ceeb2b862bd39709",
  target_identity: h("d"),
  lens: "review-reliability",
  selected_order: 0,
  subject_hash: h("6"),
  admission_decision: "completed",
};
const SUBJECT = {
  schema: "gentle-ai.review-artifact-subject/v2",
  subject_hash: h("7"),
  lineage_id: "review-c15e3de5404ab556",
  authority_revision: h("d"),
  target_identity: h("c"),
  base_tree: "96c8f6a2eee2da821f202ee686b70c211bd9fd37",
  candidate_tree: "6812ab6b7a19550f0dc49cee57518528c4479756",
  changed_path_manifest_sha256: h("2"),
  lens: "review-reliability",
  selected_order: 0,
};
const PREFLIGHT = {
  schema: "gentle-ai.review-capture-preflight/v1",
  capability: "review.native_capture_preflight",
  lineage_id: SUBJECT.lineage_id,
  target_identity: SUBJECT.target_identity,
  lens: SUBJECT.lens,
  selected_order: 0,
  artifact_subject: SUBJECT,
  base_tree: SUBJECT.base_tree,
  candidate_tree: SUBJECT.candidate_tree,
  changed_path_manifest: [
    {
      path: "src/add.js",
      status: "M",
      old_mode: "100644",
      new_mode: "100644",
      deleted: false,
      type_changed: false,
      mode_only: false,
      intended_untracked: false,
    },
  ],
};

describe("capture-result document mirrors", () => {
  it("accept the published shapes", () => {
    expect(CaptureResultDryRunSchema.safeParse(DRY).success).toBe(true);
    expect(
      CaptureResultDryRunSchema.safeParse({ ...DRY, lens: "reliability", admission_decision: undefined }).success,
    ).toBe(true);
    expect(ResultArtifactV2Schema.safeParse(ARTIFACT).success).toBe(true);
    expect(
      ResultArtifactV2Schema.safeParse({
        ...ARTIFACT,
        reference: undefined,
        path: "/r/.git/gentle-ai/review-transactions/v2/x/reviewer-results/00-review-reliability.json",
      }).success,
    ).toBe(true);
    expect(CapturePreflightSchema.safeParse(PREFLIGHT).success).toBe(true);
    expect(CapturePreflightSchema.safeParse({ ...PREFLIGHT, repository_root: "/r" }).success).toBe(true);
  });

  it("refuse mutations", () => {
    for (const bad of [
      { ...DRY, validation: "rejected" },
      { ...DRY, selected_order: 4 },
      { ...DRY, extra: true },
      { ...DRY, subject_hash: "sha256:x" },
    ])
      expect(CaptureResultDryRunSchema.safeParse(bad).success).toBe(false);
    for (const bad of [
      { ...ARTIFACT, path: "/x" },
      { ...ARTIFACT, reference: undefined },
      { ...ARTIFACT, lens: "risk" },
      { ...ARTIFACT, admission_decision: "incomplete" },
    ])
      expect(ResultArtifactV2Schema.safeParse(bad).success).toBe(false);
    for (const bad of [
      { ...PREFLIGHT, repository_root: "" },
      { ...PREFLIGHT, lens: "review-risk" },
      { ...PREFLIGHT, artifact_subject: { ...SUBJECT, schema: "gentle-ai.review-artifact-subject/v1" } },
      { ...PREFLIGHT, changed_path_manifest: [{ path: "a", status: "R" }] },
    ])
      expect(CapturePreflightSchema.safeParse(bad).success).toBe(false);
  });
});
