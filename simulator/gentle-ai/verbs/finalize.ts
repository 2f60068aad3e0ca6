// review finalize (provider reference §10, gentle-ai v2.4.0 `runReviewFacadeFinalize`; issue-279 §4-§5): flags,
// preflight refusals in source order, captured evidence, the correction plan checks, and the lifecycle moves.
import type { Invocation, Outcome } from "../invocation.ts";
import type { FlagDef, FlagSetSpec, ParsedFlags } from "../argv/go-flags.ts";
import { scanFlagsOf } from "../argv/go-flags.ts";
import { traitsOf } from "../profiles.ts";
import type { ProfileTraits } from "../profiles.ts";
import { routeFor, runRouted } from "../route.ts";
import type { Route, StdoutBuffer } from "../route.ts";
import { invalidRequest, rddDisabled } from "../refusal.ts";
import { requireRuntime } from "../gates/handshake.ts";
import { CONTRACT_V1, CONTRACT_V2 } from "../../output/envelope.ts";
import { encodeReviewJson } from "../../output/go-json.ts";
import { readLineage, updateLineage } from "../../state/lineage-store.ts";
import type { LineageState } from "../../state/lineage-state.ts";
import type { VerificationEvidenceRecord } from "../../state/evidence-record.ts";
import { readInputDocument } from "./read-input.ts";
import { authorityOf, capturedEvidence, correctionBudget } from "./correction-authority.ts";
import type { Authority } from "./correction-authority.ts";
import { modernCorrection } from "./status-correction.ts";
import {
  D1_TEXT,
  D2_TEXT,
  decodeValidation,
  EMPTY_EVIDENCE_TEXT,
  inconclusiveCheck,
  inconclusiveText,
  MUST_PASS_TEXT,
} from "./finalize-validation.ts";
import type { ValidationDocument } from "./finalize-validation.ts";
import { contractFlag, parseVerbFlags, refusePositionals } from "./verb-flags.ts";

const V = "review finalize";

// (inferred) every usage text and the details line: only names and kinds are documented (§10).
const BASE_FLAGS: readonly FlagDef[] = [
  { name: "action-eligibility", kind: "bool", usage: "include the action eligibility assessment" },
  { name: "captured-evidence", kind: "bool", usage: "use the verification evidence captured for the current authority" },
  { name: "captured-results", kind: "bool", usage: "finalize from the reviewer results captured for every selected lens" },
  { name: "contract", kind: "string", usage: "negotiated review integration contract" },
  { name: "correction-lines", kind: "int", usage: "positive correction line forecast within the frozen correction budget" },
  { name: "cwd", kind: "string", default: ".", usage: "repository path" },
  { name: "evidence", kind: "string", usage: "final verification evidence file or - for stdin" },
  { name: "failed", kind: "bool", usage: "record that final verification failed" },
  { name: "lineage", kind: "string", usage: "exact review lineage identifier" },
  { name: "next-transition", kind: "bool", usage: "include the exact next transition" },
  { name: "refuter", kind: "string", usage: "provider refuter result file or - for stdin" },
  { name: "result", kind: "string", usage: "retired; capture reviewer results with review capture-result" },
  { name: "result-artifact", kind: "string", usage: "captured reviewer result artifact reference" },
  { name: "result-artifact-file", kind: "string", usage: "captured reviewer result artifact file; repeatable" },
  { name: "trace", kind: "string", usage: "finalize trace file" },
  { name: "validation", kind: "string", usage: "targeted validation result file or - for stdin" },
];

// v2.4.0: the role-vector runtime and the submission-descriptor binding (absent in the 2.2.x-era profile, inferred).
const DESCRIPTOR_FLAGS: readonly FlagDef[] = [
  { name: "agent", kind: "string", usage: "negotiated v2 runtime identity that materializes provider refuter and validator requests" },
  { name: "expected-revision", kind: "string", usage: "exact authority revision of the submission descriptor" },
  { name: "repository-context", kind: "string", usage: "opaque provider-issued repository context of the submission descriptor" },
  { name: "request-hash", kind: "string", usage: "provider-owned request hash of the submission descriptor" },
  { name: "target", kind: "string", usage: "exact target identity of the submission descriptor" },
];

/** The finalize FlagSet of a profile. */
export function finalizeFlags(traits: ProfileTraits): FlagSetSpec {
  return {
    name: V,
    details: "Finalize the next compact review transition from captured reviewer results, targeted validation, and verification evidence.",
    flags: modernCorrection(traits) ? [...BASE_FLAGS, ...DESCRIPTOR_FLAGS] : BASE_FLAGS,
  };
}

const DESCRIPTORS = ["expected-revision", "target", "request-hash", "repository-context"] as const;
const REFRESH = "refresh with gentle-ai review status --next-transition";

/** Steps 0-6 (and the inferred retired/positional checks); returns the parsed flags or undefined on -h/--help. */
function preflight(invocation: Invocation, traits: ProfileTraits, argv: readonly string[], out: StdoutBuffer): ParsedFlags | undefined {
  const f = parseVerbFlags(finalizeFlags(traits), argv, out);
  if (f === undefined) return undefined;
  // (inferred) texts of the positional and contract checks, shared with status.ts.
  refusePositionals(f, V);
  const contract = contractFlag(f);
  const modern = modernCorrection(traits);
  const str = (name: string): string => (modern || !DESCRIPTOR_FLAGS.some((d) => d.name === name) ? f.str(name) : "");
  // 1. exactly one negotiated v2 runtime; pi (with the handshake) is host-mediated.
  if (modern && f.has("agent")) {
    if (f.count("agent") !== 1 || contract !== CONTRACT_V2)
      throw invalidRequest(
        "review finalize --agent requires exactly one negotiated v2 runtime identity; refresh with `gentle-ai review status --contract gentle-ai.review-integration/v2 --next-transition`",
      );
    const gate = requireRuntime(traits, f.str("agent"), invocation.env, "finalize");
    if (gate.kind === "host") throw invalidRequest(`${V} provider runtime ${JSON.stringify(gate.runtime)} is host-mediated; use its live transport collection`);
  }
  // 2. the submission-descriptor binding is all-or-nothing and needs the v2 contract.
  if (modern && DESCRIPTORS.some((n) => f.has(n)) && !(DESCRIPTORS.every((n) => f.str(n) !== "") && contract === CONTRACT_V2))
    throw invalidRequest(
      `${V} submission descriptors require the complete v2 revision, target, request hash, and repository context binding; ${REFRESH}`,
    );
  // 3.
  if (str("repository-context") !== "" && f.has("cwd"))
    throw invalidRequest(`${V} submission descriptors cannot combine --repository-context with --cwd; ${REFRESH}`);
  // 4.
  const stdinUsers = [f.str("validation"), f.str("refuter"), f.str("evidence"), f.str("trace"), ...f.all("result-artifact-file").map(String)];
  if (stdinUsers.filter((v) => v === "-").length > 1) throw invalidRequest(`${V} accepts stdin for only one input`);
  // 5.
  const reviewerSources = [f.bool("captured-results"), f.str("result-artifact") !== "", f.count("result-artifact-file") > 0].filter(Boolean).length;
  if (reviewerSources > 1 || (f.bool("captured-evidence") && f.str("evidence") !== ""))
    throw invalidRequest(`${V} accepts exactly one reviewer-result source and one final-evidence source`);
  // 6.
  if (str("agent") !== "" && (f.str("refuter") !== "" || f.str("validation") !== ""))
    throw invalidRequest(`${V} --agent materializes provider refuter and validator requests; omit --refuter and --validation`);
  // (inferred) wording of the always-refused retired flag.
  if (f.has("result")) throw invalidRequest(`${V} --result is retired; capture reviewer results with review capture-result and finalize with --captured-results`);
  return f;
}

/** Moves the lineage to approved: a lifecycle transition, so the revision advances. */
function approve(draft: LineageState): void {
  draft.state = "approved";
  draft.approved = true;
  draft.revisionIndex += 1;
}

/** (inferred) descriptor values that no longer name the current transition. */
function checkDescriptors(f: ParsedFlags, traits: ProfileTraits, a: Authority, target: string, requestHash: string): void {
  if (!modernCorrection(traits) || !f.has("expected-revision")) return;
  if (
    f.str("expected-revision") !== a.revision ||
    f.str("target") !== target ||
    f.str("request-hash") !== requestHash ||
    f.str("repository-context") !== a.repositoryContext
  )
    throw invalidRequest(`${V} submission descriptors do not match the current authority; ${REFRESH}`);
}

/** The captured record finalize uses: loaded with --captured-evidence, or discovered (validating only). */
function loadEvidence(f: ParsedFlags, a: Authority, discover: boolean): VerificationEvidenceRecord | undefined {
  if (!f.bool("captured-evidence") && !discover) return undefined;
  const record = capturedEvidence(a);
  if (record === undefined) {
    if (f.bool("captured-evidence") || discover) throw invalidRequest("captured verification evidence is missing");
    return undefined;
  }
  if (f.has("failed") && f.bool("failed") !== (record.outcome !== "passed"))
    throw invalidRequest("--failed conflicts with captured verification evidence outcome");
  return record;
}

function finalizeReviewing(invocation: Invocation, f: ParsedFlags, draft: LineageState): void {
  if (f.str("result-artifact") !== "" || f.count("result-artifact-file") > 0)
    throw invalidRequest("gentle-ai-sim: review finalize from result artifacts is not simulated; use --captured-results");
  // (inferred) texts of the two reviewing-state refusals below.
  if (!f.bool("captured-results"))
    throw invalidRequest(`${V} requires one reviewer-result source: --captured-results, --result-artifact, or --result-artifact-file`);
  const missing = draft.lenses.filter((lens) => draft.captured[lens] === undefined).length;
  if (missing > 0) throw invalidRequest(`captured reviewer results are incomplete: ${missing} of ${draft.lenses.length} selected lens slots are not captured`);
  // (decided) a scenario that declares `lineage.correction` while reviewing means "the lenses found a CRITICAL":
  // finalize opens the correction at that stage; otherwise the review is approved.
  const spec = invocation.scenario.lineage.correction;
  if (spec === undefined) return approve(draft);
  draft.state = "correction_required";
  draft.revisionIndex += 1;
  draft.correction = {
    ...draft.correction,
    stage: spec.stage,
    forecastLines: spec.stage === "plan_required" ? null : 1,
    evidence: null,
    evidenceOutcome: spec.stage === "validation_required" ? spec.evidenceOutcome : null,
    validatorCaptured: false,
  };
}

function finalizeCorrection(invocation: Invocation, traits: ProfileTraits, f: ParsedFlags, draft: LineageState): void {
  const a = authorityOf(invocation.scenario, draft);
  const stage = draft.correction.stage ?? "plan_required";
  if (stage === "plan_required") {
    checkDescriptors(f, traits, a, a.targetIdentity, a.correctionRequestHash);
    const budget = correctionBudget(a.ids);
    // (inferred) texts of the forecast refusals.
    if (!f.has("correction-lines")) throw invalidRequest("compact correction requires a positive correction line forecast before acceptance");
    const lines = f.int("correction-lines");
    if (lines < 1 || lines > budget)
      throw invalidRequest(`correction line forecast ${lines} is outside the frozen correction budget of 1 to ${budget} lines`);
    draft.correction.stage = "candidate_unavailable";
    draft.correction.forecastLines = lines;
    draft.revisionIndex += 1;
    return;
  }
  checkDescriptors(f, traits, a, a.correctionTargetIdentity, a.requestHash);
  if (stage === "candidate_unavailable")
    throw invalidRequest("corrected candidate is unavailable: apply the bounded correction before finalizing the correction");
  let doc: ValidationDocument | undefined;
  if (f.str("validation") !== "") {
    const decoded = decodeValidation(readInputDocument(invocation, f.str("validation"), "targeted validation"));
    if (!decoded.ok) throw invalidRequest(decoded.error);
    doc = decoded.doc;
  }
  // A raw --evidence document is read but is not captured evidence: in correction_required only the flag loads a record.
  if (f.str("evidence") !== "") readInputDocument(invocation, f.str("evidence"), "final verification evidence");
  const record = loadEvidence(f, a, false);
  if (record === undefined) throw invalidRequest(D2_TEXT);
  if (doc === undefined && record.outcome === "procedural_tooling_failed") {
    // (inferred) a tooling incident does not consume the attempt: drop the record so verification can be recaptured.
    draft.correction.evidence = null;
    draft.correction.evidenceOutcome = null;
    draft.correction.stage = "evidence_required";
    draft.revisionIndex += 1;
    return;
  }
  if (record.outcome !== "passed" || f.bool("failed")) throw invalidRequest(MUST_PASS_TEXT);
  if (doc === undefined) {
    if (draft.correction.validatorCaptured) return approve(draft);
    // (inferred) text: no validation document and no captured provider validator.
    throw invalidRequest("targeted validation result is required: run the provider-owned targeted validation and finalize with --validation");
  }
  if (doc.originalCriteria.evidence.length === 0 || doc.correctionRegression.evidence.length === 0) throw invalidRequest(EMPTY_EVIDENCE_TEXT);
  const inconclusive = inconclusiveCheck(doc);
  if (inconclusive !== undefined) throw invalidRequest(inconclusiveText(inconclusive));
  if (doc.requestHash !== a.requestHash || doc.correctionTargetIdentity !== a.correctionTargetIdentity) throw invalidRequest(D1_TEXT);
  if (doc.originalCriteria.passed && doc.correctionRegression.passed) return approve(draft);
  // (inferred) a bound, conclusive failing validation consumes the attempt: a new correction plan is required.
  draft.correction = { ...draft.correction, stage: "plan_required", forecastLines: null, evidence: null, evidenceOutcome: null, validatorCaptured: false };
  draft.revisionIndex += 1;
}

function finalizeValidating(invocation: Invocation, f: ParsedFlags, draft: LineageState): void {
  const a = authorityOf(invocation.scenario, draft);
  if (f.str("evidence") !== "") readInputDocument(invocation, f.str("evidence"), "final verification evidence");
  const record = loadEvidence(f, a, true)!;
  if (record.outcome === "passed") return approve(draft);
  if (record.outcome === "procedural_tooling_failed") {
    draft.correction.evidence = null;
    draft.correction.evidenceOutcome = null;
    draft.revisionIndex += 1;
    return;
  }
  // (inferred) text.
  throw invalidRequest("final repository verification must pass before acceptance");
}

/** (decided) the success document: a minimal negotiated finalize result naming the lineage's new state. */
function successDocument(route: Route, a: Authority): Buffer {
  const l = a.lineage;
  return encodeReviewJson({
    schema: "gentle-ai.review-integration.finalize/v1",
    contract: route.class === "negotiated" ? (route.version === 2 ? CONTRACT_V2 : CONTRACT_V1) : undefined,
    operation: "review.finalize",
    lineage_id: a.lineageId,
    state: l.state,
    revision: a.revision,
    receipt: { status: l.state === "approved" ? "present" : "expected_missing" },
  });
}

async function body(invocation: Invocation, traits: ProfileTraits, route: Route, argv: readonly string[], out: StdoutBuffer): Promise<void> {
  const f = preflight(invocation, traits, argv, out);
  if (f === undefined) return;
  if (readLineage(invocation.stateDir, invocation.scenario).rddDisabled)
    // (inferred) native text; finalize mutates authority, so the kill switch applies after preflight.
    throw rddDisabled(V);
  const after = updateLineage(invocation.stateDir, invocation.scenario, (draft) => {
    const a = authorityOf(invocation.scenario, draft);
    if (f.str("lineage") !== "" && f.str("lineage") !== a.lineageId)
      throw invalidRequest(`${V} --lineage does not name the current review lineage; ${REFRESH}`); // (inferred)
    switch (draft.state) {
      case "reviewing":
        finalizeReviewing(invocation, f, draft);
        break;
      case "correction_required":
        finalizeCorrection(invocation, traits, f, draft);
        break;
      case "validating":
        finalizeValidating(invocation, f, draft);
        break;
      case "approved":
        throw invalidRequest(`${V} has nothing to finalize: the review lineage is already approved`); // (inferred)
    }
    return authorityOf(invocation.scenario, draft);
  });
  out.write(successDocument(route, after));
}

/** review finalize: negotiated with --contract (generic stderr, native text in `cause`), plain `Error: <text>` otherwise. */
export function finalize(invocation: Invocation): Promise<Outcome> {
  const traits = traitsOf(invocation.scenario.profile);
  const argv = invocation.argv.slice(2);
  const route = routeFor(argv, "finalize", "negotiable", scanFlagsOf(finalizeFlags(traits)));
  return runRouted(route, (out) => body(invocation, traits, route, argv, out));
}
