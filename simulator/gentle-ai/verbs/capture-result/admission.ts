// Reviewer-result admission for `capture-result --input` and `--preflight --input`, in gentle-ai's order
// (internal/cli/review_provider.go reviewProviderAdmitRaw at fb55ef7b):
//   1. raw payload checks (review_artifact.go validateReviewerResultPayload): empty, raw <task_result> envelope;
//   2. one bounded JSON object extracted from surrounding prose (artifact_admission.go ExtractBoundedSingleJSONObject);
//   3. strict decode into facadeReviewerResult (review_facade.go:458), explicit findings and evidence arrays;
//   4. the selected-lens check and canonical lens result (review_facade.go prepareCompactReviewerResults);
//   5. CanonicalizeReviewerResult (reviewer_envelope.go): explicit lens binding, finding lenses, ID namespace,
//      severe-finding causal fields;
//   6. candidate causality of severe introduced/behavior-activated/worsened findings (verifiedCandidateCausalFindingIDs);
//   7. AdmitArtifact: subject echo, inspection coverage, citations, locations (admission-scope.ts).
// Every refusal is an `[invalid_request]` with Go's error text.
import type { ManifestEntry } from "../../../state/identities.ts";
import { invalidRequest } from "../../refusal.ts";
import type { ReviewRefusal } from "../../refusal.ts";
import { goQuoteStr } from "../../../go/go-quote.ts";
import { decodeStrict } from "../../../go/go-decode.ts";
import type { Decoded, GoType } from "../../../go/go-decode.ts";
import { canonicalCompactLensResult, canonicalReviewerResult, isSevere, isSupportedLens } from "./lens-result.ts";
import type { CanonicalLensResult, LensFinding } from "./lens-result.ts";
import {
  AdmissionError,
  admitScope,
  canonicalPaths,
  locationAdmissionError,
  parseFindingLocation,
  supportsCausality,
} from "./admission-scope.ts";
import type { Inspection } from "./admission-scope.ts";

/** The lens role's ResultLimit (internal/reviewerprovider/contract.go: 4 << 20). */
export const REVIEWER_PAYLOAD_BOUND = 4 << 20;

const S = { kind: "string" } as const;
const STRINGS = { kind: "slice", elem: S } as const;

/** facadeReviewerResult as Go declares it (review_facade.go:447-464); type names as Go prints them in errors. */
export const REVIEWER_RESULT_TYPE: GoType = {
  kind: "struct",
  name: "facadeReviewerResult",
  fields: [
    { json: "subject_hash", type: S },
    {
      json: "inspection",
      type: {
        kind: "struct",
        name: "ArtifactInspection",
        pkg: "reviewtransaction",
        fields: [
          { json: "status", type: { kind: "string", named: "reviewtransaction.ArtifactInspectionStatus" } },
          { json: "paths", type: STRINGS },
        ],
      },
    },
    { json: "lens", type: S },
    {
      json: "findings",
      type: {
        kind: "slice",
        elem: {
          kind: "struct",
          name: "facadeFinding",
          fields: [
            { json: "id", type: S },
            { json: "lens", type: S },
            { json: "location", type: S },
            { json: "severity", type: S },
            { json: "claim", type: S },
            { json: "proof_refs", type: STRINGS },
            { json: "evidence_class", type: { kind: "string", named: "reviewtransaction.EvidenceClass" } },
            { json: "causal_disposition", type: { kind: "string", named: "reviewtransaction.CausalDisposition" } },
          ],
        },
      },
    },
    { json: "evidence", type: STRINGS },
  ],
};

/** The selected lens slot and frozen candidate a result must bind. */
export interface AdmissionBinding {
  /** The selected lens (`review-*`). */
  readonly lens: string;
  /** The slot's artifact subject hash. */
  readonly subjectHash: string;
  /** The frozen changed-path manifest, in snapshot order. */
  readonly manifest: readonly ManifestEntry[];
}

/** The admitted result, as capture publishes it. */
export interface Admitted {
  /** The canonical lens result (trimmed, IDs assigned, lenses short). */
  readonly result: CanonicalLensResult;
  /** The reported inspection status and its canonical (sorted) paths. */
  readonly inspection: { readonly status: string; readonly paths: readonly string[] };
  /** Canonical candidate-causal finding IDs. */
  readonly candidateCausalFindingIds: readonly string[];
}

// bytes.TrimSpace / unicode.IsSpace: BOM (U+FEFF) is not a space in Go.
const GO_SPACE_ONLY = /^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*$/;

function jsonValid(bytes: Buffer): boolean {
  try {
    JSON.parse(bytes.toString("utf8"));
    return true;
  } catch {
    return false;
  }
}

function isJsonObject(bytes: Buffer): boolean {
  try {
    const v: unknown = JSON.parse(bytes.toString("utf8"));
    return v !== null && typeof v === "object" && !Array.isArray(v);
  } catch {
    return false;
  }
}

const OPEN = 0x7b;
const CLOSE = 0x7d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** ExtractBoundedSingleJSONObject: the one complete JSON object among prose, or its decision and reason. */
export function extractSingleObject(
  payload: Buffer,
  limit: number,
): Buffer | { readonly decision: string; readonly reason: string } {
  if (limit <= 0 || payload.length === 0 || payload.length > limit)
    return { decision: "incomplete", reason: "reviewer payload is empty or exceeds the native bound" };
  const candidates: [number, number][] = [];
  let start = -1;
  let depth = 0;
  let inString = false;
  let escaped = false;
  for (let index = 0; index < payload.length; index++) {
    const value = payload[index]!;
    if (depth === 0) {
      if (value === OPEN) {
        start = index;
        depth = 1;
        inString = false;
        escaped = false;
      }
      continue;
    }
    if (inString) {
      if (escaped) escaped = false;
      else if (value === BACKSLASH) escaped = true;
      else if (value === QUOTE) inString = false;
      continue;
    }
    if (value === QUOTE) inString = true;
    else if (value === OPEN) depth++;
    else if (value === CLOSE) {
      depth--;
      if (depth === 0) {
        // A span that is not a JSON object is prose, not a candidate.
        if (isJsonObject(payload.subarray(start, index + 1))) candidates.push([start, index + 1]);
        start = -1;
      }
    }
  }
  if (depth !== 0 || candidates.length === 0)
    return { decision: "incomplete", reason: "reviewer payload contains no complete JSON object" };
  if (candidates.length !== 1)
    return { decision: "ambiguous", reason: "reviewer payload contains multiple JSON objects" };
  const [s, e] = candidates[0]!;
  return Buffer.from(payload.subarray(s, e));
}

function str(v: Decoded | undefined): string {
  return typeof v === "string" ? v : "";
}

function list(v: Decoded | undefined): Decoded[] | null {
  return Array.isArray(v) ? v : null;
}

function rec(v: Decoded | undefined): { [k: string]: Decoded } {
  return v !== null && v !== undefined && typeof v === "object" && !Array.isArray(v) ? v : {};
}

function strings(v: Decoded | undefined): string[] | null {
  const l = list(v);
  return l === null ? null : l.map(str);
}

function finding(v: Decoded): LensFinding {
  const f = rec(v);
  return {
    id: str(f["id"]),
    lens: str(f["lens"]),
    location: str(f["location"]),
    severity: str(f["severity"]),
    claim: str(f["claim"]),
    proofRefs: strings(f["proof_refs"]),
    evidenceClass: str(f["evidence_class"]),
    causalDisposition: str(f["causal_disposition"]),
  };
}

/** nativeFacadeReviewerLens: the short or `review-` form of a lens, or undefined. */
function nativeLens(lens: string): string | undefined {
  if (isSupportedLens(lens)) return lens;
  return isSupportedLens(`review-${lens}`) ? `review-${lens}` : undefined;
}

function isPublishedFindingLens(lens: string): boolean {
  return isSupportedLens(lens) || isSupportedLens(`review-${lens}`);
}

/** canonicalReviewerLens + validateExplicitReviewerFindingFields over the raw object's exact keys. */
function explicitFieldChecks(fields: Record<string, unknown>, expectedLens: string): void {
  if (Object.prototype.hasOwnProperty.call(fields, "lens")) {
    const lens = fields["lens"];
    const value = typeof lens === "string" ? lens : lens === null ? "" : undefined;
    if (value === undefined || (value !== expectedLens && value !== expectedLens.slice("review-".length)))
      throw invalidRequest("reviewer result does not report the required selected-lens binding");
  }
  const findings = fields["findings"];
  if (findings === undefined || (findings !== null && !Array.isArray(findings)))
    throw invalidRequest("reviewer result findings do not match the required schema");
  for (const [index, item] of (findings ?? []).entries()) {
    if (item !== null && (typeof item !== "object" || Array.isArray(item)))
      throw invalidRequest("reviewer result findings do not match the required schema");
    const f = (item ?? {}) as Record<string, unknown>;
    if (!Object.prototype.hasOwnProperty.call(f, "lens")) continue;
    const lens = f["lens"];
    const value = typeof lens === "string" ? lens : lens === null ? "" : undefined;
    if (value === undefined || !isPublishedFindingLens(value))
      throw invalidRequest(`reviewer result finding[${index}] has an invalid explicit lens`);
  }
}

function refusalOf(error: AdmissionError): ReviewRefusal {
  return invalidRequest(error.message);
}

/** Admits raw reviewer-result bytes for one selected lens slot, throwing gentle-ai's `[invalid_request]` refusals. */
export function admitReviewerResult(raw: Buffer, binding: AdmissionBinding): Admitted {
  // 1. validateReviewerResultPayload
  if (GO_SPACE_ONLY.test(raw.toString("utf8")))
    throw invalidRequest(
      "reviewer result payload is empty or whitespace-only: the task may have completed without producing output",
    );
  if ((raw.includes("<task_result>") || raw.includes("</task_result>")) && !jsonValid(raw))
    throw invalidRequest(
      "reviewer result payload contains a raw XML task envelope: extract the strict JSON reviewer output from <task_result> before capture",
    );
  // 2. reviewProviderExtractRoleRaw
  const payload = extractSingleObject(raw, REVIEWER_PAYLOAD_BOUND);
  if (!Buffer.isBuffer(payload))
    throw invalidRequest(`lens provider result admission ${payload.decision}: ${payload.reason}`);
  const text = payload.toString("utf8");
  // 3. decodeFacadeJSONBytes into facadeReviewerResult
  const decoded = decodeStrict(text, REVIEWER_RESULT_TYPE, { pkg: "cli" });
  if (!decoded.ok) throw invalidRequest(`decode reviewer result: ${decoded.error}`);
  const result = rec(decoded.value);
  const findings = list(result["findings"]);
  const evidence = strings(result["evidence"]);
  if (findings === null || evidence === null)
    throw invalidRequest("reviewer result requires explicit findings and evidence arrays");
  const facadeFindings = findings.map(finding);
  // 4. prepareCompactReviewerResults for the one selected lens
  const lens = str(result["lens"]);
  if (lens !== "") {
    const provided = nativeLens(lens);
    if (provided === undefined)
      throw invalidRequest(`reviewer result 1: unsupported reviewer lens ${goQuoteStr(lens)}`);
    if (provided !== binding.lens)
      throw invalidRequest(
        `reviewer result 1 lens ${goQuoteStr(lens)} does not match selected lens ${goQuoteStr(binding.lens)}`,
      );
  }
  const prepared = canonicalCompactLensResult({ lens: binding.lens, findings: facadeFindings, evidence });
  if ("error" in prepared) throw invalidRequest(`canonicalize reviewer result 1: ${prepared.error}`);
  // 5. CanonicalizeReviewerResult (a second strict decode into the same field set cannot fail differently here)
  explicitFieldChecks(JSON.parse(text) as Record<string, unknown>, binding.lens);
  const canonical = canonicalReviewerResult({ lens: binding.lens, findings: facadeFindings, evidence }, binding.lens);
  if ("error" in canonical) throw invalidRequest(canonical.error);
  if ("shape" in canonical) throw invalidRequest(canonical.shape.message);
  // 6. verifiedCandidateCausalFindingIDs
  const verified: string[] = [];
  for (const f of canonical.findings) {
    if (!isSevere(f.severity)) continue; // canonical severities are already trimmed and upper-cased (facadeSevere)
    if (!["introduced", "behavior-activated", "worsened"].includes(f.causalDisposition)) continue;
    const location = parseFindingLocation(f.location);
    if ("reason" in location) throw refusalOf(locationAdmissionError(f.id, f.location, location.reason));
    if (supportsCausality(binding.manifest, location, f.causalDisposition)) verified.push(f.id);
  }
  // 7. AdmitArtifact
  const inspectionRec = rec(result["inspection"]);
  const inspection: Inspection = { status: str(inspectionRec["status"]), paths: strings(inspectionRec["paths"]) };
  let causal: string[];
  try {
    causal = admitScope(binding, str(result["subject_hash"]), inspection, canonical, verified);
  } catch (e) {
    if (e instanceof AdmissionError) throw refusalOf(e);
    throw e;
  }
  return {
    result: canonical,
    inspection: { status: inspection.status, paths: canonicalPaths(inspection.paths ?? []) ?? [] },
    candidateCausalFindingIds: causal,
  };
}
