import { describe, expect, it } from "vitest";
import {
  CorrectionFinalizeError,
  assertCorrectionEvidenceBinding,
  buildCaptureEvidenceArgv,
  buildLegacyValidationProofDocument,
  buildNegotiatedFinalizeArgv,
  buildTargetedValidationDocument,
  decodeVerificationEvidenceRecord,
  matchCallerRequestHash,
  normalizeSha256Identity,
  readTargetedValidationBinding,
  renderSubmissionDescriptorArgv,
  finalizeCorrection,
  type CorrectionValidationInput,
} from "../../relay/finalize.ts";

const hex = (c: string): string => c.repeat(64);
const REQUEST_HASH = "sha256:" + hex("a");
const TARGET = "sha256:" + hex("b");
const VALIDATION: CorrectionValidationInput = {
  requestHash: hex("a"),
  originalCriteria: { passed: true, evidence: ["criteria ok"] },
  correctionRegression: { passed: true, evidence: ["regression ok"] },
  followUps: [{ observation: "note", proofRefs: ["R1"] }],
};
const status = (
  validationRequest: Record<string, unknown> | undefined,
  extra: Record<string, unknown> = {},
): Record<string, unknown> => ({
  schema: "gentle-ai.review-integration.status/v5",
  authority: { lineage_id: "review-1", state: "correction_required", revision: "sha256:" + hex("c") },
  ...(validationRequest !== undefined ? { validation_request: validationRequest } : {}),
  ...extra,
});
const VR = {
  schema: "gentle-ai.review-targeted-validation-request/v1",
  request_hash: REQUEST_HASH,
  lineage_id: "review-1",
  expected_revision: "sha256:" + hex("c"),
  correction_candidate_tree: "d".repeat(40),
  correction_target_identity: TARGET,
  correction_paths: ["a.go"],
  correction_paths_digest: "sha256:" + hex("e"),
};

function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    if (error instanceof CorrectionFinalizeError) return `${error.code}/${error.stage}/${error.mutationOutcome}`;
    throw error;
  }
  return "no error";
}

describe("validation document (#279 D1)", () => {
  it("takes both identities from STATUS, in the provider's key order", () => {
    const binding = readTargetedValidationBinding(status(VR));
    expect(buildTargetedValidationDocument(binding, VALIDATION).toString("utf8")).toBe(
      `{"targeted_validation_request_hash":"${REQUEST_HASH}","correction_target_identity":"${TARGET}",` +
        `"original_criteria":{"passed":true,"evidence":["criteria ok"]},"correction_regression":{"passed":true,"evidence":["regression ok"]},` +
        `"follow_ups":[{"observation":"note","proof_refs":["R1"]}]}\n`,
    );
  });

  it("keeps the legacy three-field proof", () => {
    expect(Object.keys(JSON.parse(buildLegacyValidationProofDocument(VALIDATION).toString("utf8")))).toEqual([
      "original_criteria",
      "correction_regression",
      "follow_ups",
    ]);
  });

  it.each([
    ["absent validation_request", status(undefined), "correction-binding-missing/preflight/none"],
    ["absent request_hash", status({ ...VR, request_hash: undefined }), "correction-binding-missing/preflight/none"],
    ["bare request_hash", status({ ...VR, request_hash: hex("a") }), "correction-binding-non-canonical/preflight/none"],
    [
      "upper-case target",
      status({ ...VR, correction_target_identity: "sha256:" + hex("B") }),
      "correction-binding-non-canonical/preflight/none",
    ],
    [
      "short target",
      status({ ...VR, correction_target_identity: "sha256:abc" }),
      "correction-binding-non-canonical/preflight/none",
    ],
  ])("fails closed on %s", (_label, s, code) => {
    expect(codeOf(() => readTargetedValidationBinding(s))).toBe(code);
  });

  it("matches only the bare caller hash equal to STATUS without sha256:", () => {
    const binding = readTargetedValidationBinding(status(VR));
    expect(codeOf(() => matchCallerRequestHash(binding, hex("a")))).toBe("no error");
    expect(codeOf(() => matchCallerRequestHash(binding, REQUEST_HASH))).toBe(
      "correction-request-hash-mismatch/preflight/none",
    );
    expect(codeOf(() => matchCallerRequestHash(binding, hex("f")))).toBe(
      "correction-request-hash-mismatch/preflight/none",
    );
  });
});

describe("evidence records (#279 D3)", () => {
  const wire = (ids: "bare" | "prefixed"): Record<string, unknown> => {
    const id = (c: string): string => (ids === "bare" ? hex(c) : "sha256:" + hex(c));
    return {
      schema: "gentle-ai.review-verification-evidence/v2",
      version: 2,
      lineage_id: "review-1",
      authority_revision: id("c"),
      target_identity: id("b"),
      candidate_tree: "d".repeat(40),
      paths_digest: id("e"),
      paths: ["a.go"],
      ledger_ids: [],
      raw_payload_sha256: id("9"),
      raw_payload_bytes: 3,
      outcome: "passed",
      record_digest: "sha256:" + hex("8"),
    };
  };

  it.each(["bare", "prefixed"] as const)("normalises %s identities and leaves candidate_tree alone", (ids) => {
    const record = decodeVerificationEvidenceRecord(Buffer.from(JSON.stringify(wire(ids), null, 2) + "\n"));
    expect(record).toEqual({
      schema: "gentle-ai.review-verification-evidence/v2",
      version: 2,
      lineageId: "review-1",
      authorityRevision: "sha256:" + hex("c"),
      targetIdentity: TARGET,
      candidateTree: "d".repeat(40),
      pathsDigest: "sha256:" + hex("e"),
      paths: ["a.go"],
      ledgerIds: [],
      rawPayloadSha256: "sha256:" + hex("9"),
      rawPayloadBytes: 3,
      outcome: "passed",
      recordDigest: "sha256:" + hex("8"),
    });
    const binding = readTargetedValidationBinding(status(VR));
    expect(
      codeOf(() =>
        assertCorrectionEvidenceBinding(record, {
          lineageId: "review-1",
          authorityRevision: VR.expected_revision,
          targetIdentity: binding.correctionTargetIdentity,
          candidateTree: VR.correction_candidate_tree,
          pathsDigest: VR.correction_paths_digest,
          outcome: "passed",
        }),
      ),
    ).toBe("no error");
  });

  it.each([["sha256:" + hex("A")], ["SHA256:" + hex("a")], [hex("a").slice(1)], [42]])(
    "rejects identity %j",
    (value) => {
      expect(codeOf(() => decodeVerificationEvidenceRecord({ ...wire("prefixed"), target_identity: value }))).toBe(
        "correction-evidence-invalid/preflight/none",
      );
    },
  );

  it.each([
    ["lineage", { lineageId: "review-2" }],
    ["revision", { authorityRevision: "sha256:" + hex("0") }],
    ["target", { targetIdentity: "sha256:" + hex("0") }],
    ["tree", { candidateTree: "0".repeat(40) }],
    ["paths digest", { pathsDigest: hex("0") }],
    ["outcome", { outcome: "verification_failed" as const }],
  ])("flags %s drift as correction-evidence-binding-drift", (_label, change) => {
    const record = decodeVerificationEvidenceRecord(wire("bare"));
    const expected = {
      lineageId: "review-1",
      authorityRevision: hex("c"),
      targetIdentity: TARGET,
      candidateTree: "d".repeat(40),
      pathsDigest: hex("e"),
      outcome: "passed" as const,
    };
    expect(codeOf(() => assertCorrectionEvidenceBinding(record, { ...expected, ...change }))).toBe(
      "correction-evidence-binding-drift/preflight/none",
    );
  });

  it("compares the path list when no digest is expected", () => {
    const record = decodeVerificationEvidenceRecord(wire("prefixed"));
    const base = { lineageId: "review-1", targetIdentity: TARGET, outcome: "passed" as const };
    expect(codeOf(() => assertCorrectionEvidenceBinding(record, { ...base, paths: ["a.go"] }))).toBe("no error");
    expect(codeOf(() => assertCorrectionEvidenceBinding(record, { ...base, paths: ["b.go"] }))).toBe(
      "correction-evidence-binding-drift/preflight/none",
    );
  });

  it("normalizeSha256Identity", () => {
    expect(normalizeSha256Identity(hex("a"))).toBe(REQUEST_HASH);
    expect(normalizeSha256Identity(REQUEST_HASH)).toBe(REQUEST_HASH);
    expect(normalizeSha256Identity("d".repeat(40))).toBeUndefined();
  });
});

describe("argv builders (#279 D2)", () => {
  it("renders provider descriptors verbatim with only their slots substituted", () => {
    const finalize = {
      operationToken: "finalize",
      argumentTokens: [
        "--contract=gentle-ai.review-integration/v2",
        "--lineage=review-1",
        "--expected-revision=sha256:c",
        "--target=" + TARGET,
        "--request-hash=" + REQUEST_HASH,
        "--repository-context=rctx1_x",
        "--validation={{value}}",
        "--captured-evidence=true",
      ],
      values: [{ slot: "validation", domain: "artifact_path_or_stdin", substitutionLocation: 6 }],
    };
    expect(renderSubmissionDescriptorArgv(finalize, { validation: "/t/$&/v.json" })).toEqual([
      "review",
      "finalize",
      ...finalize.argumentTokens.slice(0, 6),
      "--validation=/t/$&/v.json",
      "--captured-evidence=true",
    ]);
    const evidence = {
      operationToken: "capture-evidence",
      argumentTokens: ["--lineage=review-1", "--outcome={{outcome}}", "--input={{input}}", "--x={{input}}"],
      values: [
        {
          slot: "outcome",
          domain: "verification_outcome",
          allowedValues: ["passed", "verification_failed"],
          substitutionLocation: 1,
        },
        { slot: "input", domain: "artifact_path_or_stdin", substitutionLocation: 2 },
      ],
    };
    expect(renderSubmissionDescriptorArgv(evidence, { outcome: "passed", input: "/e.txt" })).toEqual([
      "review",
      "capture-evidence",
      "--lineage=review-1",
      "--outcome=passed",
      "--input=/e.txt",
      "--x={{input}}",
    ]);
    expect(codeOf(() => renderSubmissionDescriptorArgv(evidence, { outcome: "bogus", input: "/e" }))).toBe(
      "correction-descriptor-mismatch/preflight/none",
    );
    expect(codeOf(() => renderSubmissionDescriptorArgv(evidence, { outcome: "passed" }))).toBe(
      "correction-descriptor-mismatch/preflight/none",
    );
    expect(
      codeOf(() =>
        renderSubmissionDescriptorArgv(
          { ...finalize, values: [{ slot: "validation", domain: "d", substitutionLocation: 5 }] },
          { validation: "/v" },
        ),
      ),
    ).toBe("correction-descriptor-mismatch/preflight/none");
  });

  it("builds the descriptor-less forms", () => {
    expect(
      buildNegotiatedFinalizeArgv({
        cwd: "/r",
        lineageId: "review-1",
        validationPath: "/v.json",
        evidence: { captured: true },
      }),
    ).toEqual([
      "review",
      "finalize",
      "--contract",
      "gentle-ai.review-integration/v2",
      "--cwd",
      "/r",
      "--lineage",
      "review-1",
      "--validation",
      "/v.json",
      "--captured-evidence=true",
    ]);
    expect(
      buildNegotiatedFinalizeArgv({
        cwd: "/r",
        lineageId: "review-1",
        validationPath: "/v.json",
        evidence: { documentPath: "/e.txt" },
      }).slice(-2),
    ).toEqual(["--evidence", "/e.txt"]);
    expect(
      buildCaptureEvidenceArgv({
        cwd: "/r",
        lineageId: "review-1",
        targetIdentity: TARGET,
        expectedRevision: "sha256:c",
        outcome: "passed",
        inputPath: "/e.txt",
      }),
    ).toEqual([
      "review",
      "capture-evidence",
      "--cwd",
      "/r",
      "--lineage",
      "review-1",
      "--target",
      TARGET,
      "--expected-revision",
      "sha256:c",
      "--outcome",
      "passed",
      "--input",
      "/e.txt",
    ]);
  });
});

describe("finalizeCorrection preflight (before any launch)", () => {
  // A non-existent executable: reaching launch would surface as finalize-failed "could not start", not a preflight
  // code.
  const base = { gentleAiExecutable: "/nonexistent/gentle-ai", cwd: "/", validation: VALIDATION };
  const captured = status(VR, {
    next_transition: { kind: "collect", reason_code: "targeted_validation_required", collect: { inputs: [] } },
  });
  const uncaptured = status(VR, {
    next_transition: {
      kind: "collect",
      reason_code: "correction_repository_verification_required",
      collect: { inputs: [] },
    },
  });
  const attempt = async (request: Parameters<typeof finalizeCorrection>[0]): Promise<string> => {
    try {
      await finalizeCorrection(request);
      return "no error";
    } catch (error) {
      if (error instanceof CorrectionFinalizeError) return `${error.code}/${error.stage}`;
      throw error;
    }
  };

  it("fails closed when captured-evidence discovery and a raw document are both given", async () => {
    expect(await attempt({ ...base, status: captured, evidenceDocument: Buffer.from("e") })).toBe(
      "correction-evidence-source-conflict/preflight",
    );
    expect(
      await attempt({ ...base, status: uncaptured, capturedEvidence: true, evidenceDocument: Buffer.from("e") }),
    ).toBe("correction-evidence-source-conflict/preflight");
  });

  it("fails closed without captured evidence or an evidence document", async () => {
    expect(await attempt({ ...base, status: uncaptured })).toBe("correction-evidence-missing/preflight");
  });

  it("fails closed on a non-canonical binding or a caller hash mismatch", async () => {
    expect(await attempt({ ...base, status: status({ ...VR, correction_target_identity: hex("b") }) })).toBe(
      "correction-binding-non-canonical/preflight",
    );
    expect(await attempt({ ...base, status: captured, validation: { ...VALIDATION, requestHash: hex("0") } })).toBe(
      "correction-request-hash-mismatch/preflight",
    );
  });

  it("fails closed on evidence drift", async () => {
    const record = {
      schema: "s",
      version: 2,
      lineage_id: "review-1",
      authority_revision: hex("c"),
      target_identity: hex("0"),
      candidate_tree: "d".repeat(40),
      paths_digest: hex("e"),
      paths: ["a.go"],
      ledger_ids: [],
      raw_payload_sha256: hex("9"),
      raw_payload_bytes: 3,
      outcome: "passed",
      record_digest: "sha256:" + hex("8"),
    };
    expect(await attempt({ ...base, status: captured, evidenceRecord: Buffer.from(JSON.stringify(record)) })).toBe(
      "correction-evidence-binding-drift/preflight",
    );
  });

  it("reaches launch only when preflight passes (proves the checks above are before launch)", async () => {
    expect(await attempt({ ...base, status: captured })).toBe("correction-finalize-failed/finalize");
  });
});
