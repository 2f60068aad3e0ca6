// Reviewer-result admission for `capture-result --input` (provider reference §7.4, reviewProviderAdmitRaw).
//
// The fake pi (simulator/pi) answers a materialized prompt with exactly
//   {"subject_hash": <binding subject_hash>, "inspection": {"status":"completed","paths":[<NAME_STATUS paths>]},
//    "lens": <binding lens>, "findings": [], "evidence": []}
// and this admission accepts exactly that (the canonical bytes are the Go re-marshal of the decoded struct).
import { goMarshal } from "../../output/go-json.ts";
import type { GoJson } from "../../output/go-json.ts";
import { invalidRequest } from "../refusal.ts";
import { decodeStrict } from "./go-decode.ts";
import type { Decoded, GoType } from "./go-decode.ts";

/** The native bound on a reviewer payload (inferred: the same 4 MiB as the lens-context budget). */
export const REVIEWER_PAYLOAD_BOUND = 4 * 1024 * 1024;

export const SEVERITIES = ["BLOCKER", "CRITICAL", "WARNING", "SUGGESTION"] as const;

const S = { kind: "string" } as const;
const STRINGS = { kind: "slice", elem: S } as const;

/** The reviewer/v1 struct as Go declares it (field order = canonical marshal order). Type names are inferred. */
export const REVIEWER_RESULT_TYPE: GoType = {
  kind: "struct",
  name: "reviewerResult",
  fields: [
    { json: "subject_hash", type: S },
    { json: "inspection", type: { kind: "struct", name: "reviewerInspection", fields: [{ json: "status", type: S }, { json: "paths", type: STRINGS }] } },
    { json: "lens", type: S },
    {
      json: "findings",
      type: {
        kind: "slice",
        elem: {
          kind: "struct",
          name: "reviewerFinding",
          fields: [
            { json: "id", type: S },
            { json: "lens", type: S },
            { json: "location", type: S },
            { json: "severity", type: S },
            { json: "claim", type: S },
            { json: "proof_refs", type: STRINGS },
            { json: "evidence_class", type: S },
            { json: "causal_disposition", type: S },
          ],
        },
      },
    },
    {
      json: "evidence",
      type: {
        kind: "slice",
        // (inferred) evidence entry shape: the reference leaves it open.
        elem: { kind: "struct", name: "reviewerEvidence", fields: [{ json: "id", type: S }, { json: "path", type: S }, { json: "observation", type: S }] },
      },
    },
  ],
};

/** What the slot binds the result to. */
export interface AdmissionBinding {
  readonly lens: string;
  readonly subjectHash: string;
  /** Paths of the changed-path manifest (the prompt's NAME_STATUS block). */
  readonly paths: readonly string[];
}

// bytes.TrimSpace / unicode.IsSpace: BOM (U+FEFF) is not a space in Go.
const GO_SPACE = /^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*$/;
const GO_TRIM = /^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+|[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+$/g;

function isValidJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** Top-level `{…}` spans in prose (strings inside objects respected); stops at an unterminated object. */
function objectSpans(text: string): [number, number][] {
  const spans: [number, number][] = [];
  let i = 0;
  while (i < text.length) {
    if (text[i] !== "{") {
      i++;
      continue;
    }
    let depth = 0;
    let inString = false;
    let j = i;
    for (; j < text.length; j++) {
      const c = text[j]!;
      if (inString) {
        if (c === "\\") j++;
        else if (c === '"') inString = false;
      } else if (c === '"') inString = true;
      else if (c === "{") depth++;
      else if (c === "}" && --depth === 0) break;
    }
    if (j >= text.length) break;
    spans.push([i, j + 1]);
    i = j + 1;
  }
  return spans;
}

function str(v: Decoded | undefined): string {
  return typeof v === "string" ? v : "";
}

function list(v: Decoded | undefined): Decoded[] | null {
  return Array.isArray(v) ? v : null;
}

function rec(v: Decoded | undefined): { [k: string]: Decoded } {
  return v !== null && typeof v === "object" && !Array.isArray(v) ? v : {};
}

function semantic(decision: string, diagnostic: string): Error {
  return invalidRequest(`reviewer artifact admission ${decision}: ${diagnostic}`);
}

/** Semantic admission (inferred diagnostics; the decision vocabulary is the documented one). */
function admitSemantics(result: { [k: string]: Decoded }, binding: AdmissionBinding): void {
  const inspection = rec(result["inspection"]);
  const status = str(inspection["status"]);
  if (status !== "completed") throw semantic("incomplete", `inspection status ${JSON.stringify(status)} is not completed`);
  if (str(result["subject_hash"]) !== binding.subjectHash)
    throw semantic("binding_mismatch", "subject_hash does not match the provider-issued artifact subject");
  const lens = str(result["lens"]);
  if (lens !== "" && lens !== binding.lens)
    throw semantic("binding_mismatch", `lens ${JSON.stringify(lens)} does not match the selected lens ${JSON.stringify(binding.lens)}`);
  const paths = (list(inspection["paths"]) ?? []).map(str);
  const seen = new Set<string>();
  for (const p of paths) {
    if (!binding.paths.includes(p)) throw semantic("out_of_scope", `inspected path ${JSON.stringify(p)} is outside the changed-path manifest`);
    if (seen.has(p)) throw semantic("ambiguous", `inspected path ${JSON.stringify(p)} is listed more than once`);
    seen.add(p);
  }
  for (const p of binding.paths) if (!seen.has(p)) throw semantic("incomplete", `inspection omits changed path ${JSON.stringify(p)}`);
  const evidenceIds = new Set<string>();
  (list(result["evidence"]) ?? []).forEach((e, i) => {
    const id = str(rec(e)["id"]);
    if (id === "") throw semantic("incomplete", `evidence ${i} has no id`);
    if (evidenceIds.has(id)) throw semantic("ambiguous", `evidence id ${JSON.stringify(id)} is not unique`);
    evidenceIds.add(id);
  });
  (list(result["findings"]) ?? []).forEach((f0, i) => {
    const f = rec(f0);
    const name = str(f["id"]) || String(i);
    const severity = str(f["severity"]);
    if (!(SEVERITIES as readonly string[]).includes(severity))
      throw semantic("ambiguous", `finding ${name} severity ${JSON.stringify(severity)} is not one of ${SEVERITIES.join(", ")}`);
    const fl = str(f["lens"]);
    if (fl !== "" && fl !== binding.lens) throw semantic("binding_mismatch", `finding ${name} lens ${JSON.stringify(fl)} does not match the selected lens`);
    if (str(f["location"]) === "" || str(f["claim"]) === "") throw semantic("incomplete", `finding ${name} requires a location and a claim`);
    const refs = (list(f["proof_refs"]) ?? []).map(str);
    if (refs.length === 0) throw semantic("incomplete", `finding ${name} requires at least one proof_ref`);
    for (const r of refs)
      if (!evidenceIds.has(r)) throw semantic("incomplete", `finding ${name} proof_ref ${JSON.stringify(r)} names no evidence entry`);
    if ((severity === "BLOCKER" || severity === "CRITICAL") && (str(f["evidence_class"]) === "" || str(f["causal_disposition"]) === ""))
      throw semantic("incomplete", `finding ${name} severity ${severity} requires evidence_class and causal_disposition`);
  });
}

/** Go re-marshal of the decoded result in struct order (omitempty on the optional strings). */
function canonicalOf(result: { [k: string]: Decoded }): Buffer {
  const inspection = rec(result["inspection"]);
  const opt = (v: Decoded | undefined) => (str(v) === "" ? undefined : str(v));
  const strings = (v: Decoded | undefined): GoJson => (list(v) === null ? null : list(v)!.map(str));
  const doc: GoJson = {
    subject_hash: str(result["subject_hash"]),
    inspection: { status: str(inspection["status"]), paths: strings(inspection["paths"]) },
    lens: opt(result["lens"]),
    findings: (list(result["findings"]) ?? []).map((f0) => {
      const f = rec(f0);
      return {
        id: opt(f["id"]),
        lens: opt(f["lens"]),
        location: str(f["location"]),
        severity: str(f["severity"]),
        claim: str(f["claim"]),
        proof_refs: strings(f["proof_refs"]),
        evidence_class: opt(f["evidence_class"]),
        causal_disposition: opt(f["causal_disposition"]),
      };
    }),
    evidence: (list(result["evidence"]) ?? []).map((e0) => {
      const e = rec(e0);
      return { id: str(e["id"]), path: opt(e["path"]), observation: str(e["observation"]) };
    }),
  };
  return Buffer.from(goMarshal(doc), "utf8");
}

/** The admitted result: canonical bytes plus the decoded findings (sim-correction reads severities from them). */
export interface Admitted {
  readonly canonical: Buffer;
  readonly result: { [k: string]: Decoded };
}

/**
 * Admits raw reviewer-result bytes in the documented order, throwing `[invalid_request]` refusals.
 * (inferred) A payload that starts with `{` is decoded whole (so trailing values give "multiple JSON values");
 * otherwise the single object found in the surrounding prose is decoded.
 */
export function admitReviewerResult(raw: Buffer, binding: AdmissionBinding): Admitted {
  const text = raw.toString("utf8");
  if (GO_SPACE.test(text))
    throw invalidRequest("reviewer result payload is empty or whitespace-only: the task may have completed without producing output");
  const trimmed = text.replace(GO_TRIM, "");
  if (trimmed.includes("<task_result>") && !isValidJson(trimmed))
    throw invalidRequest(
      "reviewer result payload contains a raw XML task envelope: extract the strict JSON reviewer output from <task_result> before capture",
    );
  if (raw.length > REVIEWER_PAYLOAD_BOUND)
    throw invalidRequest("lens provider result admission incomplete: reviewer payload is empty or exceeds the native bound");
  const spans = objectSpans(trimmed);
  if (spans.length === 0) throw invalidRequest("lens provider result admission incomplete: reviewer payload contains no complete JSON object");
  if (spans.length > 1) throw invalidRequest("lens provider result admission ambiguous: reviewer payload contains multiple JSON objects");
  const candidate = trimmed.startsWith("{") ? trimmed : trimmed.slice(spans[0]![0], spans[0]![1]);
  const decoded = decodeStrict(candidate, REVIEWER_RESULT_TYPE, { pkg: "cli" });
  if (!decoded.ok) throw invalidRequest(`decode reviewer result: ${decoded.error}`);
  const result = rec(decoded.value);
  if (list(result["findings"]) === null || list(result["evidence"]) === null)
    throw invalidRequest("reviewer result requires explicit findings and evidence arrays");
  admitSemantics(result, binding);
  return { canonical: canonicalOf(result), result };
}
