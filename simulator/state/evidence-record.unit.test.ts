// VerificationEvidenceRecord: field order, digests (independent oracle), bare vs prefixed identities, Validate().
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { buildEvidenceRecord, computeRecordDigest, recordText, validateEvidenceRecord } from "./evidence-record.ts";
import type { EvidenceBinding } from "./evidence-record.ts";

const hex = (c: string) => c.repeat(64);
const binding: EvidenceBinding = {
  lineageId: "review-evidence-example",
  authorityRevision: "sha256:" + hex("1"),
  targetIdentity: "sha256:" + hex("2"),
  candidateTree: "3".repeat(40),
  pathsDigest: "sha256:" + hex("4"),
  paths: ["internal/review.go"],
  ledgerIds: ["R3-001"],
};
const payload = Buffer.from("go test ./... passed");

function sha(b: Buffer | string): string {
  return createHash("sha256").update(b).digest("hex");
}

describe("buildEvidenceRecord", () => {
  it("emits the published field order and prefixed digests (source-faithful mode)", () => {
    const r = buildEvidenceRecord(binding, payload, "passed", "prefixed");
    const unsigned =
      `{"schema":"gentle-ai.review-verification-evidence/v2","version":2,"lineage_id":"review-evidence-example",` +
      `"authority_revision":"sha256:${hex("1")}","target_identity":"sha256:${hex("2")}","candidate_tree":"${"3".repeat(40)}",` +
      `"paths_digest":"sha256:${hex("4")}","paths":["internal/review.go"],"ledger_ids":["R3-001"],` +
      `"raw_payload_sha256":"sha256:${sha(payload)}","raw_payload_bytes":20,"outcome":"passed","record_digest":""}`;
    const digest =
      "sha256:" +
      sha(
        Buffer.concat([Buffer.from("gentle-ai.review-verification-evidence-record/v2\u0000"), Buffer.from(unsigned)]),
      );
    expect(recordText(r)).toBe(unsigned.replace('"record_digest":""', `"record_digest":"${digest}"`));
    expect(validateEvidenceRecord(r, "prefixed")).toBeUndefined();
  });

  it("bare mode strips the four identities, keeps candidate_tree, and digests the bare-valued JSON", () => {
    const r = buildEvidenceRecord(binding, payload, "verification_failed", "bare");
    expect(r.authority_revision).toBe(hex("1"));
    expect(r.target_identity).toBe(hex("2"));
    expect(r.paths_digest).toBe(hex("4"));
    expect(r.raw_payload_sha256).toBe(sha(payload));
    expect(r.candidate_tree).toBe("3".repeat(40));
    const unsigned = recordText({ ...r, record_digest: "" });
    expect(unsigned).toContain(`"authority_revision":"${hex("1")}"`);
    expect(r.record_digest).toBe(
      "sha256:" +
        sha(
          Buffer.concat([Buffer.from("gentle-ai.review-verification-evidence-record/v2\u0000"), Buffer.from(unsigned)]),
        ),
    );
    expect(validateEvidenceRecord(r, "bare")).toBeUndefined();
    // The real provider's Validate() rejects bare values: the bare mode is counterfactual by design.
    expect(validateEvidenceRecord(r, "prefixed")).toBe("verification evidence record authority_revision is invalid");
  });

  it("always emits ledger_ids as an array and rejects a tampered digest", () => {
    const r = buildEvidenceRecord({ ...binding, ledgerIds: [] }, payload, "passed", "prefixed");
    expect(recordText(r)).toContain('"ledger_ids":[]');
    expect(validateEvidenceRecord({ ...r, outcome: "procedural_tooling_failed" }, "prefixed")).toBe(
      "verification evidence record digest is invalid",
    );
    expect(computeRecordDigest(r)).toBe(r.record_digest);
  });
});

describe("the verification-evidence/v2 mirror", () => {
  it("accepts the source-faithful record and rejects the #279 bare one", async () => {
    const { VerificationEvidenceRecordSchema } = await import("../contract/verification-evidence.ts");
    const prefixed = buildEvidenceRecord(binding, payload, "passed", "prefixed");
    // The published example record's digest follows from its fields (verification_evidence.go:109-120): the binding
    // above is that record's, its payload digest is the one value the example states without the payload.
    const example = {
      ...prefixed,
      raw_payload_sha256: "sha256:fbaacd1df6f28aa2ed91cd75533e1fb2844323408cf6057423cae3e0387ea0dc",
    };
    expect(computeRecordDigest(example)).toBe(
      "sha256:f89d690f641098c5769b89923606511103ef5e02550512f7762f202aa4c6ab32",
    );
    expect(VerificationEvidenceRecordSchema.safeParse(JSON.parse(recordText(prefixed))).success).toBe(true);
    expect(
      VerificationEvidenceRecordSchema.safeParse(
        JSON.parse(recordText(buildEvidenceRecord(binding, payload, "passed", "bare"))),
      ).success,
    ).toBe(false);
  });
});
