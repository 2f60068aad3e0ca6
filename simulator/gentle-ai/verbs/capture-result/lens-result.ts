// The native lens-result rules gentle-ai applies to a reviewer result before any scope check: the canonical form
// (internal/reviewtransaction/transaction.go canonicalLensResult, CanonicalCompactLensResult), the reviewer-shape
// checks (reviewer_envelope.go canonicalReviewerResult) and the result hash (transaction.go LensResultHash).
import { goMarshal } from "../../../go/go-json.ts";
import type { GoJson } from "../../../go/go-json.ts";
import { sha256Prefixed } from "../../../state/identities.ts";
import { goQuoteStr } from "../../../go/go-quote.ts";

/** The four lenses in gentle-ai's supportedLenses order (transaction.go:31). */
export const SUPPORTED_LENSES = [
  "review-risk",
  "review-resilience",
  "review-readability",
  "review-reliability",
] as const;

/** findingIDPrefixByLens (reviewer_envelope.go:151): bound to the lens, not the selection order. */
export const FINDING_ID_PREFIX: Readonly<Record<string, string>> = {
  "review-risk": "R1-",
  "review-readability": "R2-",
  "review-reliability": "R3-",
  "review-resilience": "R4-",
};

export const SEVERITIES = ["BLOCKER", "CRITICAL", "WARNING", "SUGGESTION"] as const;
export const EVIDENCE_CLASSES = ["deterministic", "inferential", "insufficient"] as const;
export const CAUSAL_DISPOSITIONS = [
  "introduced",
  "behavior-activated",
  "worsened",
  "pre-existing",
  "base-only",
  "unknown",
] as const;

/** artifactFindingID (artifact_admission.go:510). */
export const FINDING_ID = /^R[1-4]-[A-Za-z0-9][A-Za-z0-9._-]*$/;

// unicode.IsSpace: what strings.TrimSpace and strings.Fields cut (U+FEFF is not a space in Go).
const SPACE_CLASS = "\\t\\n\\v\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
const TRIM = new RegExp(`^[${SPACE_CLASS}]+|[${SPACE_CLASS}]+$`, "g");
const SPACES = new RegExp(`[${SPACE_CLASS}]+`);

/** strings.TrimSpace. */
export function goTrimSpace(s: string): string {
  return s.replace(TRIM, "");
}

/** strings.Fields. */
export function goFields(s: string): string[] {
  return s.split(SPACES).filter((f) => f !== "");
}

/** strings.ToUpper rune by rune (a rune with no single-rune upper case stays as it is, unlike JS's ß → SS). */
export function goToUpper(s: string): string {
  let out = "";
  for (const ch of s) {
    const up = ch.toUpperCase();
    out += [...up].length === 1 ? up : ch;
  }
  return out;
}

/** One finding as gentle-ai's Finding struct carries it (all strings; proof_refs null when absent). */
export interface LensFinding {
  readonly id: string;
  readonly lens: string;
  readonly location: string;
  readonly severity: string;
  readonly claim: string;
  readonly proofRefs: readonly string[] | null;
  readonly evidenceClass: string;
  readonly causalDisposition: string;
}

/** A native lens result: the selected lens, its findings and its evidence strings (null = a JSON null / absent). */
export interface LensResult {
  readonly lens: string;
  readonly findings: readonly LensFinding[] | null;
  readonly evidence: readonly string[] | null;
}

/** A lens result after canonicalization, with its derived result hash. */
export interface CanonicalLensResult {
  readonly lens: string;
  readonly findings: readonly LensFinding[];
  readonly evidence: readonly string[];
  readonly resultHash: string;
}

/** isSupportedLens. */
export function isSupportedLens(lens: string): boolean {
  return (SUPPORTED_LENSES as readonly string[]).includes(lens);
}

/** isConcreteEvidence (transaction.go:1690): non-blank and not one of the placeholder words. */
export function isConcreteEvidence(value: string): boolean {
  const trimmed = goTrimSpace(value);
  if (trimmed === "") return false;
  return !["n/a", "na", "none", "todo", "tbd", "pass", "passed", "success", "placeholder"].includes(
    trimmed.toLowerCase(),
  );
}

/** isSevereSeverity. */
export function isSevere(severity: string): boolean {
  return severity === "BLOCKER" || severity === "CRITICAL";
}

/** A finding as Go marshals reviewtransaction.Finding: id always, every other member omitempty. */
export function findingJson(f: LensFinding): GoJson {
  const opt = (v: string) => (v === "" ? undefined : v);
  return {
    id: f.id,
    lens: opt(f.lens),
    location: opt(f.location),
    severity: opt(f.severity),
    claim: opt(f.claim),
    proof_refs: f.proofRefs === null || f.proofRefs.length === 0 ? undefined : [...f.proofRefs],
    evidence_class: opt(f.evidenceClass),
    causal_disposition: opt(f.causalDisposition),
  };
}

function stringsJson(values: readonly string[] | null): GoJson {
  return values === null ? null : [...values];
}

/** LensResultHash: sha256 over `gentle-ai.lens-result/v1\0` and the compact {lens, findings, evidence}. */
export function lensResultHash(lens: string, findings: readonly LensFinding[], evidence: readonly string[]): string {
  const payload = goMarshal({ lens, findings: findings.map(findingJson), evidence: stringsJson(evidence) });
  return sha256Prefixed(
    Buffer.concat([Buffer.from("gentle-ai.lens-result/v1\u0000", "utf8"), Buffer.from(payload, "utf8")]),
  );
}

function validateStructuredFinding(f: LensFinding, allowMissingSevereLocation: boolean): string | undefined {
  const location = allowMissingSevereLocation && isSevere(f.severity) && f.location === "" ? "<missing>" : f.location;
  if ([f.id, f.lens, location, f.severity, f.claim].some((v) => goTrimSpace(v) === ""))
    return "id, lens, location, severity, and neutral claim are required";
  if (f.proofRefs === null || f.proofRefs.length === 0) return "at least one proof reference is required";
  if (!(SEVERITIES as readonly string[]).includes(f.severity))
    return "severity must be BLOCKER, CRITICAL, WARNING, or SUGGESTION";
  if (f.proofRefs.some((p) => !isConcreteEvidence(p))) return "proof references must be concrete";
  return undefined;
}

/**
 * canonicalLensResult with allowMissingSevereLocation (CanonicalCompactLensResult): trims every member, assigns
 * missing finding IDs (`R1-001`…) and lenses, upper-cases severities, and returns the Go error text on refusal.
 */
export function canonicalCompactLensResult(result: LensResult): CanonicalLensResult | { readonly error: string } {
  const lens = goTrimSpace(result.lens);
  if (!isSupportedLens(lens)) return { error: `unknown review lens ${goQuoteStr(lens)}` };
  if (result.findings === null || result.evidence === null || result.evidence.length === 0)
    return { error: "lens result requires explicit findings and concrete evidence" };
  const wantFindingLens = lens.slice("review-".length);
  const idPrefix = (FINDING_ID_PREFIX[lens] ?? "").replace(/-$/, "");
  const findings: LensFinding[] = [];
  for (const [index, raw] of result.findings.entries()) {
    let id = goTrimSpace(raw.id);
    if (id === "") id = `${idPrefix}-${String(index + 1).padStart(3, "0")}`;
    let findingLens = goTrimSpace(raw.lens);
    if (isSupportedLens(findingLens)) findingLens = findingLens.slice("review-".length);
    if (findingLens === "") findingLens = wantFindingLens;
    const f: LensFinding = {
      id,
      lens: findingLens,
      location: goTrimSpace(raw.location),
      severity: goToUpper(goTrimSpace(raw.severity)),
      claim: goTrimSpace(raw.claim),
      proofRefs: raw.proofRefs === null ? null : raw.proofRefs.map(goTrimSpace),
      evidenceClass: raw.evidenceClass,
      causalDisposition: raw.causalDisposition,
    };
    if (f.evidenceClass !== "" && !(EVIDENCE_CLASSES as readonly string[]).includes(f.evidenceClass))
      return { error: `lens result finding[${index}] has unsupported evidence class ${goQuoteStr(f.evidenceClass)}` };
    if (f.causalDisposition !== "" && !(CAUSAL_DISPOSITIONS as readonly string[]).includes(f.causalDisposition))
      return {
        error: `lens result finding[${index}] has unsupported causal disposition ${goQuoteStr(f.causalDisposition)}`,
      };
    const invalid = validateStructuredFinding(f, true);
    if (invalid !== undefined) return { error: `lens result finding[${index}]: ${invalid}` };
    if (f.lens !== wantFindingLens)
      return { error: `lens result finding[${index}] is not bound to ${goQuoteStr(lens)}` };
    findings.push(f);
  }
  const evidence: string[] = [];
  for (const [index, item] of result.evidence.entries()) {
    const trimmed = goTrimSpace(item);
    if (!isConcreteEvidence(trimmed)) return { error: `lens result evidence[${index}] must be concrete` };
    evidence.push(trimmed);
  }
  return { lens, findings, evidence, resultHash: lensResultHash(lens, findings, evidence) };
}

/** A reviewer-shape refusal: the admission decision plus the message (reviewerResultShapeError). */
export interface ShapeRefusal {
  readonly decision: "binding_mismatch" | "incomplete";
  readonly message: string;
}

/**
 * canonicalReviewerResult (reviewer_envelope.go:170): the compact canonical form, then the selected-lens binding,
 * the lens-bound finding-ID namespace and the severe-finding causal fields. `error` is a plain Go error text.
 */
export function canonicalReviewerResult(
  result: LensResult,
  expectedLens: string,
): CanonicalLensResult | { readonly error: string } | { readonly shape: ShapeRefusal } {
  const canonical = canonicalCompactLensResult(result);
  if ("error" in canonical) return canonical;
  if (canonical.lens !== expectedLens)
    return { shape: { decision: "binding_mismatch", message: "reviewer result is not bound to the selected lens" } };
  const wantPrefix = FINDING_ID_PREFIX[canonical.lens] ?? "";
  for (const f of canonical.findings) {
    if (!FINDING_ID.test(f.id))
      return {
        shape: { decision: "binding_mismatch", message: "reviewer finding ID does not match the native ASCII schema" },
      };
    if (!f.id.startsWith(wantPrefix))
      return {
        shape: {
          decision: "binding_mismatch",
          message: `reviewer finding ID is not bound to the selected lens: expected_prefix=${wantPrefix} received_id=${f.id}`,
        },
      };
    if (
      isSevere(f.severity) &&
      (!(EVIDENCE_CLASSES as readonly string[]).includes(f.evidenceClass) ||
        !(CAUSAL_DISPOSITIONS as readonly string[]).includes(f.causalDisposition))
    )
      return {
        shape: {
          decision: "incomplete",
          message: "severe reviewer finding requires supported evidence_class and causal_disposition",
        },
      };
  }
  return canonical;
}
