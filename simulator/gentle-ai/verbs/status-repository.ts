// review status in the repository world (cli/review_facade.go runReviewStatus, review_next_transition.go,
// review_intended_untracked.go): a live lineage named by --lineage (or, without --next-transition, the lineage of the
// current target) renders through the lifecycle STATUS; otherwise STATUS freezes the current candidate and answers
// the fresh, unrelated target: the START offer, the intended-untracked selection, the empty-candidate base ref, or
// the kill switch.
import type { Invocation, Outcome } from "../invocation.ts";
import { scanFlagsOf, goQuoteStr } from "../argv/go-flags.ts";
import { traitsOf } from "../profiles.ts";
import { routeFor, runRouted, type StdoutBuffer } from "../route.ts";
import { invalidRequest, ReviewRefusal } from "../refusal.ts";
import { requireRuntime } from "../gates/handshake.ts";
import { CONTRACT_V1, CONTRACT_V2 } from "../../output/envelope.ts";
import { encodeReviewJson, goMarshal, type GoJson } from "../../output/go-json.ts";
import { contractFlag, parseVerbFlags } from "./verb-flags.ts";
import { status } from "./status.ts";
import { STATUS_FLAG_SET } from "./status-flags.ts";
import { flagValue, liveLineage, runOnRepositoryLineage, type RepositoryScope } from "../repository-scope.ts";
import { listLineageRecords, type RepositoryLineageRecord } from "../../repository/lineage-store.ts";
import { buildSnapshot, SnapshotError, type Snapshot, type TargetKind } from "../../repository/snapshot.ts";
import { untrackedScope, UntrackedSelectionError, declarationArguments, type UntrackedScope } from "../../repository/untracked.ts";
import { modeStatus } from "../../repository/review-mode.ts";
import { startLineageId } from "../../repository/digests.ts";
import { shellWord } from "./status-context.ts";
import { projectionObject } from "../../repository/status-facts.ts";

/** The fixed repair assessment STATUS carries outside a repair (as every captured status/v5 shows it). */
export const REPAIR_UNSUPPORTED: GoJson = {
  schema: "gentle-ai.review-authority-repair-assessment/v1",
  status: "unsupported",
  counts: {
    lineages: 0,
    compact_lineages: 0,
    legacy_lineages: 0,
    events: 0,
    bytes: 0,
    eligible_candidates: 0,
    unsupported_lineages: 0,
    conflicts: 0,
  },
  supported_operations: ["review/complete-fix", "review/validate-fix"],
  authorization_schema: "gentle-ai.review-repair-authorization/v1",
};

interface Argument {
  readonly name: string;
  readonly value: string;
}

/** reviewTransitionArgumentToken: `--` + name with `_` hyphenated + `=` + value. */
export function tokenOf(argument: Argument): string {
  return `--${argument.name.replace(/_/g, "-")}=${argument.value}`;
}

/** An executable (tokenized) transition argument. */
function tokenized(argument: Argument): GoJson {
  return { name: argument.name, value: argument.value, token: tokenOf(argument) };
}

/** reviewTargetArguments: the untokenized target binding of the external collect inputs. */
function targetArguments(snapshot: Snapshot): Argument[] {
  return [
    { name: "target_identity", value: snapshot.identity },
    { name: "projection", value: snapshot.projection },
    { name: "base_tree", value: snapshot.baseTree },
    { name: "candidate_tree", value: snapshot.candidateTree },
  ];
}

/** The inputs of START's execute transition (cli/review_next_transition.go reviewStartArguments). */
export interface StartTransitionInput {
  readonly root: string;
  readonly contract: string;
  readonly snapshot: Snapshot;
  readonly lineage: string;
  readonly agent: string | undefined;
  readonly scope: UntrackedScope;
}

/** reviewStartArguments. */
export function startArguments(input: StartTransitionInput): Argument[] {
  const args: Argument[] = [
    { name: "cwd", value: input.root },
    { name: "contract", value: input.contract },
    { name: "target", value: input.snapshot.identity },
    { name: "projection", value: input.snapshot.projection },
  ];
  if (input.snapshot.kind === "base-diff") args.push({ name: "base-ref", value: input.snapshot.baseTree }, { name: "committed-only", value: "true" });
  if (input.lineage.trim() !== "") args.push({ name: "lineage", value: input.lineage });
  if (input.agent !== undefined) args.push({ name: "agent", value: input.agent });
  if (input.contract === CONTRACT_V2) args.push({ name: "consent", value: "relay" });
  return [...args, ...declarationArguments(input.scope)];
}

function collect(reason: string, input: GoJson): GoJson {
  return { kind: "collect", reason_code: reason, collect: { inputs: [input] } };
}

/** The fresh target's next transition (newReviewNextTransition, unrelated branch, plus the selection override). */
function freshTransition(input: StartTransitionInput, modeOn: boolean): GoJson {
  let transition: GoJson;
  if (!modeOn) transition = { kind: "stop", reason_code: "rdd_disabled" };
  else if (input.snapshot.kind === "base-diff" && input.snapshot.paths.length === 0) transition = { kind: "stop", reason_code: "empty_base_diff_bootstrap_required" };
  else if (input.snapshot.paths.length === 0)
    transition = collect("empty_candidate_base_ref_required", {
      name: "base_ref",
      schema: "gentle-ai.review-base-ref-selection/v1",
      capture_operation: "external.select_base_ref",
      arguments: targetArguments(input.snapshot).map((a) => ({ ...a })),
    });
  else {
    const args = startArguments(input);
    transition = {
      kind: "execute",
      reason_code: "fresh_target_ready",
      execute: {
        operation: "review.start",
        command: ["gentle-ai", "review", "start", ...args.map((a) => shellWord(tokenOf(a)))].join(" "),
        arguments: args.map(tokenized),
        preconditions: [{ name: "target_identity", value: input.snapshot.identity }],
        binding: { lineage_id: input.lineage || undefined, target_identity: input.snapshot.identity },
      },
    };
  }
  const stoppedBySwitch = !modeOn;
  if (input.scope.needsSelection && !stoppedBySwitch)
    transition = collect("intended_untracked_selection_required", {
      name: "intended_untracked_selection",
      schema: "gentle-ai.review-intended-untracked-selection/v1",
      capture_operation: "external.select_intended_untracked",
      arguments: [
        ...targetArguments(input.snapshot),
        { name: "eligible_paths_json", value: goMarshal([...input.scope.inventory]) },
        { name: "expected_untracked_inventory", value: input.scope.digest },
      ].map((a) => ({ ...a })),
    });
  return transition;
}

const DESCRIPTIONS: Readonly<Record<string, string>> = {
  fresh_target_ready: "Target is unreviewed and ready for initial review start",
  empty_base_diff_bootstrap_required: "Committed base-diff has no paths; empty-root bootstrap is required",
};

/** newReviewForecast: the one-step preview of the transition head. */
export function forecastOf(transition: { kind: string; reason_code: string }): GoJson {
  return {
    horizon: transition.kind === "stop" ? "terminal" : "partial",
    steps: [
      {
        step: 1,
        kind: transition.kind,
        reason_code: transition.reason_code,
        description: DESCRIPTIONS[transition.reason_code] ?? transition.reason_code.replace(/_/g, " "),
      },
    ],
  };
}

/** Parsed untracked declaration flags (each single-valued flag may appear once: reviewSingleValueFlag). */
function declarationOf(f: NonNullable<ReturnType<typeof parseVerbFlags>>): { scope: string | undefined; intended: string[]; expectedInventory: string | undefined } {
  for (const name of ["untracked-scope", "expected-untracked-inventory"])
    if (f.count(name) > 1)
      throw invalidRequest(
        `invalid value ${goQuoteStr(String(f.all(name)[1]))} for flag -${name}: untracked scope flags may only be specified once; rerun gentle-ai review start with one declaration`,
      );
  return {
    scope: f.has("untracked-scope") ? f.str("untracked-scope") : undefined,
    intended: f.all("intended-untracked").map(String),
    expectedInventory: f.has("expected-untracked-inventory") ? f.str("expected-untracked-inventory") : undefined,
  };
}

/** What the STATUS body decided: a rendered document, or a lineage to hand to the lifecycle STATUS. */
type Decision = { readonly lineage: RepositoryLineageRecord } | undefined;

async function body(invocation: Invocation, scope: RepositoryScope, argv: readonly string[], out: StdoutBuffer): Promise<Decision> {
  const traits = traitsOf(invocation.scenario.profile);
  const f = parseVerbFlags(STATUS_FLAG_SET, argv, out);
  if (f === undefined) return undefined;
  if (f.positionals.length > 0) throw invalidRequest(`unexpected review status argument ${goQuoteStr(f.positionals[0]!)}`);
  const contract = contractFlag(f) ?? CONTRACT_V1;
  let agent: string | undefined;
  if (contract === CONTRACT_V2 && f.has("agent")) {
    if (f.count("agent") !== 1)
      throw new ReviewRefusal("immutable_review_transport_unsupported", "negotiated lifecycle STATUS requires exactly one generated runtime identity");
    agent = requireRuntime(traits, f.str("agent"), invocation.env, "status").runtime;
  }
  const projection = f.str("projection").trim();
  if (projection !== "workspace" && projection !== "staged") throw invalidRequest(`unsupported review projection ${goQuoteStr(f.str("projection"))}`);
  const baseRef = f.str("base-ref").trim();
  const declaration = declarationOf(f);
  const nextTransition = f.bool("next-transition");
  const requested = f.str("lineage").trim();
  const requestedLive = requested === "" ? undefined : liveLineage(scope, requested);
  if (requestedLive !== undefined) return { lineage: requestedLive };

  let untracked: UntrackedScope;
  let snapshot: Snapshot;
  try {
    if (projection === "staged") {
      if (declaration.scope !== undefined || declaration.intended.length > 0 || declaration.expectedInventory !== undefined)
        throw invalidRequest(
          "staged projection does not accept intended-untracked selection; remove those flags and rerun `gentle-ai review status --projection staged`",
        );
      untracked = { inventory: [], intended: [], digest: "", needsSelection: false, declared: false };
    } else untracked = untrackedScope(scope.repo, declaration);
    const kind: TargetKind = baseRef === "" ? "current-changes" : "base-diff";
    snapshot = buildSnapshot(scope.repo, { kind, projection, baseRef, intendedUntracked: untracked.intended });
  } catch (error) {
    if (error instanceof UntrackedSelectionError) throw invalidRequest(error.message);
    // (inferred) a freeze failure is reported as gentle-ai wraps it: "freeze negotiated fresh review target: …".
    if (error instanceof SnapshotError) throw invalidRequest(`freeze negotiated fresh review target: ${error.message}`);
    throw error;
  }
  if (!nextTransition && requested === "") {
    // Without --next-transition STATUS assesses the target against existing authority (AssessTargetStatus).
    const current = listLineageRecords(scope.storeRoot).find((r) => r.snapshot.identity === snapshot.identity && liveLineage(scope, r.lineageId) !== undefined);
    if (current !== undefined) return { lineage: current };
  }
  const emptyBaseDiff = snapshot.kind === "base-diff" && snapshot.paths.length === 0;
  const lineage = requested !== "" ? requested : startLineageId(scope.repo.repositoryRef, snapshot.identity);
  let transition: GoJson | undefined;
  if (nextTransition) {
    const modeOn = modeStatus(scope.repo, invocation.env).effective === "on";
    transition = freshTransition({ root: scope.repo.root, contract, snapshot, lineage, agent, scope: untracked }, modeOn);
  }
  const head = transition as { kind: string; reason_code: string } | undefined;
  out.write(
    encodeReviewJson({
      schema: traits.statusSchema,
      contract,
      operation: "review.status",
      applicability: "unrelated",
      receipt: { status: "not_applicable" },
      action: emptyBaseDiff ? "stop" : "start",
      replayability: emptyBaseDiff ? "manual_action_required" : "not_replayable",
      target_identity: snapshot.identity,
      projection: projectionObject(snapshot, snapshot),
      repair: REPAIR_UNSUPPORTED,
      candidates: [],
      forecast: contract === CONTRACT_V2 && head !== undefined ? forecastOf(head) : undefined,
      next_transition: transition,
    }),
  );
  return undefined;
}

/**
 * STATUS in the repository world. Without --contract the repository's authority inventory is not modelled: the
 * lifecycle STATUS answers as before (inferred scope limit).
 */
export async function repositoryStatus(invocation: Invocation, scope: RepositoryScope): Promise<Outcome> {
  const argv = invocation.argv.slice(2);
  const contract = flagValue(argv, "contract");
  if (contract === undefined) return status(invocation);
  // Negotiated whenever --contract is given, whatever precedes it (review_operation_contract.go:477-481).
  const route = { ...routeFor(argv, "status", "negotiable", scanFlagsOf(STATUS_FLAG_SET)), class: "negotiated" as const, version: contract === CONTRACT_V2 ? (2 as const) : (1 as const) };
  let decision: Decision;
  const outcome = await runRouted(route, async (out) => {
    decision = await body(invocation, scope, argv, out);
  });
  if (decision !== undefined) return runOnRepositoryLineage(invocation, scope, decision.lineage, status);
  return outcome;
}
