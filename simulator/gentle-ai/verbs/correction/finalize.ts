// review finalize (gentle-ai fb55ef7b `runReviewFacadeFinalize`, review_facade.go:2356-2948; issue-279 §4-§5): flags,
// preflight refusals in source order, discovery, captured evidence, the correction plan checks, the lifecycle moves
// and the plain or negotiated (operation/v1|v2) success document.
import { join, resolve } from "node:path";
import { FINALIZE_MANAGED_ACTIONS } from "../../../contract/managed-actions.ts";
import type { Invocation, Outcome } from "../../invocation.ts";
import type { ParsedFlags } from "../../../go/go-flags.ts";
import type { FlagDef, FlagSetSpec } from "../../../go/flag-spec.ts";
import { goQuoteStr } from "../../../go/go-quote.ts";
import { traitsOf } from "../../profiles.ts";
import type { ProfileTraits } from "../../profiles.ts";
import { routeFor } from "../../route.ts";
import type { StdoutBuffer } from "../../route.ts";
import { invalidRequest, nativeError, rddDisabled } from "../../refusal.ts";
import { runRoutedReportingDefects } from "../../defect-report.ts";
import { lineageApproved, repositoryScopeAt } from "../../repository-scope.ts";
import type { RepositoryScope } from "../../repository-scope.ts";
import { listLineageRecords } from "../../../repository/lineage-store.ts";
import { resolveRepositoryContext } from "../../gates/repository-context.ts";
import type { ReviewRefusal } from "../../refusal.ts";
import { requireRuntime } from "../../gates/handshake.ts";
import { CONTRACT_V1, CONTRACT_V2 } from "../../../output/envelope.ts";
import { encodeReviewJson } from "../../../go/go-json.ts";
import { readLineage, updateLineage } from "../../lineage.ts";
import type { LineageState } from "../../../state/lineage-state.ts";
import type { FinalizeResult, OperationV1, OperationV2 } from "../../../contract/operation.ts";
import { resolveRepository } from "../../../repository/locate.ts";
import { capturedVerdict } from "./captured-verdict.ts";
import type { CapturedVerdict } from "./captured-verdict.ts";
import { identitiesFor } from "../../../state/identities.ts";
import {
  authorityOf,
  capturedEvidence,
  correctionBudget,
  correctionCandidatePresent,
  validationRequestJson,
} from "../shared/correction-authority.ts";
import { CAPTURE_RESULT_COMMAND, readFinalizeInputs, requiresAllText, V1_REFRESH_COMMAND } from "./finalize-inputs.ts";
import type { FinalizeInputs } from "./finalize-inputs.ts";
import type { Authority } from "../shared/correction-authority.ts";
import { modernCorrection } from "../status/status-correction.ts";
import {
  D1_TEXT,
  D2_TEXT,
  EMPTY_EVIDENCE_TEXT,
  inconclusiveCheck,
  inconclusiveText,
  MUST_PASS_TEXT,
} from "./finalize-validation.ts";
import { contractFlag, parseVerbFlags, refusePositionals } from "../shared/verb-flags.ts";

const V = "review finalize";

// The FlagSet of runReviewFacadeFinalize (review_facade.go:2371-2398), usage texts verbatim.
const BASE_FLAGS: readonly FlagDef[] = [
  { name: "cwd", kind: "string", default: ".", usage: "repository path" },
  { name: "contract", kind: "string", usage: "optional negotiated review integration contract" },
  {
    name: "action-eligibility",
    kind: "bool",
    usage: "include optional machine-readable review action eligibility in negotiated output",
  },
  {
    name: "next-transition",
    kind: "bool",
    usage: "include the optional canonical native next transition in negotiated output",
  },
  {
    name: "captured-results",
    kind: "bool",
    usage: "use every natively captured reviewer result in canonical selected-lens order",
  },
  { name: "captured-evidence", kind: "bool", usage: "use the natively captured final verification evidence" },
  { name: "lineage", kind: "string", usage: "optional lineage override when discovery is ambiguous" },
  { name: "validation", kind: "string", usage: "targeted correction validation JSON file or - for stdin" },
  { name: "refuter", kind: "string", usage: "optional refuter outcomes JSON file or - for stdin" },
  { name: "evidence", kind: "string", usage: "final test or verification evidence file or - for stdin" },
  { name: "correction-lines", kind: "int", usage: "positive predicted correction changed lines before editing" },
  { name: "failed", kind: "bool", usage: "bind supplied final evidence as a failed verification" },
  { name: "trace", kind: "string", usage: "optional diagnostic operation metadata trace path" },
  {
    name: "result",
    kind: "string",
    usage: `retired and always refused: unadmitted reviewer results cannot bind an approval; capture each lens with \`${CAPTURE_RESULT_COMMAND}\` and finalize with --captured-results`,
  },
  {
    name: "result-artifact",
    kind: "string",
    usage: "native reviewer artifact manifest JSON; repeat in selected-lens order",
  },
  {
    name: "result-artifact-file",
    kind: "string",
    usage: "native reviewer artifact manifest regular file or - for stdin; repeat in selected-lens order",
  },
];

// The role-vector runtime and the submission-descriptor binding (v2.4.0; absent in the 2.2.x-era profile, inferred).
const DESCRIPTOR_FLAGS: readonly FlagDef[] = [
  { name: "agent", kind: "string", usage: "generated registered runtime identity for native provider-role execution" },
  {
    name: "expected-revision",
    kind: "string",
    usage: "provider-issued compact authority revision for a submission descriptor",
  },
  { name: "target", kind: "string", usage: "provider-issued target identity for a submission descriptor" },
  { name: "request-hash", kind: "string", usage: "provider-issued correction or validation request hash" },
  {
    name: "repository-context",
    kind: "string",
    usage: "provider-issued opaque repository context for a submission descriptor",
  },
];

// Defined at 301fb2ad (review_facade.go:2635) and gone by fb55ef7b; (not simulated) the new-lineage admission it feeds.
const ADMISSION_FINDINGS_FLAG: FlagDef = {
  name: "admission-findings",
  kind: "string",
  usage: "new-lineage authorities only: candidate-causal admission findings JSON array file or - for stdin",
};

/** The finalize FlagSet of a profile. */
export function finalizeFlags(traits: ProfileTraits): FlagSetSpec {
  const flags = modernCorrection(traits) ? [...BASE_FLAGS, ...DESCRIPTOR_FLAGS] : [...BASE_FLAGS];
  if (traits.finalizeAdmissionFindings) flags.push(ADMISSION_FINDINGS_FLAG);
  return {
    name: V,
    details:
      "Canonicalize reviewer output and evidence, perform required native transitions, and materialize the terminal receipt.",
    flags,
  };
}

const REFRESH = "refresh with gentle-ai review status --next-transition";
const DESCRIPTORS_INCOMPLETE = `${V} submission descriptors require the complete v2 revision, target, request hash, and repository context binding; ${REFRESH}`;
// reviewUnadmittedResultRefusal (review_facade.go:2341-2344).
const UNADMITTED_RESULT =
  "review finalize no longer accepts --result: a reviewer result supplied this way carries no provider-owned admission, " +
  "so it cannot prove the lens inspected the frozen candidate. " +
  `Capture each selected lens with \`${CAPTURE_RESULT_COMMAND}\` (see \`${V1_REFRESH_COMMAND}\` for the exact lineage/target/lens/order bindings), ` +
  "then run `gentle-ai review finalize --captured-results=true`";
// reviewContractRequiredForActionEligibilityReason (review_facade.go:31-32).
const CONTRACT_REQUIRED = `--action-eligibility and --next-transition require --contract ${CONTRACT_V1} or ${CONTRACT_V2}`;

/** `reviewFinalizeFlagProvided` (review_facade.go:2346-2354): any argument, dashes trimmed, is the name or `name=…`. */
function flagProvided(argv: readonly string[], name: string): boolean {
  return argv.some((arg) => {
    const trimmed = arg.replace(/^-+/, "");
    return trimmed === name || trimmed.startsWith(`${name}=`);
  });
}

/** `reviewRuntimeAgentCount` (review_transport_capability.go:198-221): `--agent` tokens before `--`. */
function agentCount(argv: readonly string[]): number {
  let count = 0;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--") break;
    const body = arg.startsWith("--") ? arg.slice(2) : arg.startsWith("-") ? arg.slice(1) : arg;
    if (body === arg || body === "") continue;
    const eq = body.indexOf("=");
    if ((eq < 0 ? body : body.slice(0, eq)) !== "agent") continue;
    count++;
    if (eq < 0) i++;
  }
  return count;
}

/** What the preflight established about the request. */
interface Request {
  readonly argv: readonly string[];
  readonly f: ParsedFlags;
  readonly negotiated: boolean;
  readonly contract: string;
  /** --target, --request-hash or --repository-context is present. */
  readonly descriptor: boolean;
  /** --expected-revision alone. */
  readonly expectedRevisionOnly: boolean;
}

/** The refusals of runReviewFacadeFinalize before any repository work (review_facade.go:2399-2465), in source order. */
function preflight(
  invocation: Invocation,
  traits: ProfileTraits,
  argv: readonly string[],
  out: StdoutBuffer,
): Request | undefined {
  const f = parseVerbFlags(finalizeFlags(traits), argv, out);
  if (f === undefined) return undefined;
  refusePositionals(f, V);
  const contract = contractFlag(f);
  const negotiated = contract !== undefined;
  if ((f.bool("action-eligibility") || f.bool("next-transition")) && !negotiated)
    throw invalidRequest(CONTRACT_REQUIRED);
  const modern = modernCorrection(traits);
  let providerRuntime = "";
  if (modern && agentCount(argv) !== 0) {
    if (contract !== CONTRACT_V2 || agentCount(argv) !== 1)
      throw invalidRequest(
        "review finalize --agent requires exactly one negotiated v2 runtime identity; refresh with `gentle-ai review status --contract gentle-ai.review-integration/v2 --next-transition`",
      );
    const gate = requireRuntime(traits, f.str("agent"), invocation.env, "finalize");
    // Only claude-code and codex run provider roles in-process (reviewProviderCaptureRuntime); opencode and pi do not.
    if (gate.runtime !== "claude-code" && gate.runtime !== "codex")
      throw invalidRequest(
        `${V} provider runtime ${goQuoteStr(gate.runtime)} is host-mediated; use its live transport collection`,
      );
    providerRuntime = gate.runtime;
  }
  // Before the burn (301fb2ad review_facade.go:2673) --expected-revision is one of the descriptor flags; from b43e0928
  // alone it is refused later, after the staged-burn inspection (fb55ef7b :2427-2428, :2511).
  const descriptorFlags = traits.approvalBurns
    ? ["target", "request-hash", "repository-context"]
    : ["expected-revision", "target", "request-hash", "repository-context"];
  const descriptor = modern && descriptorFlags.some((name) => flagProvided(argv, name));
  const expectedRevisionOnly = modern && traits.approvalBurns && flagProvided(argv, "expected-revision") && !descriptor;
  const blank = (name: string): boolean => f.str(name).trim() === "";
  if (
    descriptor &&
    (contract !== CONTRACT_V2 || ["expected-revision", "target", "request-hash", "repository-context"].some(blank))
  )
    throw invalidRequest(DESCRIPTORS_INCOMPLETE);
  if (modern && flagProvided(argv, "repository-context") && flagProvided(argv, "cwd"))
    throw invalidRequest(`${V} submission descriptors cannot combine --repository-context with --cwd; ${REFRESH}`);
  const stdin = [
    ...f.all("result"),
    ...f.all("result-artifact-file"),
    f.str("validation"),
    f.str("refuter"),
    f.str("evidence"),
  ];
  if (stdin.filter((v) => v === "-").length > 1) throw invalidRequest(`${V} accepts stdin for only one input`);
  const sources = [
    f.count("result") > 0,
    f.count("result-artifact") > 0,
    f.count("result-artifact-file") > 0,
    f.bool("captured-results"),
  ];
  if (sources.filter(Boolean).length > 1 || (f.bool("captured-evidence") && !blank("evidence")))
    throw invalidRequest(`${V} accepts exactly one reviewer-result source and one final-evidence source`);
  if (providerRuntime !== "" && (!blank("refuter") || !blank("validation")))
    throw invalidRequest(
      `${V} --agent materializes provider refuter and validator requests; omit --refuter and --validation`,
    );
  if (f.count("result") > 0) throw invalidRequest(UNADMITTED_RESULT);
  return { argv, f, negotiated, contract: contract ?? "", descriptor, expectedRevisionOnly };
}

/** `reviewCompactFacadeLineageAbsentError` (review_facade.go:70-79), a preflight refusal. */
function lineageAbsent(lineage: string): ReviewRefusal {
  const id = lineage.trim();
  return invalidRequest(
    id === ""
      ? "no discoverable compact facade review lineage found; run gentle-ai review start to begin one, or use gentle-ai review-resume --cwd <repo> --lineage <lineage> for explicit read-only historical compatibility"
      : `no compact facade review lineage ${goQuoteStr(id)} was found; run gentle-ai review start --lineage ${id} to begin a fresh compact review, or use gentle-ai review-resume --cwd <repo> --lineage ${id} for explicit read-only historical compatibility`,
  );
}

/** `validateLineageID` (reviewtransaction/store.go:163-168). */
function validLineage(lineage: string): boolean {
  return lineage.length > 0 && lineage.length <= 128 && /^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(lineage);
}

const LINEAGE_ID_TEXT = "lineage_id must be a canonical lowercase kebab-case identifier of at most 128 bytes";
const ROOT_CONTEXT = "resolve review repository root";

/**
 * The --cwd resolution of a repository-world FINALIZE (`SnapshotBuilder.ResolveRepositoryRoot`, snapshot.go:612-632,
 * wrapped at 301fb2ad review_facade.go:2713, fb55ef7b :2468), an untyped error. The seeded world and the descriptor
 * route (its --repository-context names the repository) resolve nothing here.
 */
function repositoryRoot(invocation: Invocation, r: Request): RepositoryScope | undefined {
  if (invocation.lineagePinned !== false || r.descriptor) return undefined;
  const cwd = r.f.str("cwd");
  if (cwd.trim() === "") throw nativeError(`${ROOT_CONTEXT}: snapshot repository path is required`);
  return repositoryScopeAt(invocation, resolve(invocation.cwd, cwd));
}

/**
 * The text an explicit malformed --lineage meets first: the new-lineage discovery's before the burn
 * (DiscoverNewLineage, 301fb2ad review_facade.go:2727), after it the staged-burn inspection's, which reads the trimmed
 * value and whose failure falls to the deleting-burn recovery that names itself (fb55ef7b :2478-2489).
 */
function malformedLineage(lineage: string, traits: ProfileTraits): ReviewRefusal | undefined {
  if (lineage.trim() === "" || validLineage(traits.approvalBurns ? lineage.trim() : lineage)) return undefined;
  return nativeError(
    traits.approvalBurns
      ? `recover deleting staged approved compact review authority: ${LINEAGE_ID_TEXT}`
      : LINEAGE_ID_TEXT,
  );
}

// reviewCompactFacadeLineageNotDiscoverableReason (301fb2ad review_facade.go:96): before the burn, an untyped error.
const NOT_DISCOVERABLE =
  "no discoverable compact facade review lineage found; run gentle-ai review start to begin one, or pass --cwd if it was started from a different repository path";

/**
 * A repository-world FINALIZE whose lineage the dispatcher found no live record for (discoverCompactFacadeFinalize):
 * from b43e0928 it is absent, a preflight refusal; before it, an explicit lineage fails to load its state file and
 * discovery finds nothing to finalize, both untyped.
 */
function absentInRepository(scope: RepositoryScope, lineage: string, traits: ProfileTraits): void {
  const id = lineage.trim();
  const held = listLineageRecords(scope.storeRoot).filter(
    (record) => !traits.approvalBurns || !lineageApproved(scope, record.lineageId),
  );
  if (id === "" ? held.length > 0 : held.some((record) => record.lineageId === id)) return;
  if (traits.approvalBurns) throw lineageAbsent(id);
  if (id === "") throw nativeError(NOT_DISCOVERABLE);
  const state = join(scope.repo.gitCommonDir, "gentle-ai", "review-transactions", "v2", lineage, "review-state.json");
  throw nativeError(`load compact facade review lineage: open ${state}: no such file or directory`);
}

/**
 * Repository resolution and authority discovery (review_facade.go:2466-2545), in source order. The simulated
 * repository holds one lineage; an approved lineage's authority was burned, so discovery finds nothing (the
 * staged-burn replay is not simulated). A descriptor's --repository-context handle must commit to its (lineage,
 * target, revision).
 */
function discover(
  invocation: Invocation,
  r: Request,
  a: Authority,
  traits: ProfileTraits,
  scope: RepositoryScope | undefined,
): void {
  const { f } = r;
  const lineage = f.str("lineage");
  if (r.descriptor)
    resolveRepositoryContext(a, f.str("repository-context"), {
      lineage,
      target: f.str("target"),
      revision: f.str("expected-revision"),
    });
  const malformed = malformedLineage(lineage, traits);
  if (malformed !== undefined) throw malformed;
  if (r.expectedRevisionOnly) throw invalidRequest(DESCRIPTORS_INCOMPLETE);
  // The compact store then validates the raw value (CompactAuthoritativeStore, compact_store.go:1101-1104).
  if (lineage.trim() !== "" && !validLineage(lineage)) throw nativeError(LINEAGE_ID_TEXT);
  if (scope !== undefined && invocation.repositoryRoot === undefined) absentInRepository(scope, lineage, traits);
  // (decided) the seeded world has no compact store to name: another lineage is absent there in every profile.
  const burned = a.lineage.state === "approved" && traits.approvalBurns;
  if (lineage.trim() !== "") {
    if (lineage !== a.lineageId || burned) throw lineageAbsent(lineage);
  } else if (burned) throw lineageAbsent("");
}

/** `facadeFinalizeReplayInputsEmpty` (301fb2ad review_facade.go:3474-3477): only --lineage (and output flags) given. */
function replayInputsEmpty(r: Request): boolean {
  const { f } = r;
  const none = (name: string): boolean => f.str(name).trim() === "";
  return (
    ["result", "result-artifact", "result-artifact-file"].every((name) => f.count(name) === 0) &&
    !f.bool("captured-results") &&
    !f.bool("captured-evidence") &&
    ["validation", "refuter", "evidence", "trace"].every(none) &&
    f.int("correction-lines") === 0 &&
    !f.bool("failed") &&
    agentCount(r.argv) === 0
  );
}

/**
 * `validateReviewFinalizeSubmission` (review_facade.go:2963-3037) for a descriptor submission. (not simulated) the
 * final byte-for-byte comparison of argv with the provider-issued descriptor tokens.
 */
function checkSubmission(r: Request, a: Authority): void {
  if (!r.descriptor) return;
  const { f } = r;
  if (f.str("expected-revision") !== a.revision)
    throw invalidRequest(`${V} submission expected revision is stale; ${REFRESH}`);
  const hasValidation = f.str("validation").trim() !== "";
  const lines = flagProvided(r.argv, "correction-lines");
  if (!lines && !hasValidation && f.bool("captured-evidence")) {
    if (f.str("target") !== a.correctionTargetIdentity || f.str("request-hash") !== a.requestHash)
      throw invalidRequest(
        `captured provider validator submission does not match the provider-owned targeted validation request; ${REFRESH}`,
      );
    return;
  }
  if (lines === hasValidation)
    throw invalidRequest(`${V} submission requires exactly one descriptor value; ${REFRESH}`);
  if (lines) {
    // (inferred) BuildCorrectionPlanRequest fails outside the plan stage; its error text is not pinned here.
    const n = f.int("correction-lines");
    if (
      n < 1 ||
      n > correctionBudget(a.ids) ||
      f.str("target") !== a.targetIdentity ||
      f.str("request-hash") !== a.correctionRequestHash
    )
      throw invalidRequest(`${V} submission does not match the provider-owned correction request; ${REFRESH}`);
    return;
  }
  if (!f.bool("captured-evidence"))
    throw invalidRequest(`${V} validation submission requires captured evidence; ${REFRESH}`);
  if (f.str("target") !== a.correctionTargetIdentity || f.str("request-hash") !== a.requestHash)
    throw invalidRequest(`${V} submission does not match the provider-owned targeted validation request; ${REFRESH}`);
}

/** Moves the lineage to approved: a lifecycle transition, so the revision advances. */
function approve(draft: LineageState): void {
  draft.state = "approved";
  draft.approved = true;
  draft.revisionIndex += 1;
}

function finalizeReviewing(invocation: Invocation, r: Request, draft: LineageState): void {
  // No reviewer-result source reads no results, which prepareCompactReviewerResults refuses by count
  // (review_facade.go:3424-3426 at fb55ef7b; the same at 301fb2ad). The captured ones were checked with the inputs.
  if (!r.f.bool("captured-results"))
    throw invalidRequest(requiresAllText(draft.lenses.length, "original reviewer result"));
  // A repository lineage is decided by its captured results, as gentle-ai decides (captured-verdict.ts).
  if (invocation.repositoryRoot !== undefined)
    return applyVerdict(draft, capturedVerdict(draft, identitiesFor(draft.seed, invocation.identitySource)));
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

/**
 * Applies the captured results' verdict: a correction awaiting its plan, or final verification (compact.go:1373-1379).
 */
function applyVerdict(draft: LineageState, verdict: CapturedVerdict): void {
  draft.revisionIndex += 1;
  if (verdict.state === "validating") {
    draft.state = "validating";
    return;
  }
  draft.state = "correction_required";
  draft.correction = {
    ...draft.correction,
    stage: "plan_required",
    forecastLines: null,
    evidence: null,
    evidenceOutcome: null,
    validatorCaptured: false,
    fixFindings: [...verdict.fixFindings],
  };
}

function finalizeCorrection(invocation: Invocation, r: Request, draft: LineageState, inputs: FinalizeInputs): void {
  const { f } = r;
  const a = authorityOf(invocation.scenario, draft, invocation.identitySource);
  const stage = draft.correction.stage ?? "plan_required";
  if (stage === "plan_required") {
    const budget = correctionBudget(a.ids);
    // (inferred) texts of the forecast refusals.
    if (!flagProvided(r.argv, "correction-lines"))
      throw invalidRequest("compact correction requires a positive correction line forecast before acceptance");
    const lines = f.int("correction-lines");
    if (lines < 1 || lines > budget)
      throw invalidRequest(
        `correction line forecast ${lines} is outside the frozen correction budget of 1 to ${budget} lines`,
      );
    draft.correction.stage = "candidate_unavailable";
    draft.correction.forecastLines = lines;
    draft.revisionIndex += 1;
    return;
  }
  // A repository lineage reads its corrected candidate from the workspace: present once a genesis path changed.
  if (stage === "candidate_unavailable" && !correctionCandidatePresent(a))
    throw invalidRequest(
      "corrected candidate is unavailable: apply the bounded correction before finalizing the correction",
    ); // (inferred)
  const doc = inputs.validation;
  // A raw --evidence document was read but is not captured evidence: in correction_required only the flag loads a
  // record.
  const record = inputs.captured;
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
    throw invalidRequest(
      "targeted validation result is required: run the provider-owned targeted validation and finalize with --validation",
    );
  }
  if (doc.originalCriteria.evidence.length === 0 || doc.correctionRegression.evidence.length === 0)
    throw invalidRequest(EMPTY_EVIDENCE_TEXT);
  const inconclusive = inconclusiveCheck(doc);
  if (inconclusive !== undefined) throw invalidRequest(inconclusiveText(inconclusive));
  if (doc.requestHash !== a.requestHash || doc.correctionTargetIdentity !== a.correctionTargetIdentity)
    throw invalidRequest(D1_TEXT);
  if (doc.originalCriteria.passed && doc.correctionRegression.passed) return approve(draft);
  // (inferred) a bound, conclusive failing validation consumes the attempt: a new correction plan is required.
  draft.correction = {
    ...draft.correction,
    stage: "plan_required",
    forecastLines: null,
    evidence: null,
    evidenceOutcome: null,
    validatorCaptured: false,
  };
  draft.revisionIndex += 1;
}

function finalizeValidating(invocation: Invocation, draft: LineageState, inputs: FinalizeInputs): void {
  // Without --captured-evidence the record is discovered (review_facade.go:2999-3012 at 301fb2ad), --failed ignored.
  const record =
    inputs.captured ?? capturedEvidence(authorityOf(invocation.scenario, draft, invocation.identitySource));
  // (inferred) text of a missing captured record; (not simulated) a raw --evidence document as the final evidence.
  if (record === undefined) throw invalidRequest("captured verification evidence is missing");
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

// reviewApprovedCompactBurnedFinalizeAction (review_facade.go:90) and the non-terminal action (:2837, :2900).
const BURNED_ACTION = "the approved review completed and burned; delivery follows ordinary repository policy";
// Before the burn (301fb2ad review_facade.go:3030, :3160, :3182): the approved receipt governs delivery.
const VALIDATE_ACTION = "validate delivery with gentle-ai review validate --gate <gate>";
const CONTINUE_ACTION = "continue the current review state";

const FORBIDDEN_FINALIZE_STATUS = "forbidden_finalize_requires_target_status";

/**
 * `reviewStopEligibility(reviewActionForbiddenFinalizeStatus, ["target_scoped_status"])`
 * (review_status_contract.go:357-366).
 */
function stopEligibility(): NonNullable<FinalizeResult["eligibility"]> {
  return {
    allowed_actions: [
      { action: "stop", reason_code: FORBIDDEN_FINALIZE_STATUS, required_inputs: ["target_scoped_status"] },
    ],
    forbidden_actions: FINALIZE_MANAGED_ACTIONS.map((action) => ({ action, reason_code: FORBIDDEN_FINALIZE_STATUS })),
  };
}

/**
 * The success document (`encodeCompactFacadeFinalize`, review_facade.go:3663-3760): plain prints
 * ReviewFacadeFinalizeResult; negotiated wraps ReviewIntegrationFinalizeResult in operation/v1 or /v2
 * (`encodeReviewIntegrationOperation`, review_operation_contract.go:1607-1630). The approved authority is burned, so no
 * receipt_path. (not simulated) escalation, advisory_findings and next_transition (`--next-transition`).
 */
function successDocument(r: Request, a: Authority, traits: ProfileTraits, receiptPath: string | undefined): Buffer {
  const l = a.lineage;
  const approved = l.state === "approved";
  const base = {
    operation: "review/finalize" as const,
    lineage_id: a.lineageId,
    state: l.state,
    action: approved ? (traits.approvalBurns ? BURNED_ACTION : VALIDATE_ACTION) : CONTINUE_ACTION,
    store_revision: a.revision,
  };
  // 301fb2ad review_facade.go:4842-4844: an unburned approval names its receipt (plain route only; real 2.4.0 bytes).
  if (!r.negotiated)
    return encodeReviewJson(
      approved && !traits.approvalBurns && receiptPath !== undefined ? { ...base, receipt_path: receiptPath } : base,
    );
  // A negotiated correction with a forecast carries the targeted validation request once the corrected candidate
  // exists.
  const request =
    l.state === "correction_required" && l.correction.forecastLines !== null && correctionCandidatePresent(a)
      ? validationRequestJson(a)
      : undefined;
  const result = {
    ...base,
    eligibility: r.f.bool("action-eligibility") ? stopEligibility() : undefined,
    validation_request: request as FinalizeResult["validation_request"],
  } satisfies FinalizeResult;
  const v2 = r.contract === CONTRACT_V2;
  const envelope: OperationV1 | OperationV2 = v2
    ? {
        schema: "gentle-ai.review-integration.operation/v2",
        contract: CONTRACT_V2,
        operation: "review.finalize",
        result,
      }
    : {
        schema: "gentle-ai.review-integration.operation/v1",
        contract: CONTRACT_V1,
        operation: "review.finalize",
        result,
      };
  return encodeReviewJson(envelope);
}

async function body(
  invocation: Invocation,
  traits: ProfileTraits,
  argv: readonly string[],
  out: StdoutBuffer,
): Promise<void> {
  const r = preflight(invocation, traits, argv, out);
  if (r === undefined) return;
  const scope = repositoryRoot(invocation, r);
  const lineage = readLineage(invocation.stateDir, invocation.scenario, invocation.identitySource);
  const current = authorityOf(invocation.scenario, lineage, invocation.identitySource);
  discover(invocation, r, current, traits, scope);
  checkSubmission(r, current);
  // Before the burn an approved lineage replays its frozen receipt exactly, writing nothing and past the kill switch
  // (301fb2ad review_facade.go:2815-2826, :3026-3031): the approving call's document again.
  if (current.lineage.state === "approved") {
    if (!replayInputsEmpty(r))
      throw nativeError("terminal review finalize accepts no review inputs; exact replay requires only --lineage");
    return out.write(successDocument(r, current, traits, receiptPath(invocation, current.lineageId)));
  }
  // The kill switch reaches FINALIZE after discovery (review_facade.go:2567-2577): a non-terminal lineage is refused.
  if (current.lineage.rddDisabled) throw rddDisabled(current.lineage);
  const after = updateLineage(invocation.stateDir, invocation.scenario, invocation.identitySource, (draft) => {
    // review_facade.go:2585-2595: reviewer results are new input only while reviewing.
    if (draft.state !== "reviewing" && (r.f.count("result-artifact") > 0 || r.f.count("result-artifact-file") > 0))
      throw invalidRequest("reviewer results are accepted only while the authority is reviewing");
    if (draft.state === "approved") throw lineageAbsent(r.f.str("lineage")); // discover() already refused; kept for the lock's re-read
    // Every input is read before the plan looks at any (301fb2ad review_facade.go:2873-2975).
    const inputs = readFinalizeInputs(
      invocation,
      r.f,
      flagProvided(r.argv, "failed"),
      authorityOf(invocation.scenario, draft, invocation.identitySource),
    );
    switch (draft.state) {
      case "reviewing":
        finalizeReviewing(invocation, r, draft);
        break;
      case "correction_required":
        finalizeCorrection(invocation, r, draft, inputs);
        break;
      case "validating":
        finalizeValidating(invocation, draft, inputs);
        break;
    }
    return authorityOf(invocation.scenario, draft, invocation.identitySource);
  });
  out.write(successDocument(r, after, traits, receiptPath(invocation, after.lineageId)));
}

/**
 * store.ReceiptPath(): `<git common dir>/gentle-ai/review-transactions/v2/<lineage>/review-receipt.json` (repository
 * lineages).
 */
function receiptPath(invocation: Invocation, lineageId: string): string | undefined {
  if (invocation.repositoryRoot === undefined) return undefined;
  return join(
    resolveRepository(invocation.repositoryRoot).gitCommonDir,
    "gentle-ai",
    "review-transactions",
    "v2",
    lineageId,
    "review-receipt.json",
  );
}

/**
 * review finalize: negotiated with --contract (generic stderr, native text in `cause`), plain `Error: <text>`
 * otherwise.
 */
export function finalize(invocation: Invocation): Promise<Outcome> {
  const traits = traitsOf(invocation.scenario.profile);
  const argv = invocation.argv.slice(2);
  const route = routeFor(argv, "finalize", "negotiable");
  return runRoutedReportingDefects(invocation, route, "finalize", argv, (out) => body(invocation, traits, argv, out));
}
