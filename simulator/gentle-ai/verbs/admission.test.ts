import { describe, expect, it } from "vitest";
import { admitReviewerResult } from "./admission.ts";
import { decodeStrict } from "./go-decode.ts";
import { ReviewRefusal } from "../refusal.ts";

const SUBJECT = "sha256:" + "1".repeat(64);
const BINDING = { lens: "review-risk", subjectHash: SUBJECT, paths: ["a.go", "b.go"] };

function doc(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { subject_hash: SUBJECT, inspection: { status: "completed", paths: ["a.go", "b.go"] }, lens: "review-risk", findings: [], evidence: [], ...extra };
}

function refusal(raw: string | Buffer): string {
  try {
    admitReviewerResult(Buffer.from(raw), BINDING);
  } catch (e) {
    if (e instanceof ReviewRefusal) {
      expect(e.code).toBe("invalid_request");
      return e.text;
    }
    throw e;
  }
  throw new Error("expected a refusal");
}

describe("reviewer result admission", () => {
  it("admits the fake pi's result and canonicalizes to Go struct order", () => {
    const a = admitReviewerResult(Buffer.from(`${JSON.stringify(doc())}\n`), BINDING);
    expect(a.canonical.toString()).toBe(`{"subject_hash":"${SUBJECT}","inspection":{"status":"completed","paths":["a.go","b.go"]},"lens":"review-risk","findings":[],"evidence":[]}`);
    // Field order, spacing and prose around the object do not change the canonical bytes.
    const reordered = `Here you go:\n{"evidence":[],"findings":[],"lens":"review-risk","inspection":{"paths":["a.go","b.go"],"status":"completed"},"subject_hash":"${SUBJECT}"}\nthanks`;
    expect(admitReviewerResult(Buffer.from(reordered), BINDING).canonical.equals(a.canonical)).toBe(true);
  });

  it("follows the documented order of refusals", () => {
    expect(refusal("")).toBe("reviewer result payload is empty or whitespace-only: the task may have completed without producing output");
    expect(refusal("\u3000\n")).toBe("reviewer result payload is empty or whitespace-only: the task may have completed without producing output");
    expect(refusal("<task_result>x</task_result>")).toBe(
      "reviewer result payload contains a raw XML task envelope: extract the strict JSON reviewer output from <task_result> before capture",
    );
    expect(refusal("{")).toBe("lens provider result admission incomplete: reviewer payload contains no complete JSON object");
    expect(refusal(Buffer.alloc(4 * 1024 * 1024 + 1, 0x61))).toBe(
      "lens provider result admission incomplete: reviewer payload is empty or exceeds the native bound",
    );
    expect(refusal("{}{}")).toBe("lens provider result admission ambiguous: reviewer payload contains multiple JSON objects");
    expect(refusal(JSON.stringify(doc({ x: 1, y: 2 })))).toBe('decode reviewer result: json: unknown field "x"');
    expect(refusal(JSON.stringify(doc({ inspection: { status: "completed", paths: [], z: 1 } })))).toBe('decode reviewer result: json: unknown field "z"');
    expect(refusal(JSON.stringify(doc({ subject_hash: 5 })))).toBe(
      "decode reviewer result: json: cannot unmarshal number into Go struct field reviewerResult.subject_hash of type string",
    );
    expect(refusal(JSON.stringify(doc({ findings: {} })))).toBe(
      "decode reviewer result: json: cannot unmarshal object into Go struct field reviewerResult.findings of type []cli.reviewerFinding",
    );
    expect(refusal(`{"subject_hash": tru}`)).toBe("decode reviewer result: invalid character '}' in literal true (expecting 'e')");
    expect(refusal(`{"a" 1}`)).toBe("decode reviewer result: invalid character '1' after object key");
    expect(refusal(`${JSON.stringify(doc())} []`)).toBe("decode reviewer result: input contains multiple JSON values");
    expect(refusal(JSON.stringify(doc({ evidence: null })))).toBe("reviewer result requires explicit findings and evidence arrays");
    const { findings: _omit, ...noFindings } = doc();
    expect(refusal(JSON.stringify(noFindings))).toBe("reviewer result requires explicit findings and evidence arrays");
  });

  it("applies semantic admission with the documented decisions", () => {
    expect(refusal(JSON.stringify(doc({ inspection: { status: "partial", paths: ["a.go", "b.go"] } })))).toBe(
      'reviewer artifact admission incomplete: inspection status "partial" is not completed',
    );
    expect(refusal(JSON.stringify(doc({ lens: "review-readability" })))).toBe(
      'reviewer artifact admission binding_mismatch: lens "review-readability" does not match the selected lens "review-risk"',
    );
    expect(refusal(JSON.stringify(doc({ inspection: { status: "completed", paths: ["a.go", "c.go"] } })))).toBe(
      'reviewer artifact admission out_of_scope: inspected path "c.go" is outside the changed-path manifest',
    );
    expect(refusal(JSON.stringify(doc({ inspection: { status: "completed", paths: ["a.go"] } })))).toBe(
      'reviewer artifact admission incomplete: inspection omits changed path "b.go"',
    );
    const finding = { id: "F1", location: "a.go:1", severity: "CRITICAL", claim: "c", proof_refs: ["E1"] };
    const evidence = [{ id: "E1", observation: "o" }];
    expect(refusal(JSON.stringify(doc({ findings: [finding], evidence })))).toBe(
      "reviewer artifact admission incomplete: finding F1 severity CRITICAL requires evidence_class and causal_disposition",
    );
    expect(refusal(JSON.stringify(doc({ findings: [{ ...finding, severity: "HIGH" }], evidence })))).toBe(
      'reviewer artifact admission ambiguous: finding F1 severity "HIGH" is not one of BLOCKER, CRITICAL, WARNING, SUGGESTION',
    );
    expect(refusal(JSON.stringify(doc({ findings: [{ ...finding, severity: "WARNING", proof_refs: [] }], evidence })))).toBe(
      "reviewer artifact admission incomplete: finding F1 requires at least one proof_ref",
    );
    const ok = admitReviewerResult(
      Buffer.from(JSON.stringify(doc({ findings: [{ ...finding, evidence_class: "direct", causal_disposition: "candidate_caused" }], evidence }))),
      BINDING,
    );
    expect(ok.canonical.toString()).toContain('"findings":[{"id":"F1","location":"a.go:1","severity":"CRITICAL","claim":"c","proof_refs":["E1"],"evidence_class":"direct","causal_disposition":"candidate_caused"}]');
  });
});

describe("Go strict decoding", () => {
  const T = { kind: "struct", name: "doc", fields: [{ json: "name", type: { kind: "string" } }] } as const;
  it("matches keys case-insensitively, keeps the last duplicate and reports EOF like a Decoder", () => {
    expect(decodeStrict('{"NAME":"a","name":"b"}', T, { pkg: "x" })).toEqual({ ok: true, value: { name: "b" } });
    expect(decodeStrict("  ", T, { pkg: "x" })).toEqual({ ok: false, error: "EOF" });
    expect(decodeStrict('{"name":"a"', T, { pkg: "x" })).toEqual({ ok: false, error: "unexpected EOF" });
    expect(decodeStrict('{"name":"a\u0001"}', T, { pkg: "x" })).toEqual({ ok: false, error: "invalid character '\\x01' in string literal" });
  });
});
