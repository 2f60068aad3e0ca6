// Reviewer-result admission against gentle-ai fb55ef7b's texts and order (internal/cli/review_provider.go
// reviewProviderAdmitRaw and what it calls) and gentle-pi's mirrored lens vector.
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { admitReviewerResult } from "./admission.ts";
import type { AdmissionBinding } from "./admission.ts";
import { decodeStrict } from "../../../go/go-decode.ts";
import { REVIEWER_RESULT_SCHEMA_TEXT } from "./reviewer-schema.ts";
import { ReviewRefusal } from "../../refusal.ts";

const SUBJECT = "sha256:" + "1".repeat(64);
const BINDING: AdmissionBinding = {
  lens: "review-risk",
  subjectHash: SUBJECT,
  manifest: [
    { path: "b.go", status: "A", additions: 2, deletions: 0, oldMode: "000000", newMode: "100644" },
    { path: "a.go", status: "M", additions: 3, deletions: 1, oldMode: "100644", newMode: "100644" },
  ],
};
const EVIDENCE = "read the complete a.go and b.go patches";

function doc(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    subject_hash: SUBJECT,
    inspection: { status: "completed", paths: ["b.go", "a.go"] },
    findings: [],
    evidence: [EVIDENCE],
    ...extra,
  };
}

const finding = (extra: Record<string, unknown> = {}) => ({
  location: "a.go:2",
  severity: "WARNING",
  claim: "c",
  proof_refs: ["a.go:2"],
  ...extra,
});
const critical = (extra: Record<string, unknown> = {}) =>
  finding({
    id: "R1-001",
    severity: "CRITICAL",
    evidence_class: "deterministic",
    causal_disposition: "introduced",
    ...extra,
  });

function refusal(raw: string | Buffer | Record<string, unknown>, binding = BINDING): string {
  const bytes = Buffer.isBuffer(raw) ? raw : Buffer.from(typeof raw === "string" ? raw : JSON.stringify(raw));
  try {
    admitReviewerResult(bytes, binding);
  } catch (e) {
    if (e instanceof ReviewRefusal) {
      expect(e.code).toBe("invalid_request");
      return e.text;
    }
    throw e;
  }
  throw new Error("expected a refusal");
}

const sha = (b: string) => "sha256:" + createHash("sha256").update(b).digest("hex");
const CONTINUATION =
  "the rejected admission did not consume the lens slot, so re-run the lens and invoke gentle-ai review capture-result again on the same lineage with a result that echoes the binding's top-level subject_hash";

describe("reviewer result admission: accepted results", () => {
  it("admits the minimal result and canonicalizes it (trimmed evidence, sorted paths, native IDs, result hash)", () => {
    const a = admitReviewerResult(Buffer.from(JSON.stringify(doc({ evidence: [`  ${EVIDENCE}\n`] }))), BINDING);
    expect(a.inspection).toEqual({ status: "completed", paths: ["a.go", "b.go"] });
    expect(a.result.evidence).toEqual([EVIDENCE]);
    expect(a.candidateCausalFindingIds).toEqual([]);
    // LensResultHash: sha256("gentle-ai.lens-result/v1\0" + compact {lens, findings, evidence}).
    expect(a.result.resultHash).toBe(
      sha(`gentle-ai.lens-result/v1\u0000{"lens":"review-risk","findings":[],"evidence":["${EVIDENCE}"]}`),
    );
  });

  it("extracts the one JSON object from prose and ignores brace spans that are not objects or trailing values", () => {
    const body = JSON.stringify(doc());
    for (const raw of [`Review complete.\n${body}\nEnd of review.\n`, `${body} 7`, `{not json} ${body}`]) {
      expect(admitReviewerResult(Buffer.from(raw), BINDING).inspection.paths).toEqual(["a.go", "b.go"]);
    }
  });

  it("assigns lens-bound IDs and short lenses, upper-cases severity and accepts the short lens form", () => {
    const a = admitReviewerResult(
      Buffer.from(
        JSON.stringify(
          doc({
            lens: "risk",
            findings: [finding({ severity: " warning ", lens: "review-risk" }), finding({ id: " R1-x " })],
          }),
        ),
      ),
      BINDING,
    );
    expect(a.result.findings.map((f) => [f.id, f.lens, f.severity])).toEqual([
      ["R1-001", "risk", "WARNING"],
      ["R1-x", "risk", "WARNING"],
    ]);
  });

  it("verifies candidate causality against the changed lines (a.go changes lines 1-3)", () => {
    const a = admitReviewerResult(
      Buffer.from(
        JSON.stringify(
          doc({
            findings: [
              critical({ location: "a.go:2-3" }),
              critical({ id: "R1-002", causal_disposition: "behavior-activated", location: "a.go:3" }),
            ],
          }),
        ),
      ),
      BINDING,
    );
    expect(a.candidateCausalFindingIds).toEqual(["R1-001", "R1-002"]);
  });

  it("admits gentle-pi's mirrored lens vector for the slot it names", () => {
    // contracts/review-provider-contract-mirror/v1.1.0/bundle/vectors/lens.json (gentle-pi 7313aa9a), written from its
    // facts.
    const vector = {
      subject_hash: "sha256:" + "0".repeat(64),
      inspection: { status: "completed", paths: ["internal/example.go"] },
      findings: [],
      evidence: ["reviewed the complete candidate scope"],
    };
    for (const lens of ["review-risk", "review-resilience", "review-readability", "review-reliability"]) {
      const binding = {
        lens,
        subjectHash: vector.subject_hash,
        manifest: [
          {
            path: "internal/example.go",
            status: "M" as const,
            additions: 1,
            deletions: 1,
            oldMode: "100644",
            newMode: "100644",
          },
        ],
      };
      expect(admitReviewerResult(Buffer.from(JSON.stringify(vector)), binding).result.lens).toBe(lens);
      // The same vector for another candidate is refused on its subject echo.
      expect(refusal(vector, { ...binding, subjectHash: SUBJECT })).toBe(
        `reviewer artifact admission binding_mismatch: reviewer result echoed a different artifact subject: ${CONTINUATION}, which is ${SUBJECT}`,
      );
    }
    const checkout = process.env["GENTLE_PI_CHECKOUT"];
    if (!checkout) return; // the checkout-backed comparison below needs GENTLE_PI_CHECKOUT
    const bundle = join(checkout, "contracts/review-provider-contract-mirror/v1.1.0/bundle");
    expect(JSON.parse(readFileSync(join(bundle, "vectors/lens.json"), "utf8"))).toEqual(vector);
  });

  it.skipIf(!process.env["GENTLE_PI_CHECKOUT"] || !existsSync(process.env["GENTLE_PI_CHECKOUT"] ?? ""))(
    "embeds the reviewer/v1 schema text gentle-pi mirrors (needs GENTLE_PI_CHECKOUT)",
    () => {
      const path = join(
        process.env["GENTLE_PI_CHECKOUT"]!,
        "contracts/review-provider-contract-mirror/v1.1.0/bundle/schemas/lens.schema.json",
      );
      expect(REVIEWER_RESULT_SCHEMA_TEXT).toBe(readFileSync(path, "utf8").trim());
    },
  );
});

describe("reviewer result admission: refusals in gentle-ai's order", () => {
  it("checks the raw payload, then extracts one bounded object", () => {
    expect(refusal("")).toBe(
      "reviewer result payload is empty or whitespace-only: the task may have completed without producing output",
    );
    expect(refusal("\u3000\n")).toBe(
      "reviewer result payload is empty or whitespace-only: the task may have completed without producing output",
    );
    const nested =
      "reviewer result payload contains a raw XML task envelope: extract the strict JSON reviewer output from <task_result> before capture";
    expect(refusal("<task_result>x</task_result>")).toBe(nested);
    expect(refusal(`${JSON.stringify(doc())}</task_result>`)).toBe(nested);
    // Valid JSON that merely mentions the tag is not an envelope.
    expect(refusal(JSON.stringify(doc({ x: "<task_result>" })))).toBe(
      'decode reviewer result: json: unknown field "x"',
    );
    expect(refusal("{")).toBe(
      "lens provider result admission incomplete: reviewer payload contains no complete JSON object",
    );
    expect(refusal(`${JSON.stringify(doc())} {`)).toBe(
      "lens provider result admission incomplete: reviewer payload contains no complete JSON object",
    );
    expect(refusal(Buffer.alloc(4 * 1024 * 1024 + 1, 0x61))).toBe(
      "lens provider result admission incomplete: reviewer payload is empty or exceeds the native bound",
    );
    expect(refusal("{}{}")).toBe(
      "lens provider result admission ambiguous: reviewer payload contains multiple JSON objects",
    );
  });

  it("decodes strictly into facadeReviewerResult: evidence is a list of strings", () => {
    const decode = (extra: Record<string, unknown>) => refusal(doc(extra));
    expect(decode({ x: 1, y: 2 })).toBe('decode reviewer result: json: unknown field "x"');
    expect(decode({ inspection: { status: "completed", paths: [], z: 1 } })).toBe(
      'decode reviewer result: json: unknown field "z"',
    );
    expect(decode({ subject_hash: 5 })).toBe(
      "decode reviewer result: json: cannot unmarshal number into Go struct field facadeReviewerResult.subject_hash of type string",
    );
    expect(decode({ inspection: { status: 5, paths: [] } })).toBe(
      "decode reviewer result: json: cannot unmarshal number into Go struct field ArtifactInspection.inspection.status of type reviewtransaction.ArtifactInspectionStatus",
    );
    expect(decode({ findings: {} })).toBe(
      "decode reviewer result: json: cannot unmarshal object into Go struct field facadeReviewerResult.findings of type []cli.facadeFinding",
    );
    expect(decode({ findings: [{ severity: 1 }] })).toBe(
      "decode reviewer result: json: cannot unmarshal number into Go struct field facadeFinding.findings.severity of type string",
    );
    expect(decode({ findings: [{ evidence_class: true }] })).toBe(
      "decode reviewer result: json: cannot unmarshal bool into Go struct field facadeFinding.findings.evidence_class of type reviewtransaction.EvidenceClass",
    );
    // The retired {id, path, observation} evidence objects.
    expect(decode({ evidence: [{ id: "E1", observation: "o" }] })).toBe(
      "decode reviewer result: json: cannot unmarshal object into Go struct field facadeReviewerResult.evidence of type string",
    );
    expect(decode({ evidence: null })).toBe("reviewer result requires explicit findings and evidence arrays");
    const { findings: _omit, ...noFindings } = doc();
    expect(refusal(noFindings)).toBe("reviewer result requires explicit findings and evidence arrays");
  });

  it("binds the selected lens and canonicalizes the lens result", () => {
    const c = (extra: Record<string, unknown>) => refusal(doc(extra));
    expect(c({ lens: "bogus" })).toBe('reviewer result 1: unsupported reviewer lens "bogus"');
    expect(c({ lens: "readability" })).toBe(
      'reviewer result 1 lens "readability" does not match selected lens "review-risk"',
    );
    const canon = "canonicalize reviewer result 1: ";
    expect(c({ evidence: [] })).toBe(`${canon}lens result requires explicit findings and concrete evidence`);
    expect(c({ evidence: [EVIDENCE, " n/a "] })).toBe(`${canon}lens result evidence[1] must be concrete`);
    expect(c({ findings: [finding({ claim: " " })] })).toBe(
      `${canon}lens result finding[0]: id, lens, location, severity, and neutral claim are required`,
    );
    expect(c({ findings: [finding({ proof_refs: [] })] })).toBe(
      `${canon}lens result finding[0]: at least one proof reference is required`,
    );
    expect(c({ findings: [finding({ severity: "HIGH" })] })).toBe(
      `${canon}lens result finding[0]: severity must be BLOCKER, CRITICAL, WARNING, or SUGGESTION`,
    );
    expect(c({ findings: [finding({ proof_refs: ["TBD"] })] })).toBe(
      `${canon}lens result finding[0]: proof references must be concrete`,
    );
    expect(c({ findings: [finding({ evidence_class: "strong" })] })).toBe(
      `${canon}lens result finding[0] has unsupported evidence class "strong"`,
    );
    expect(c({ findings: [finding({ causal_disposition: "caused" })] })).toBe(
      `${canon}lens result finding[0] has unsupported causal disposition "caused"`,
    );
    expect(c({ findings: [finding({ lens: "readability" })] })).toBe(
      `${canon}lens result finding[0] is not bound to "review-risk"`,
    );
    // CanonicalizeReviewerResult: explicit lens members and the finding-ID namespace.
    expect(c({ lens: "" })).toBe("reviewer result does not report the required selected-lens binding");
    expect(c({ findings: [finding({ lens: " risk" })] })).toBe(
      "reviewer result finding[0] has an invalid explicit lens",
    );
    expect(c({ findings: [finding({ id: "F-1" })] })).toBe(
      "reviewer finding ID does not match the native ASCII schema",
    );
    expect(c({ findings: [finding({ id: "R2-001" })] })).toBe(
      "reviewer finding ID is not bound to the selected lens: expected_prefix=R1- received_id=R2-001",
    );
    expect(c({ findings: [finding({ severity: "BLOCKER" })] })).toBe(
      "severe reviewer finding requires supported evidence_class and causal_disposition",
    );
  });

  it("refuses an unparsable causal location before the subject echo", () => {
    expect(refusal(doc({ subject_hash: "", findings: [critical({ location: "a.go" })] }))).toBe(
      'reviewer artifact admission out_of_scope: reviewer finding location is invalid; admission_diagnostic={"code":"invalid_finding_location","finding_id":"R1-001","reason":"expected_path_and_line"}',
    );
    expect(refusal(doc({ findings: [critical({ location: "a.go:0" })] }))).toBe(
      'reviewer artifact admission out_of_scope: reviewer finding location is invalid; admission_diagnostic={"code":"invalid_finding_location","finding_id":"R1-001","location":"a.go:0","reason":"line_must_be_positive"}',
    );
  });

  it("checks the subject echo, the inspection, citations and causality (AdmitArtifact)", () => {
    const a = (extra: Record<string, unknown>) => refusal(doc(extra));
    const p = "reviewer artifact admission ";
    expect(a({ subject_hash: "" })).toBe(
      `${p}incomplete: reviewer result omitted the provider-owned artifact subject: ${CONTINUATION} and a completed inspection envelope`,
    );
    expect(a({ subject_hash: "sha256:" + "9".repeat(64) })).toBe(
      `${p}binding_mismatch: reviewer result echoed a different artifact subject: ${CONTINUATION}, which is ${SUBJECT}`,
    );
    expect(a({ inspection: { status: "blocked", paths: ["a.go", "b.go"] } })).toBe(
      `${p}incomplete: reviewer did not report completed candidate inspection`,
    );
    expect(a({ inspection: { status: "completed", paths: ["a.go", "a.go", "b.go"] } })).toBe(
      `${p}out_of_scope: reviewer inspection paths are not canonical candidate paths`,
    );
    expect(a({ inspection: { status: "completed", paths: ["./a.go", "b.go"] } })).toBe(
      `${p}out_of_scope: reviewer inspection paths are not canonical candidate paths`,
    );
    expect(a({ inspection: { status: "completed", paths: ["a.go"] } })).toBe(
      `${p}incomplete: reviewer inspection did not cover the complete frozen path manifest; admission_diagnostic={"code":"inspection_coverage","reason":"missing_frozen_manifest_paths","missing_path_count":1}`,
    );
    expect(a({ inspection: { status: "completed", paths: ["a.go", "c.go"] } })).toBe(
      `${p}out_of_scope: reviewer inspection includes paths outside the frozen candidate; admission_diagnostic={"code":"inspection_coverage","reason":"missing_and_foreign_inspection_paths","missing_path_count":1,"foreign_path_count":1}`,
    );
    expect(a({ evidence: ["the candidate could not be inspected"] })).toBe(
      `${p}incomplete: reviewer evidence reports that candidate inspection was unavailable`,
    );
    expect(a({ evidence: ["compared with c.go:3"] })).toBe(
      `${p}out_of_scope: reviewer evidence references a path outside the frozen repository; admission_diagnostic={"code":"evidence_path_out_of_scope","location":"c.go:3","reason":"unknown_or_malformed_repository_path"}`,
    );
    // The offender is the raw token, so punctuation around it keeps the location out of the diagnostic.
    expect(a({ evidence: ["compared with (c.go:3)."] })).toBe(
      `${p}out_of_scope: reviewer evidence references a path outside the frozen repository; admission_diagnostic={"code":"evidence_path_out_of_scope","reason":"unknown_or_malformed_repository_path"}`,
    );
    expect(a({ evidence: ["see ../a.go:3"] })).toBe(
      `${p}out_of_scope: reviewer evidence references a path outside the frozen repository; admission_diagnostic={"code":"evidence_path_out_of_scope","reason":"unknown_or_malformed_repository_path"}`,
    );
    expect(a({ findings: [finding({ location: "c.go:1" })] })).toBe(
      `${p}out_of_scope: reviewer finding location is outside the frozen candidate`,
    );
    expect(a({ findings: [finding({ location: "a.go:2-1" })] })).toBe(
      `${p}out_of_scope: reviewer finding location is invalid; admission_diagnostic={"code":"invalid_finding_location","finding_id":"R1-001","location":"a.go:2-1","reason":"range_must_be_ascending"}`,
    );
    expect(a({ findings: [finding({ proof_refs: ["`c.go:2`"] })] })).toBe(
      `${p}out_of_scope: reviewer proof references a path outside the frozen repository; admission_diagnostic={"code":"proof_path_out_of_scope","finding_id":"R1-001","location":"c.go:2","reason":"unknown_or_malformed_repository_path"}`,
    );
    expect(a({ findings: [critical({ location: "a.go:3-4" })] })).toBe(
      `${p}out_of_scope: candidate-causal findings are not proven by repository-derived changed-line evidence; admission_diagnostic={"code":"candidate_causality_unproven","finding_id":"R1-001","location":"a.go:3-4","reason":"line_not_changed_by_candidate"}`,
    );
  });

  it("accepts non-path colon shapes in evidence and refuses duplicate explicit IDs", () => {
    expect(
      admitReviewerResult(
        Buffer.from(JSON.stringify(doc({ evidence: ["status:500 at host:8080, digest sha256:abc"] }))),
        BINDING,
      ).result.evidence,
    ).toEqual(["status:500 at host:8080, digest sha256:abc"]);
    expect(refusal(doc({ findings: [finding({ id: "R1-a" }), finding({ id: "R1-a" })] }))).toBe(
      "reviewer artifact admission ambiguous: reviewer result repeats a finding ID",
    );
  });
});

describe("Go strict decoding", () => {
  const T = { kind: "struct", name: "doc", fields: [{ json: "name", type: { kind: "string" } }] } as const;
  it("matches keys case-insensitively, keeps the last duplicate and reports EOF like a Decoder", () => {
    expect(decodeStrict('{"NAME":"a","name":"b"}', T, { pkg: "x" })).toEqual({ ok: true, value: { name: "b" } });
    expect(decodeStrict("  ", T, { pkg: "x" })).toEqual({ ok: false, error: "EOF" });
    expect(decodeStrict('{"name":"a"', T, { pkg: "x" })).toEqual({ ok: false, error: "unexpected EOF" });
    expect(decodeStrict('{"name":"a\u0001"}', T, { pkg: "x" })).toEqual({
      ok: false,
      error: "invalid character '\\x01' in string literal",
    });
    expect(decodeStrict('{"n\\u0007":1}', T, { pkg: "x" })).toEqual({ ok: false, error: 'json: unknown field "n\\a"' });
  });
});
