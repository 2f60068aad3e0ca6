// review start (cli/review_facade.go runReviewFacadeStart, review_start_contract.go, review_consent_contract.go,
// review_mode.go authorizeReviewStart): freezes the repository's candidate, classifies it, asks for consent when the
// caller relays (consent/v3; consent/v1 for a v1 client), and creates or replays the candidate's lineage (start/v3
// `created` / `replayed`); a relayed decline answers the typed `declined` START and creates nothing.
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Invocation, Outcome } from "../invocation.ts";
import type { ParsedFlags } from "../../go/go-flags.ts";
import type { FlagSetSpec } from "../../go/flag-spec.ts";
import { scanFlagsOf } from "../../go/go-flags.ts";
import { goQuoteStr } from "../../go/go-quote.ts";
import { traitsOf, type ProfileTraits } from "../profiles.ts";
import { routeFor, runRouted } from "../route.ts";
import type { StdoutBuffer } from "../route.ts";
import { invalidRequest, nativeError, ReviewRefusal } from "../refusal.ts";
import { requireRuntime, requireTransportCapability, type Runtime } from "../gates/handshake.ts";
import { CONTRACT_V1, CONTRACT_V2 } from "../../output/envelope.ts";
import { encodeReviewJson, type GoJson } from "../../go/go-json.ts";
import type { StartAction, StartDeclined, StartLens, StartV3 } from "../../contract/start.ts";
import type { ConsentQuestionBody, ConsentV1, ConsentV3 } from "../../contract/consent.ts";
import { writeFileAtomic } from "../../state/atomic-file.ts";
import { initialLineage } from "../../state/lineage-initial.ts";
import { LINEAGE_FILE } from "../../state/lineage-store.ts";
import { checkContract, parseVerbFlags } from "./shared/verb-flags.ts";
import { readInputError } from "./shared/read-input.ts";
import { UNTRACKED_SET_ONCE } from "./status/status-flags.ts";
import {
  flagValue,
  lineageScenario,
  lineageState,
  repositoryRefusal,
  requireCwd,
  scopeAt,
  type RepositoryScope,
} from "../repository-scope.ts";
import { runGit } from "../../repository/git.ts";
import { defectReportClause } from "../defect-report.ts";
import { RepositoryNotFoundError, resolveRepository, type RepositoryIdentity } from "../../repository/locate.ts";
import { buildSnapshot, SnapshotError, type Snapshot } from "../../repository/snapshot.ts";
import { changedPathEntries, diffStats } from "../../repository/manifest.ts";
import { changedPathManifest, changedPathManifestDigest } from "../../state/identities.ts";
import { legacyCorrectionBudget } from "./shared/correction-authority.ts";
import { shellWord } from "./status/status-context.ts";
import {
  assessRisk,
  consentReason,
  isFocus,
  riskEvidence,
  selectLenses,
  type RiskAssessment,
} from "../../repository/risk.ts";
import { CONSENT_ES, consentReasonEs, riskEvidenceEs } from "../../repository/risk-es.ts";
import {
  selectionRequiredText,
  untrackedScope,
  UntrackedSelectionError,
  declarationArguments,
  type UntrackedScope,
} from "../../repository/untracked.ts";
import { disabledText, modeStatus } from "../../repository/review-mode.ts";
import { derivedStartLineage, startLineageId } from "../../repository/digests.ts";
import {
  createLineageRecord,
  listLineageRecords,
  readLineageRecord,
  REPOSITORY_LINEAGE_SCHEMA,
  type RepositoryLineageRecord,
} from "../../repository/lineage-store.ts";
import {
  artifactSubjectHash,
  lineageEventId,
  lineageRevision,
  repositoryContextEventId,
  repositoryContextHandle,
} from "../../repository/lineage-identities.ts";
import { publishRepositoryContext } from "../../repository/context-registry.ts";
import { startRevision } from "../../repository/start-revision.ts";

const START_SCHEMA_V3 = "gentle-ai.review-integration.start/v3";
const CONSENT_SCHEMA_V1 = "gentle-ai.review-integration.consent/v1";
const CONSENT_SCHEMA_V3 = "gentle-ai.review-integration.consent/v3";
const EMPTY_CANDIDATE_HINT =
  "the candidate has no pending changes; already-committed work can be reviewed by rerunning review start with --base-ref <commit> naming the base to compare against";

export const START_FLAG_SET: FlagSetSpec = {
  name: "review start",
  details: "Freeze live Git scope and derive the bounded review tier, lenses, and correction budget.",
  flags: [
    { name: "cwd", kind: "string", default: ".", usage: "repository path" },
    { name: "contract", kind: "string", usage: "optional negotiated review integration contract" },
    { name: "agent", kind: "string", usage: "generated active runtime identity for negotiated lifecycle routing" },
    { name: "target", kind: "string", usage: "exact frozen target identity for negotiated START" },
    { name: "lineage", kind: "string", usage: "optional explicit review lineage identifier" },
    {
      name: "policy",
      kind: "string",
      usage: "optional review policy file; the native bounded policy is used by default",
    },
    {
      name: "focus",
      kind: "string",
      default: "reliability",
      usage:
        "dominant standard-risk focus: risk, resilience, readability, or reliability; large pure documentation always uses readability",
    },
    { name: "base-ref", kind: "string", usage: "optional base revision for immutable base-to-HEAD review" },
    {
      name: "projection",
      kind: "string",
      default: "workspace",
      usage: "candidate projection: workspace or staged; staged base-diff records post-commit delivery provenance",
    },
    { name: "committed-only", kind: "bool", usage: "acknowledge that --base-ref excludes dirty tracked changes" },
    { name: "workspace-overlay", kind: "bool", usage: "include branch commits and the live workspace over --base-ref" },
    { name: "trace", kind: "string", usage: "optional diagnostic operation metadata trace path" },
    {
      name: "consent",
      kind: "string",
      usage:
        "negotiated consent declaration: relay to receive the typed blocking consent question, granted or declined to answer it for the exact frozen candidate",
    },
    { name: "locale", kind: "string", usage: "optional consent-envelope locale: en or es" },
    {
      name: "untracked-scope",
      kind: "string",
      usage: "explicit untracked scope: exclude or select",
      setError: UNTRACKED_SET_ONCE,
    },
    {
      name: "intended-untracked",
      kind: "string",
      usage: "repo-relative untracked path to include; repeat for each path",
    },
    {
      name: "expected-untracked-inventory",
      kind: "string",
      usage: "sha256 inventory digest from review status",
      setError: UNTRACKED_SET_ONCE,
    },
  ],
};

/** reviewPreflightError: the default "correct the request you sent" classification. */
const preflight = invalidRequest;

/** Occurrences of each binding flag before the terminator (reviewStartBindingFlagCounts). */
function bindingCounts(f: ParsedFlags): Map<string, number> {
  const counts = new Map<string, number>();
  for (const name of [
    "contract",
    "agent",
    "target",
    "projection",
    "lineage",
    "base-ref",
    "committed-only",
    "workspace-overlay",
    "consent",
    "locale",
  ])
    counts.set(name, f.count(name));
  return counts;
}

/** validateReviewStartBinding. */
function validateBinding(f: ParsedFlags, negotiated: boolean): void {
  const counts = bindingCounts(f);
  const consent = f.str("consent").trim();
  if (!["", "relay", "granted", "declined"].includes(consent))
    throw preflight(
      "review start --consent accepts exactly relay, granted, or declined; rerun gentle-ai review start with one of those values",
    );
  if (!negotiated) {
    if (counts.get("agent")! !== 0) throw preflight("review start --agent requires a negotiated --contract");
    if (counts.get("target")! !== 0) throw preflight(`review start --target requires --contract ${CONTRACT_V1}`);
    if (counts.get("consent")! !== 0)
      throw preflight(
        `review start --consent requires the negotiated form; rerun as gentle-ai review start --contract ${CONTRACT_V1} with the bound --target and --projection`,
      );
    if (counts.get("locale")! !== 0) throw preflight("review start --locale requires a negotiated --contract");
    return;
  }
  for (const [name, n] of counts) if (n > 1) throw preflight(`review start repeats --${name}`);
  const locale = f.str("locale").trim();
  if (locale !== "" && locale !== "en" && locale !== "es") throw preflight("review consent locale must be en or es");
  if (counts.get("contract") !== 1 || counts.get("target") !== 1 || counts.get("projection") !== 1)
    throw preflight("negotiated review start requires exactly one --contract, --target, and --projection");
  if (!/^sha256:[0-9a-f]{64}$/.test(f.str("target")))
    throw preflight("negotiated review start requires an exact sha256 --target");
  if (f.str("projection") !== "workspace" && f.str("projection") !== "staged")
    throw preflight("negotiated review start requires an exact supported --projection");
  if (counts.get("lineage") === 1 && !/^review-[a-z0-9]+(?:-[a-z0-9]+)*$/.test(f.str("lineage")))
    throw preflight("negotiated review start lineage is not canonical");
  const base = f.str("base-ref").trim();
  if (f.bool("workspace-overlay")) {
    if (
      counts.get("workspace-overlay") !== 1 ||
      counts.get("base-ref") !== 1 ||
      base === "" ||
      counts.get("committed-only") !== 0
    )
      throw preflight("negotiated workspace-overlay START requires exactly --base-ref and --workspace-overlay");
  } else if (base !== "") {
    if (
      counts.get("base-ref") !== 1 ||
      counts.get("committed-only") !== 1 ||
      !f.bool("committed-only") ||
      counts.get("workspace-overlay") !== 0
    )
      throw preflight("negotiated base-diff START requires exactly --base-ref and --committed-only");
  } else if (
    counts.get("base-ref") !== 0 ||
    counts.get("committed-only") !== 0 ||
    counts.get("workspace-overlay") !== 0
  )
    throw preflight("negotiated current-changes START contains a partial base selector");
}

/**
 * The base selector's own refusals before the candidate is frozen (review_facade.go runReviewFacadeStart, the same at
 * 301fb2ad and fb55ef7b): an overlay needs a workspace --base-ref without --committed-only, and a plain --base-ref
 * over dirty tracked files (`git diff --name-only HEAD` non-empty) needs --committed-only to acknowledge it.
 */
function checkBaseSelector(
  repo: RepositoryIdentity,
  baseRef: string,
  projection: string,
  committedOnly: boolean,
  overlay: boolean,
): void {
  if (overlay) {
    if (baseRef === "" || committedOnly || projection !== "workspace")
      throw nativeError(
        "--workspace-overlay requires --base-ref with workspace projection and is incompatible with --committed-only",
      );
    // (inferred scope limit) the base-workspace-overlay target is not simulated.
    throw nativeError("gentle-ai-sim: review start --workspace-overlay is not simulated");
  }
  if (baseRef === "" || committedOnly) return;
  const diff = runGit(repo.root, ["diff", "--name-only", "-z", "HEAD", "--"]);
  if (diff.code !== 0) throw nativeError(`detect dirty tracked changes for committed review: ${diff.stderr.trim()}`);
  if (diff.stdout.length > 0)
    throw nativeError(
      "review start with --base-ref omits dirty tracked changes; rerun with --committed-only to acknowledge committed-only review scope",
    );
}

/** reviewConsentFollowUpBase: the caller's own START as the runnable answer stem. */
function followUpBase(
  f: ParsedFlags,
  snapshot: Snapshot,
  contract: string,
  agent: string,
  scope: UntrackedScope,
): string {
  const parts = [
    "gentle-ai review start",
    `--contract ${contract}`,
    `--cwd ${shellWord(f.str("cwd"))}`,
    `--target ${snapshot.identity}`,
    `--projection ${snapshot.projection}`,
  ];
  if (agent !== "") parts.push(`--agent ${agent}`);
  const lineage = f.str("lineage").trim();
  if (lineage !== "") parts.push(`--lineage ${lineage}`);
  const baseRef = f.str("base-ref").trim();
  if (baseRef !== "") parts.push(`--base-ref ${baseRef}`);
  if (f.bool("committed-only")) parts.push("--committed-only");
  if (f.bool("workspace-overlay")) parts.push("--workspace-overlay");
  if (f.str("policy").trim() !== "") parts.push(`--policy ${shellWord(f.str("policy").trim())}`);
  const focus = f.str("focus").trim();
  if (focus !== "" && focus !== "reliability") parts.push(`--focus ${focus}`);
  if (f.str("trace").trim() !== "") parts.push(`--trace ${shellWord(f.str("trace").trim())}`);
  if (f.str("locale").trim() !== "") parts.push(`--locale ${f.str("locale").trim()}`);
  for (const a of declarationArguments(scope)) parts.push(shellWord(`--${a.name}=${a.value}`));
  return parts.join(" ");
}

const DECLINED_EFFECT_V1 =
  "Skips the review for this candidate only; nothing is persisted and the next candidate is asked again. This is not the kill switch.";
const DECLINED_EFFECT_V2 =
  "Skips the review for this exact candidate only; no review lineage or receipt is created, and ordinary delivery is unmanaged by candidate choice. The next candidate is asked again. This is not the kill switch.";

/** reviewConsentEnvelopeTextFor: the envelope's words in the requested locale (English unless `es`). */
function consentText(assessment: RiskAssessment, v2: boolean, locale: string) {
  if (locale === "es")
    return { ...CONSENT_ES, reason: consentReasonEs(assessment), evidence: riskEvidenceEs(assessment) ?? [] };
  return {
    headline: "Gentle AI can review this change before you call it done.",
    reason: consentReason(assessment),
    value: "Reviewing takes a bit longer, and it makes the result substantially safer.",
    evidence: riskEvidence(assessment) ?? [],
    grantedLabel: "Run the review now",
    grantedEffect:
      "Reviews this exact frozen candidate now; nothing is granted for later candidates, so each later medium- or high-risk candidate asks again.",
    declinedLabel: "Not now, just this once",
    declinedEffect: v2 ? DECLINED_EFFECT_V2 : DECLINED_EFFECT_V1,
    offPathNote: "To turn reviews off for good, run 'gentle-ai review mode disable'.",
  };
}

/** What both consent versions ask, after their identity (newReviewIntegrationConsentResult). */
function consentBody(
  snapshot: Snapshot,
  assessment: RiskAssessment,
  base: string,
  t: ReturnType<typeof consentText>,
): ConsentQuestionBody {
  // Unreachable: START asks only a medium or high tier (Go's Validate refuses a low one the same way).
  if (assessment.level === "low")
    throw nativeError('validate consent question: consent question tier "low" asks no question');
  return {
    blocking: true,
    target_identity: snapshot.identity,
    projection: snapshot.projection,
    risk_level: assessment.level,
    changed_files: snapshot.paths.length,
    changed_lines: assessment.changedLines,
    headline: t.headline,
    reason: t.reason,
    value: t.value,
    risk_evidence: t.evidence,
    choices: [
      { answer: "granted", label: t.grantedLabel, effect: t.grantedEffect, invocation: `${base} --consent granted` },
      {
        answer: "declined",
        label: t.declinedLabel,
        effect: t.declinedEffect,
        invocation: `${base} --consent declined`,
      },
    ],
    off_path: { note: t.offPathNote, command: "gentle-ai review mode disable" },
  };
}

/** newReviewIntegrationConsentResult: consent/v1 for a v1 client; v2's consent/v3 names the runtime it asks for. */
function consentQuestion(
  snapshot: Snapshot,
  assessment: RiskAssessment,
  base: string,
  contract: string,
  agent: Runtime | "",
  locale: string,
): GoJson {
  const v2 = contract === CONTRACT_V2;
  const body = consentBody(snapshot, assessment, base, consentText(assessment, v2, locale));
  const identity = { operation: "review.start", action: "consent_required" } as const;
  if (!v2) return { schema: CONSENT_SCHEMA_V1, contract: CONTRACT_V1, ...identity, ...body } satisfies ConsentV1;
  // Only the undeclared compatibility path (no runtime named) keeps the historical default.
  const runtime = agent === "" ? "claude-code" : agent;
  return { schema: CONSENT_SCHEMA_V3, contract: CONTRACT_V2, ...identity, agent: runtime, ...body } satisfies ConsentV3;
}

/** reviewFacadeStartDeclinedResult: the typed decline; no lineage, no lenses, nothing persisted. */
function declinedResult(snapshot: Snapshot, assessment: RiskAssessment): GoJson {
  return {
    operation: "review/start",
    action: "declined",
    lenses_required: false,
    lineage_id: "",
    state: "",
    risk_level: assessment.level,
    selected_lenses: [],
    lens_bindings: [],
    projection: snapshot.projection,
    target_identity: snapshot.identity,
    changed_files: snapshot.paths.length,
    changed_lines: assessment.changedLines,
    correction_budget: 0,
    risk_evidence: riskEvidence(assessment),
    consent: "declined_this_candidate",
  } satisfies StartDeclined;
}

const FINDING_PREFIX: Readonly<Record<string, string>> = {
  "review-risk": "R1-",
  "review-readability": "R2-",
  "review-reliability": "R3-",
  "review-resilience": "R4-",
};

/** reviewNegotiatedStartCommand (review_facade.go:165 at 301fb2ad): the negotiated START a plain hint names. */
function negotiatedStartCommand(s: Snapshot): string {
  let command = `gentle-ai review start --contract ${CONTRACT_V2} --target ${s.identity} --projection ${s.projection}`;
  if (s.kind === "base-diff") command += ` --base-ref ${s.baseTree} --committed-only`;
  return command;
}

/**
 * The plain START's hint before the atomic route (301fb2ad review_facade.go:2254-2262): lenses need the negotiated
 * form.
 */
function plainHint(record: RepositoryLineageRecord, traits: ProfileTraits): string | undefined {
  if (traits.atomicStart || record.selectedLenses.length === 0) return undefined;
  return (
    "this response's selected lenses require the frozen Git trees, changed-path manifest, and artifact subjects, which only the negotiated contract form returns; rerun with `" +
    negotiatedStartCommand(record.snapshot) +
    "` to receive them"
  );
}

/** reviewFacadeStartResultFor: the plain (non-negotiated) START result. */
function plainResult(
  action: StartAction,
  record: RepositoryLineageRecord,
  assessment: RiskAssessment,
  traits: ProfileTraits,
): GoJson {
  return {
    operation: "review/start",
    action,
    lenses_required: record.selectedLenses.length > 0,
    lineage_id: record.lineageId,
    state: "reviewing",
    risk_level: record.risk.level,
    selected_lenses: [...record.selectedLenses],
    lens_bindings: record.selectedLenses.map((lens, order) => ({
      lens,
      order,
      finding_id_prefix: FINDING_PREFIX[lens] ?? "",
    })),
    projection: record.snapshot.projection,
    target_identity: record.snapshot.identity,
    changed_files: record.snapshot.paths.length,
    changed_lines: record.risk.changedLines,
    correction_budget: legacyCorrectionBudget(record.risk.changedLines),
    risk_evidence: riskEvidence(assessment),
    hint: plainHint(record, traits),
  };
}

/** The event id of the repository-context effect START recorded (exact when START's revision is known). */
function startEventId(record: RepositoryLineageRecord, repo: RepositoryIdentity): string {
  const s = record.snapshot;
  return record.startRevision === undefined
    ? lineageEventId(record.lineageId, s.identity, 0)
    : repositoryContextEventId(record.lineageId, s.identity, record.startRevision, record.repositoryContext, repo);
}

/** newReviewIntegrationStartResult (native Git transport, start/v3). */
function negotiatedResult(
  action: StartAction,
  record: RepositoryLineageRecord,
  traits: ProfileTraits,
  repo: RepositoryIdentity,
): GoJson {
  const s = record.snapshot;
  const revision = record.startRevision ?? lineageRevision(record.lineageId, s.identity, 0);
  const lenses = record.selectedLenses;
  const withContext = lenses.length > 0;
  const manifestSha256 = changedPathManifestDigest(record.manifest);
  return {
    schema: START_SCHEMA_V3,
    contract: CONTRACT_V2,
    operation: "review.start",
    action,
    lenses_required: lenses.length > 0,
    lineage_id: record.lineageId,
    state: "reviewing",
    risk_level: record.risk.level,
    selected_lenses: [...lenses],
    projection: s.projection,
    base_tree: withContext ? s.baseTree : undefined,
    candidate_tree: withContext ? s.candidateTree : undefined,
    changed_files: s.paths.length,
    changed_lines: record.risk.changedLines,
    correction_budget: legacyCorrectionBudget(record.risk.changedLines),
    risk_reasons: record.risk.reasons.map((r) => ({ ...r })),
    artifact_subjects: lenses.map((lens, order) => ({
      schema: "gentle-ai.review-artifact-subject/v2",
      subject_hash: artifactSubjectHash({
        lineageId: record.lineageId,
        revision,
        targetIdentity: s.identity,
        baseTree: s.baseTree,
        candidateTree: s.candidateTree,
        manifestSha256,
        lens,
        order,
      }),
      lineage_id: record.lineageId,
      authority_revision: revision,
      target_identity: s.identity,
      base_tree: s.baseTree,
      candidate_tree: s.candidateTree,
      changed_path_manifest_sha256: manifestSha256,
      lens,
      selected_order: order,
    })),
    changed_path_manifest: withContext ? changedPathManifest(record.manifest) : undefined,
    repository_context: {
      capability: "review.opaque_repository_context",
      handle: record.repositoryContext,
      revision,
      target_identity: s.identity,
      // Before the atomic route START reconciled its repository-context intent and reports that event (301fb2ad
      // :2268-2292).
      event_id: traits.atomicStart ? undefined : startEventId(record, repo),
      outcome: traits.atomicStart ? undefined : "applied",
    },
  } satisfies StartV3;
}

/**
 * Before the atomic route a START whose lineage is not stored resumes the one live lineage already reviewing this
 * exact candidate (301fb2ad StartCompactAuthority: the scan's claimants), whatever --lineage named.
 * (inferred scope limit) only the reviewing claimant with the identical snapshot is modelled.
 */
function claimantOf(scope: RepositoryScope, lineageId: string, identity: string): string | undefined {
  if (readLineageRecord(scope.storeRoot, lineageId) !== undefined) return undefined;
  const claimants = listLineageRecords(scope.storeRoot).filter(
    (r) => r.snapshot.identity === identity && lineageState(scope, r.lineageId) === "reviewing",
  );
  return claimants.length === 1 ? claimants[0]!.lineageId : undefined;
}

/** Creates (or replays) the candidate's lineage: its record, its initial lifecycle state, its published context. */
function createOrReplay(
  invocation: Invocation,
  repo: RepositoryIdentity,
  requestedId: string,
  snapshot: Snapshot,
  assessment: RiskAssessment,
  lenses: readonly StartLens[],
  contextIntent: boolean,
): { record: RepositoryLineageRecord; replayed: boolean } {
  const scope = scopeAt(invocation, repo.root)!;
  const atomic = traitsOf(invocation.scenario.profile).atomicStart;
  const lineageId = atomic ? requestedId : (claimantOf(scope, requestedId, snapshot.identity) ?? requestedId);
  const revision = startRevision({
    lineageId,
    repositoryRef: repo.repositoryRef,
    snapshot,
    risk: assessment,
    selectedLenses: lenses,
    atomic,
  });
  const handle = repositoryContextHandle(lineageId, snapshot.identity, revision, repo.repositoryRef);
  const record: RepositoryLineageRecord = {
    schema: REPOSITORY_LINEAGE_SCHEMA,
    lineageId,
    repositoryRef: repo.repositoryRef,
    snapshot,
    manifest: changedPathEntries(repo, snapshot),
    risk: assessment,
    selectedLenses: [...lenses],
    repositoryContext: handle,
    contextIntent,
    startRevision: revision,
  };
  const created = createLineageRecord(scope.storeRoot, record, (dir) => {
    const state = initialLineage(lineageScenario(invocation.scenario, record, false), () => {
      throw new Error("a fresh repository lineage has no captured slot");
    });
    writeFileAtomic(join(dir, LINEAGE_FILE), JSON.stringify(state) + "\n");
  });
  if (created.replayed && created.record.snapshot.identity !== snapshot.identity)
    // (inferred) an explicit lineage already holding another candidate is historical authority, never overwritten.
    throw nativeError(
      `review lineage ${goQuoteStr(lineageId)} already holds a different frozen candidate; rerun \`gentle-ai review status --next-transition\``,
    );
  publishRepositoryContext(
    invocation.env,
    created.record.repositoryContext,
    { lineageId, targetIdentity: snapshot.identity, revision },
    repo,
  );
  return created;
}

const LINEAGE_ID_TEXT = "lineage_id must be a canonical lowercase kebab-case identifier of at most 128 bytes";

/**
 * The authority's inputs, read once consent is settled (301fb2ad: facadePolicyBytes then NewCompactState, untyped;
 * fb55ef7b: prepareReviewFacadeCompactAtomicStart, a preflight error): the --policy file must be readable and the
 * lineage id canonical (reviewtransaction/store.go lineageIDPattern, at most 128 bytes). 301fb2ad opens the path
 * untrimmed, fb55ef7b trimmed. The policy's bytes are not otherwise modelled.
 */
function checkAuthorityInputs(
  invocation: Invocation,
  traits: ProfileTraits,
  lineageId: string,
  policyFlag: string,
): void {
  const fail = (text: string): ReviewRefusal =>
    traits.atomicStart ? preflight(`prepare compact atomic facade review: ${text}`) : nativeError(text);
  const policy = traits.atomicStart ? policyFlag.trim() : policyFlag;
  if (policyFlag.trim() !== "")
    try {
      invocation.readFile(policy);
    } catch (error) {
      throw fail(`read facade review policy: ${readInputError(error, policy)}`);
    }
  if (lineageId.length === 0 || Buffer.byteLength(lineageId) > 128 || !/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(lineageId))
    throw fail(
      traits.atomicStart
        ? `build compact atomic START state: ${LINEAGE_ID_TEXT}`
        : `create compact facade review: ${LINEAGE_ID_TEXT}`,
    );
}

/** The once-per-clone notice a non-interactive plain START prints (review_mode.go reviewConsentSkippedNotice). */
function skippedNotice(repo: RepositoryIdentity): string {
  const marker = join(repo.gitCommonDir, "gentle-ai", "review-mode", "non-interactive-notice-shown");
  if (existsSync(marker)) return "";
  try {
    mkdirSync(join(repo.gitCommonDir, "gentle-ai", "review-mode"), { recursive: true });
    writeFileSync(marker, new Date().toISOString() + "\n");
  } catch {
    // best effort, as gentle-ai's marker write is
  }
  return "Gentle AI reviewed this change without asking, because this session has no terminal to answer on. Run 'gentle-ai review mode disable' to turn reviews off, or 'gentle-ai review mode status' to see the current setting.\n";
}

/** What a START already printed on stderr when it fails later: the once-per-clone notice precedes the error line. */
interface StartNotice {
  text: string;
}

/** The runtime a negotiated START binds with --agent ("" without one), after every --agent's transport check. */
function startAgent(invocation: Invocation, traits: ProfileTraits, f: ParsedFlags, negotiated: boolean): Runtime | "" {
  if (f.count("agent") === 1) requireTransportCapability(traits, f.str("agent"), invocation.env);
  if (f.count("agent") === 0 || !negotiated) return "";
  if (f.count("agent") !== 1)
    throw new ReviewRefusal(
      "immutable_review_transport_unsupported",
      "negotiated START requires exactly one generated runtime identity",
    );
  return requireRuntime(traits, f.str("agent"), invocation.env, "start").runtime;
}

/** The repository at --cwd, or the typed refusal when there is none. */
function startRepository(invocation: Invocation, f: ParsedFlags): RepositoryIdentity {
  requireCwd(f.str("cwd"));
  try {
    return resolveRepository(resolve(invocation.cwd, f.str("cwd")));
  } catch (error) {
    if (error instanceof RepositoryNotFoundError) throw repositoryRefusal(error);
    throw error;
  }
}

/** The candidate START freezes: the selectors checked, the untracked scope settled, the snapshot built. */
function startCandidate(repo: RepositoryIdentity, f: ParsedFlags): { snapshot: Snapshot; scope: UntrackedScope } {
  const projection = f.str("projection").trim();
  if (projection !== "workspace" && projection !== "staged")
    throw nativeError(`unsupported review projection ${goQuoteStr(f.str("projection"))}`);
  const baseRef = f.str("base-ref").trim();
  checkBaseSelector(repo, baseRef, projection, f.bool("committed-only"), f.bool("workspace-overlay"));
  const declared =
    f.has("untracked-scope") || f.count("intended-untracked") > 0 || f.has("expected-untracked-inventory");
  let scope: UntrackedScope = { inventory: [], intended: [], digest: "", needsSelection: false, declared: false };
  let snapshot: Snapshot;
  try {
    if (projection === "staged") {
      if (declared)
        throw preflight(
          "staged projection does not accept intended-untracked selection; remove those flags and rerun `gentle-ai review start --projection staged`",
        );
    } else {
      for (const name of ["untracked-scope", "expected-untracked-inventory"])
        if (f.count(name) > 1)
          throw preflight(
            `invalid value ${goQuoteStr(String(f.all(name)[1]))} for flag -${name}: untracked scope flags may only be specified once; rerun gentle-ai review start with one declaration`,
          );
      scope = untrackedScope(repo, {
        scope: f.has("untracked-scope") ? f.str("untracked-scope") : undefined,
        intended: f.all("intended-untracked").map(String),
        expectedInventory: f.has("expected-untracked-inventory") ? f.str("expected-untracked-inventory") : undefined,
      });
      if (scope.needsSelection) throw preflight(selectionRequiredText(scope.digest));
    }
    snapshot = buildSnapshot(repo, {
      kind: baseRef === "" ? "current-changes" : "base-diff",
      projection: projection as "workspace" | "staged",
      baseRef,
      intendedUntracked: scope.intended,
    });
  } catch (error) {
    if (error instanceof UntrackedSelectionError) throw preflight(error.message);
    if (error instanceof SnapshotError) throw nativeError(`build facade review target: ${error.message}`);
    throw error;
  }
  return { snapshot, scope };
}

function run(invocation: Invocation, argv: readonly string[], out: StdoutBuffer, notice: StartNotice): void {
  const traits = traitsOf(invocation.scenario.profile);
  const f = parseVerbFlags(START_FLAG_SET, argv, out);
  if (f === undefined) return;
  if (f.positionals.length > 0) throw preflight(`unexpected review start argument ${goQuoteStr(f.positionals[0]!)}`);
  const negotiated = f.has("contract");
  const contract = f.str("contract");
  if (negotiated) checkContract(contract);
  const agent = startAgent(invocation, traits, f, negotiated);
  validateBinding(f, negotiated);
  const consent = f.str("consent").trim();
  const repo = startRepository(invocation, f);
  const { snapshot, scope } = startCandidate(repo, f);
  if (negotiated && snapshot.identity !== f.str("target"))
    throw new ReviewRefusal("stale_target_identity", "review start target does not match the freshly built snapshot");
  if (snapshot.paths.length === 0)
    throw new ReviewRefusal("empty_candidate_scope", EMPTY_CANDIDATE_HINT, "preflight", ["base_ref"]);
  const assessment = assessRisk(repo, snapshot, diffStats(repo, snapshot));
  const focus = f.str("focus").trim();
  if (!isFocus(focus)) throw nativeError(`unsupported review focus ${goQuoteStr(f.str("focus"))}`);
  const lenses = selectLenses(assessment.level, focus);
  // authorizeReviewStart: the kill switch first, then the tier's consent moment.
  const mode = modeStatus(repo, invocation.env);
  if (mode.effective !== "on") throw new ReviewRefusal("rdd_disabled", disabledText("start", mode.source));
  if (assessment.level === "low") {
    if (consent === "declined")
      // authorizeReviewStart's plain error: no typed branch claims it (review_mode.go:645).
      throw nativeError(
        "this low-risk candidate asks no consent question, so there is nothing to decline; rerun gentle-ai review start without --consent",
      );
  } else if (consent === "relay") {
    const locale = f.str("locale").trim();
    out.write(
      encodeReviewJson(
        consentQuestion(
          snapshot,
          assessment,
          followUpBase(f, snapshot, contract, agent, scope),
          contract,
          agent,
          locale,
        ),
      ),
    );
    return;
  } else if (consent === "declined") {
    out.write(encodeReviewJson(declinedResult(snapshot, assessment)));
    return;
  } else if (consent === "" && !negotiated) notice.text = skippedNotice(repo); // non-interactive: no terminal to ask on
  const requested = f.str("lineage").trim();
  const derived = traits.atomicStart
    ? startLineageId(repo.repositoryRef, snapshot.identity)
    : derivedStartLineage(snapshot.identity);
  const lineageId = requested !== "" ? requested : derived;
  checkAuthorityInputs(invocation, traits, lineageId, f.str("policy"));
  // Only 301fb2ad's negotiated v2 START records the repository-context intent; the atomic route records none.
  const contextIntent = !traits.atomicStart && contract === CONTRACT_V2;
  const { record, replayed } = createOrReplay(invocation, repo, lineageId, snapshot, assessment, lenses, contextIntent);
  const action = !replayed ? "created" : traits.atomicStart ? "replayed" : "resumed";
  if (!negotiated) out.write(encodeReviewJson(plainResult(action, record, assessment, traits)));
  else if (contract === CONTRACT_V1)
    // (inferred scope limit) the v1 negotiated START carries a legacy candidate diff transport that is not simulated.
    throw nativeError("legacy negotiated START requires its published candidate transport");
  else out.write(encodeReviewJson(negotiatedResult(action, record, traits, repo)));
}

/**
 * `gentle-ai review start …` in the repository at --cwd: negotiated with --contract, plain otherwise. A plain START
 * that asked no question prints its once-per-clone notice on stderr; an untyped failure saves a defect report and
 * names it on the error line (review_facade.go:710, review_defect_report.go).
 */
export async function start(invocation: Invocation): Promise<Outcome> {
  const argv = invocation.argv.slice(2);
  const notice: StartNotice = { text: "" };
  let fault: ReviewRefusal | undefined;
  const route = routeFor(argv, "start", "negotiable", scanFlagsOf(START_FLAG_SET));
  const outcome = await runRouted(route, (out) => {
    try {
      run(invocation, argv, out, notice);
    } catch (error) {
      if (error instanceof ReviewRefusal && error.kind === "native" && route.mutates) fault = error;
      throw error;
    }
  });
  const withNotice = (stderr: string): Outcome => ({ ...outcome, stderr: Buffer.from(notice.text + stderr, "utf8") });
  if (outcome.exitCode === 0) return notice.text !== "" ? withNotice("") : outcome;
  const line = outcome.stderr.toString("utf8");
  if (fault === undefined) return notice.text !== "" ? withNotice(line) : outcome;
  const root = resolve(invocation.cwd, flagValue(argv, "cwd") ?? ".");
  const clause = defectReportClause(invocation.scenario.profile, root, "start", argv, {
    operation: route.operation,
    phase: "native_running",
    message: fault.envelopeCause,
  });
  return clause === "" && notice.text === ""
    ? outcome
    : withNotice(clause === "" ? line : `${line.replace(/\n$/, "")}${clause}\n`);
}
