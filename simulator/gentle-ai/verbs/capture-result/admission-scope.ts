// The candidate-scope half of gentle-ai's reviewer admission (internal/reviewtransaction/artifact_admission.go
// AdmitArtifact, compact.go parseFindingLocation, snapshot.go candidateFindingSupportsCausality): inspection
// coverage, path:line citations, finding locations and candidate causality against the simulated frozen candidate.
import { goMarshal } from "../../../go/go-json.ts";
import type { ManifestEntry } from "../../../state/identities.ts";
import { FINDING_ID, goFields, goTrimSpace, isSevere } from "./lens-result.ts";
import type { CanonicalLensResult } from "./lens-result.ts";

/** ArtifactAdmissionDiagnostic in Go field order (omitempty on the optional members). */
export interface AdmissionDiagnostic {
  readonly code: string;
  readonly findingId?: string;
  readonly location?: string;
  readonly reason: string;
  readonly missingPathCount?: number;
  readonly foreignPathCount?: number;
}

/** An ArtifactAdmissionError: its decision, diagnostic sentence and optional bounded details. */
export class AdmissionError extends Error {
  constructor(
    readonly decision: "incomplete" | "ambiguous" | "out_of_scope" | "binding_mismatch",
    readonly diagnostic: string,
    readonly detail?: AdmissionDiagnostic,
  ) {
    super(admissionErrorText(decision, diagnostic, detail));
  }
}

function admissionErrorText(decision: string, diagnostic: string, detail: AdmissionDiagnostic | undefined): string {
  const message = `reviewer artifact admission ${decision}: ${diagnostic}`;
  if (detail === undefined) return message;
  const positive = (n: number | undefined) => (n === undefined || n === 0 ? undefined : n);
  const json = goMarshal({
    code: detail.code,
    finding_id: detail.findingId || undefined,
    location: detail.location || undefined,
    reason: detail.reason,
    missing_path_count: positive(detail.missingPathCount),
    foreign_path_count: positive(detail.foreignPathCount),
  });
  return `${message}; admission_diagnostic=${json}`;
}

/** Go path.Clean for slash-separated paths. */
export function goPathClean(p: string): string {
  if (p === "") return ".";
  const rooted = p.startsWith("/");
  const out: string[] = [];
  for (const part of p.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") {
      if (out.length > 0 && out[out.length - 1] !== "..") out.pop();
      else if (!rooted) out.push("..");
      continue;
    }
    out.push(part);
  }
  const joined = out.join("/");
  return rooted ? "/" + joined : joined === "" ? "." : joined;
}

/** normalizeLogicalPath (risk.go:1177): a canonical repository-relative path, or undefined. */
export function normalizeLogicalPath(value: string): string | undefined {
  if (value === "" || value.includes("\u0000") || value.includes("\\") || value.startsWith("/")) return undefined;
  const cleaned = goPathClean(value);
  if (cleaned === "." || cleaned === ".." || cleaned.startsWith("../") || cleaned !== value) return undefined;
  return cleaned;
}

/** A parsed finding location. */
export interface FindingLocation {
  readonly path: string;
  readonly startLine: bigint;
  readonly endLine: bigint;
}

const MAX_LINE = (1n << 63n) - 1n; // strconv.ParseUint(value, 10, strconv.IntSize-1) on a 64-bit build

function parseLine(value: string): bigint | string {
  if (value === "" || !/^[0-9]+$/.test(value)) return "line_suffix_not_integer";
  const line = BigInt(value);
  if (line > MAX_LINE) return "line_overflows_integer";
  if (line === 0n) return "line_must_be_positive";
  return line;
}

/** parseFindingLocation (compact.go:1432): `path:line` or `path:start-end`, or the typed reason it is not. */
export function parseFindingLocation(location: string): FindingLocation | { readonly reason: string } {
  const fail = (reason: string) => ({ reason });
  const separator = location.lastIndexOf(":");
  if (separator <= 0 || separator === location.length - 1) return fail("expected_path_and_line");
  const suffix = location.slice(separator + 1);
  const dashes = suffix.split("-").length - 1;
  if (suffix.startsWith("-") && dashes === 1) return fail("line_must_be_positive");
  if (dashes > 1) return fail("line_suffix_not_integer");
  const cut = suffix.indexOf("-");
  const startText = cut < 0 ? suffix : suffix.slice(0, cut);
  const start = parseLine(startText);
  if (typeof start === "string") return fail(start);
  let end = start;
  if (cut >= 0) {
    const parsed = parseLine(suffix.slice(cut + 1));
    if (typeof parsed === "string") return fail(parsed);
    if (start > parsed) return fail("range_must_be_ascending");
    end = parsed;
  }
  const logicalPath = location.slice(0, separator);
  if (logicalPath.length >= 3 && logicalPath[1] === ":" && logicalPath[2] === "/" && /[A-Za-z]/.test(logicalPath[0]!))
    return fail("path_must_be_repository_relative");
  if (normalizeLogicalPath(logicalPath.split(":").join("/")) === undefined) return fail("path_must_be_canonical");
  if (normalizeLogicalPath(logicalPath) !== logicalPath) return fail("path_must_be_canonical");
  return { path: logicalPath, startLine: start, endLine: end };
}

const LOCATION_SUFFIX = /^[A-Za-z0-9+,.-]*$/;

function isControl(ch: string): boolean {
  const c = ch.codePointAt(0)!;
  return c < 0x20 || (c >= 0x7f && c < 0xa0);
}

/** safeAdmissionLocation (artifact_admission.go:96): the location echoed in a diagnostic, or "" when unsafe. */
function safeAdmissionLocation(code: string, raw: string, reason: string): string {
  const value = goTrimSpace(raw);
  if (
    Buffer.byteLength(value, "utf8") > 256 ||
    value.includes("\ufffd") ||
    [...value].some(isControl) ||
    value.split(":").length - 1 !== 1
  )
    return "";
  const separator = value.indexOf(":");
  if (
    normalizeLogicalPath(value.slice(0, separator)) === undefined ||
    !LOCATION_SUFFIX.test(value.slice(separator + 1))
  )
    return "";
  const parsed = parseFindingLocation(value);
  const parsedOk = !("reason" in parsed);
  if (code === "candidate_causality_unproven")
    return reason === "line_not_changed_by_candidate" && parsedOk ? value : "";
  if (code === "evidence_path_out_of_scope" || code === "proof_path_out_of_scope")
    return reason === "unknown_or_malformed_repository_path" && parsedOk ? value : "";
  if (code !== "invalid_finding_location" || parsedOk || parsed.reason !== reason) return "";
  return value;
}

/** findingAdmissionDiagnostic: the finding ID only when it is a valid bounded ID, the location only when safe. */
export function findingDiagnostic(
  code: string,
  findingId: string,
  location: string,
  reason: string,
): AdmissionDiagnostic {
  const id = goTrimSpace(findingId);
  return {
    code,
    findingId: id.length > 128 || !FINDING_ID.test(id) ? "" : id,
    location: safeAdmissionLocation(code, location, reason),
    reason,
  };
}

/** NewArtifactLocationAdmissionError. */
export function locationAdmissionError(findingId: string, location: string, reason: string): AdmissionError {
  return new AdmissionError(
    "out_of_scope",
    "reviewer finding location is invalid",
    findingDiagnostic("invalid_finding_location", findingId, location, reason),
  );
}

interface ReferenceToken {
  readonly value: string;
  readonly quoted: boolean;
}

const GO_SPACE = /^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]$/;

/** artifactReferenceTokens: whitespace-separated words, with '…', "…" and `…` spans as quoted tokens. */
function referenceTokens(value: string): ReferenceToken[] {
  const chars = [...value];
  const tokens: ReferenceToken[] = [];
  let start = -1;
  const flush = (end: number) => {
    if (start >= 0 && start < end) tokens.push({ value: chars.slice(start, end).join(""), quoted: false });
    start = -1;
  };
  for (let i = 0; i < chars.length;) {
    const ch = chars[i]!;
    if (ch === "'" || ch === '"' || ch === "`") {
      flush(i);
      const closing = chars.indexOf(ch, i + 1);
      if (closing < 0) {
        i++;
        continue;
      }
      if (i + 1 < closing) tokens.push({ value: chars.slice(i + 1, closing).join(""), quoted: true });
      i = closing + 1;
      continue;
    }
    if (GO_SPACE.test(ch)) {
      flush(i);
      i++;
      continue;
    }
    if (start < 0) start = i;
    i++;
  }
  flush(chars.length);
  return tokens;
}

function trimLeftSet(s: string, set: string): string {
  let i = 0;
  while (i < s.length && set.includes(s[i]!)) i++;
  return s.slice(i);
}

function trimRightSet(s: string, set: string): string {
  let i = s.length;
  while (i > 0 && set.includes(s[i - 1]!)) i--;
  return s.slice(0, i);
}

/** artifactRepositoryPathReference: the cited repository path, "" for a non-path token, or malformed. */
function pathReference(token: ReferenceToken): { path: string } | "malformed" {
  let value = token.value;
  if (!token.quoted) value = trimRightSet(trimLeftSet(value, "([{<"), ")]}>.,;!?");
  const separator = value.lastIndexOf(":");
  if (separator <= 0 || separator === value.length - 1) return { path: "" };
  const line = value.slice(separator + 1);
  if (!/^[0-9]+$/.test(line) || /^0+$/.test(line)) return { path: "" };
  const logicalPath = value.slice(0, separator);
  if (logicalPath.includes("://")) return { path: "" };
  if (!(token.quoted || logicalPath.includes("/") || logicalPath.includes("."))) return { path: "" };
  return normalizeLogicalPath(logicalPath) === logicalPath ? { path: logicalPath } : "malformed";
}

/** referenceOutsideRepository: the first malformed or unknown `path:line` token, or undefined. */
export function referenceOutsideRepository(value: string, contains: (path: string) => boolean): string | undefined {
  for (const token of referenceTokens(value)) {
    const ref = pathReference(token);
    if (ref === "malformed") return token.value;
    if (ref.path !== "" && !contains(ref.path)) return token.value;
  }
  return undefined;
}

const UNAVAILABLE_PHRASES = [
  "inspection blocked",
  "inspection was blocked",
  "access denied",
  "permission denied",
  "candidate unavailable",
  "candidate was unavailable",
  "immutable candidate unavailable",
  "could not inspect",
  "unable to inspect",
  "was not inspected",
  "not inspected",
  "could not be inspected",
  "cannot be inspected",
  "can not be inspected",
  "was not able to be inspected",
  "were not able to be inspected",
  "no candidate contents were available",
  "no candidate content was available",
];

/** evidenceReportsUnavailableInspection (artifact_admission.go:712). */
export function reportsUnavailableInspection(value: string): boolean {
  const normalized = goFields(value).join(" ").toLowerCase();
  return UNAVAILABLE_PHRASES.some((p) => normalized.includes(p));
}

/** canonicalPaths: normalized and sorted byte-wise, or undefined on a non-canonical or duplicate path. */
export function canonicalPaths(values: readonly string[]): string[] | undefined {
  const normalized: string[] = [];
  for (const v of values) {
    const p = normalizeLogicalPath(v);
    if (p === undefined) return undefined;
    normalized.push(p);
  }
  normalized.sort((a, b) => Buffer.compare(Buffer.from(a, "utf8"), Buffer.from(b, "utf8")));
  for (let i = 1; i < normalized.length; i++) if (normalized[i] === normalized[i - 1]) return undefined;
  return normalized;
}

/**
 * candidateFindingSupportsCausality against the simulated candidate. (inferred) The simulated files hold exactly
 * their changed lines: an added or modified path's candidate blob is its `additions` lines, all of them inside the
 * one `@@ … +1,<additions> @@` hunk the prompt's patch shows; a deleted path has no candidate blob.
 */
export function supportsCausality(
  manifest: readonly ManifestEntry[],
  location: FindingLocation,
  disposition: string,
): boolean {
  const entry = manifest.find((m) => m.path === location.path);
  if (entry === undefined || location.startLine < 1n || location.endLine < 1n || entry.status === "D") return false;
  const lines = BigInt(entry.additions);
  if (disposition === "behavior-activated") return location.endLine <= lines;
  if (disposition !== "introduced" && disposition !== "worsened") return false;
  return lines > 0n && location.startLine >= 1n && location.endLine < 1n + lines;
}

/** The frozen candidate an admission is checked against. */
export interface FrozenScope {
  readonly subjectHash: string;
  readonly lens: string;
  readonly manifest: readonly ManifestEntry[];
}

/** What the reviewer reported it inspected (ArtifactInspection, undecoded members as Go zero values). */
export interface Inspection {
  readonly status: string;
  readonly paths: readonly string[] | null;
}

/**
 * AdmitArtifact's checks after the subject identity: the echoed subject, completed full-manifest inspection, the
 * reviewer shape (already enforced by the caller), then evidence, finding and proof citations and candidate causality.
 * Throws AdmissionError; returns the canonical candidate-causal finding IDs on success.
 */
export function admitScope(
  scope: FrozenScope,
  echoedSubjectHash: string,
  inspection: Inspection,
  canonical: CanonicalLensResult,
  verifiedCausalIds: readonly string[],
): string[] {
  checkEchoedSubject(scope.subjectHash, echoedSubjectHash);
  const wantPaths = scope.manifest.map((m) => m.path);
  checkInspection(inspection, wantPaths);
  // (inferred) The simulated repository's base and candidate trees hold exactly the manifest's paths, so a cited
  // path:line resolves only when it names one of them.
  const contains = (path: string) => wantPaths.includes(path);
  checkEvidence(canonical.evidence, contains);
  const wantCausal = candidateCausalIds(canonical.findings, wantPaths, contains);
  return provenCausalIds(canonical.findings, wantCausal, verifiedCausalIds);
}

/** The result must echo the binding's subject hash. */
function checkEchoedSubject(subjectHash: string, echoedSubjectHash: string): void {
  const continuation =
    "the rejected admission did not consume the lens slot, so re-run the lens and invoke gentle-ai review capture-result again on the same lineage with a result that echoes the binding's top-level subject_hash";
  if (echoedSubjectHash === "")
    throw new AdmissionError(
      "incomplete",
      `reviewer result omitted the provider-owned artifact subject: ${continuation} and a completed inspection envelope`,
    );
  if (echoedSubjectHash !== subjectHash)
    throw new AdmissionError(
      "binding_mismatch",
      `reviewer result echoed a different artifact subject: ${continuation}, which is ${subjectHash}`,
    );
}

/** A completed inspection whose canonical paths are exactly the frozen manifest's. */
function checkInspection(inspection: Inspection, wantPaths: readonly string[]): void {
  if (inspection.status !== "completed")
    throw new AdmissionError("incomplete", "reviewer did not report completed candidate inspection");
  const inspected = canonicalPaths(inspection.paths ?? []);
  if (inspected === undefined)
    throw new AdmissionError("out_of_scope", "reviewer inspection paths are not canonical candidate paths");
  const want = new Set(canonicalPaths(wantPaths) ?? wantPaths);
  const seen = new Set(inspected);
  const foreign = inspected.filter((p) => !want.has(p)).length;
  const missing = [...want].filter((p) => !seen.has(p)).length;
  if (foreign === 0 && missing === 0) return;
  const reason =
    missing > 0 && foreign > 0
      ? "missing_and_foreign_inspection_paths"
      : missing > 0
        ? "missing_frozen_manifest_paths"
        : "foreign_inspection_paths";
  const detail = { code: "inspection_coverage", reason, missingPathCount: missing, foreignPathCount: foreign };
  if (foreign > 0)
    throw new AdmissionError("out_of_scope", "reviewer inspection includes paths outside the frozen candidate", detail);
  throw new AdmissionError("incomplete", "reviewer inspection did not cover the complete frozen path manifest", detail);
}

/** Evidence may neither report an unavailable inspection nor cite a path outside the repository. */
function checkEvidence(evidence: readonly string[], contains: (path: string) => boolean): void {
  for (const item of evidence) {
    if (reportsUnavailableInspection(item))
      throw new AdmissionError("incomplete", "reviewer evidence reports that candidate inspection was unavailable");
    const offender = referenceOutsideRepository(item, contains);
    if (offender !== undefined)
      throw new AdmissionError(
        "out_of_scope",
        "reviewer evidence references a path outside the frozen repository",
        findingDiagnostic("evidence_path_out_of_scope", "", offender, "unknown_or_malformed_repository_path"),
      );
  }
}

/** Checks each finding's ID, location and proofs; returns the IDs of the severe candidate-causal ones. */
function candidateCausalIds(
  findings: CanonicalLensResult["findings"],
  wantPaths: readonly string[],
  contains: (path: string) => boolean,
): string[] {
  const seenIds = new Set<string>();
  const wantCausal: string[] = [];
  for (const f of findings) {
    if (seenIds.has(f.id)) throw new AdmissionError("ambiguous", "reviewer result repeats a finding ID");
    seenIds.add(f.id);
    const location = parseFindingLocation(f.location);
    if ("reason" in location) throw locationAdmissionError(f.id, f.location, location.reason);
    if (!wantPaths.includes(location.path))
      throw new AdmissionError("out_of_scope", "reviewer finding location is outside the frozen candidate");
    for (const proof of f.proofRefs ?? []) {
      const offender = referenceOutsideRepository(proof, contains);
      if (offender !== undefined)
        throw new AdmissionError(
          "out_of_scope",
          "reviewer proof references a path outside the frozen repository",
          findingDiagnostic("proof_path_out_of_scope", f.id, offender, "unknown_or_malformed_repository_path"),
        );
    }
    if (isSevere(f.severity) && ["introduced", "behavior-activated", "worsened"].includes(f.causalDisposition))
      wantCausal.push(f.id);
  }
  return wantCausal;
}

/** The candidate-causal IDs must be exactly those changed-line evidence verified; returns them byte-sorted. */
function provenCausalIds(
  findings: CanonicalLensResult["findings"],
  wantCausal: readonly string[],
  verifiedCausalIds: readonly string[],
): string[] {
  const byteSort = (a: string, b: string) => Buffer.compare(Buffer.from(a, "utf8"), Buffer.from(b, "utf8"));
  const wantSorted = [...wantCausal].sort(byteSort);
  const verified = [...verifiedCausalIds].sort(byteSort);
  if (wantSorted.join("\u0000") !== verified.join("\u0000")) {
    const unproven = findings.find((f) => wantSorted.includes(f.id) && !verified.includes(f.id));
    throw new AdmissionError(
      "out_of_scope",
      "candidate-causal findings are not proven by repository-derived changed-line evidence",
      findingDiagnostic(
        "candidate_causality_unproven",
        unproven?.id ?? "",
        unproven?.location ?? "",
        "line_not_changed_by_candidate",
      ),
    );
  }
  return verified;
}
