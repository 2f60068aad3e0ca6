// review status (provider reference §8): flags, the --agent gate, and the full status/v5 object.
import type { Invocation, Outcome } from "../invocation.ts";
import type { FlagDef, FlagSetSpec } from "../argv/go-flags.ts";
import { scanFlagsOf } from "../argv/go-flags.ts";
import { traitsOf } from "../profiles.ts";
import type { ProfileTraits } from "../profiles.ts";
import { routeFor, runRouted } from "../route.ts";
import type { StdoutBuffer } from "../route.ts";
import { invalidRequest, ReviewRefusal } from "../refusal.ts";
import { requireRuntime } from "../gates/handshake.ts";
import { CONTRACT_V2 } from "../../output/envelope.ts";
import { encodeReviewJson } from "../../output/go-json.ts";
import type { GoJson } from "../../output/go-json.ts";
import { identitiesFor } from "../../state/identities.ts";
import { readLineage } from "../../state/lineage-store.ts";
import type { StatusContext, StatusExtension } from "./status-context.ts";
import { reviewingTransition } from "./status-reviewing.ts";
import { correctionStatus } from "./status-correction.ts";
import { correctionBudget, originalChangedLines } from "./correction-authority.ts";
import { contractFlag, parseVerbFlags, refusePositionals } from "./verb-flags.ts";
import { repositoryStatusFacts } from "../../repository/status-facts.ts";

// (inferred) usage texts and details: only the flag names are documented (§8.1).
const STATUS_FLAGS: readonly FlagDef[] = [
  { name: "action-eligibility", kind: "bool", usage: "include the action eligibility assessment" },
  { name: "agent", kind: "string", usage: "generated runtime identity negotiating the lifecycle; exactly one" },
  { name: "base-ref", kind: "string", usage: "base reference of the candidate projection" },
  { name: "contract", kind: "string", usage: "negotiated review integration contract" },
  { name: "cwd", kind: "string", default: ".", usage: "repository path" },
  { name: "expected-untracked-inventory", kind: "string", usage: "exact untracked inventory digest the caller observed" },
  { name: "intended-untracked", kind: "string", usage: "untracked path intended for the candidate; repeatable" },
  { name: "lineage", kind: "string", usage: "exact review lineage identifier" },
  { name: "next-transition", kind: "bool", usage: "include the exact next transition" },
  { name: "projection", kind: "string", default: "workspace", usage: "candidate projection: workspace or staged" },
  { name: "untracked-scope", kind: "string", usage: "untracked path scope of the candidate projection" },
];

export const STATUS_FLAG_SET: FlagSetSpec = {
  name: "review status",
  details: "Report the negotiated review authority status and, with --next-transition, the exact next transition.",
  flags: STATUS_FLAGS,
};

const REPAIR: GoJson = {
  schema: "gentle-ai.review-authority-repair-assessment/v1",
  status: "not_required",
  // (inferred) the eight count names; only "eight integer counts" is documented.
  counts: {
    orphaned_results: 0,
    stale_results: 0,
    pending_fixes: 0,
    pending_validations: 0,
    abandoned_attempts: 0,
    detached_receipts: 0,
    conflicting_events: 0,
    unreconciled_candidates: 0,
  },
  supported_operations: ["review/complete-fix", "review/validate-fix"],
  authorization_schema: "gentle-ai.review-repair-authorization/v1",
};

function projectionJson(ctx: StatusContext, mode: string, baseRef: string, untrackedScope: string): GoJson {
  // (inferred) projection fields beyond `schema`.
  return {
    schema: "gentle-ai.review-integration.projection/v1",
    mode,
    base_ref: baseRef === "" ? "HEAD" : baseRef,
    base_tree: ctx.ids.baseTree,
    candidate_tree: ctx.ids.candidateTree,
    untracked_scope: untrackedScope === "" ? "none" : untrackedScope,
    changed_path_manifest_sha256: ctx.ids.manifestSha256,
  };
}

function frozenJson(ctx: StatusContext): GoJson {
  const lines = originalChangedLines(ctx.ids);
  return { tier: lines > 20 ? "large" : lines > 6 ? "medium" : "small", original_changed_lines: lines, correction_budget: correctionBudget(ctx.ids) };
}

function extensionOf(ctx: StatusContext): StatusExtension {
  switch (ctx.lineage.state) {
    case "reviewing":
      return { nextTransition: reviewingTransition(ctx) };
    case "approved":
      // (inferred) terminal: the receipt exists and nothing remains to do.
      return { nextTransition: { kind: "stop", reason_code: "review_approved" } };
    default:
      return correctionStatus(ctx);
  }
}

async function body(invocation: Invocation, traits: ProfileTraits, argv: readonly string[], out: StdoutBuffer): Promise<void> {
  const f = parseVerbFlags(STATUS_FLAG_SET, argv, out);
  if (f === undefined) return;
  // (inferred) texts for the checks below; the reference documents only that they are invalid_request.
  refusePositionals(f, "review status");
  const contract = contractFlag(f);
  const projection = f.str("projection");
  if (projection !== "workspace" && projection !== "staged")
    throw invalidRequest(`review status --projection must be workspace or staged; got ${JSON.stringify(projection)}`);

  let agent: string | undefined;
  if (f.has("agent")) {
    if (f.count("agent") !== 1)
      throw new ReviewRefusal("immutable_review_transport_unsupported", "negotiated lifecycle STATUS requires exactly one generated runtime identity");
    agent = requireRuntime(traits, f.str("agent"), invocation.env, "status").runtime;
  }

  const ids = identitiesFor(invocation.scenario.lineage.seed);
  const lineage = readLineage(invocation.stateDir, invocation.scenario);
  const revision = ids.revision(lineage.revisionIndex);
  const ctx: StatusContext = { invocation, traits, ids, lineage, revision, agent, contract };
  const wanted = f.str("lineage");
  if (wanted !== "" && wanted !== ids.lineageId) {
    // (inferred) a lineage this repository does not hold: unrelated, nothing to do.
    out.write(
      encodeReviewJson({
        schema: traits.statusSchema,
        contract: contract ?? CONTRACT_V2,
        operation: "review.status",
        applicability: "unrelated",
        receipt: { status: "not_applicable" },
        action: "none",
        replayability: "status_required",
        target_identity: ids.targetIdentity,
        projection: projectionJson(ctx, projection, f.str("base-ref"), f.str("untracked-scope")),
        repair: REPAIR,
        candidates: [],
        next_transition: f.bool("next-transition") ? { kind: "stop", reason_code: "lineage_not_current" } : undefined,
      }),
    );
    return;
  }
  const ext = extensionOf(ctx);
  const approved = lineage.state === "approved";
  // A repository-derived lineage reports its real projection and frozen tier (simulator/repository/status-facts.ts).
  const repository = repositoryStatusFacts();
  out.write(
    encodeReviewJson({
      schema: traits.statusSchema,
      contract: contract ?? CONTRACT_V2,
      operation: "review.status",
      applicability: "current_target",
      authority: { version: "compact-v2", lineage_id: ids.lineageId, state: lineage.state, generation: lineage.generation, revision },
      receipt: { status: approved ? "present" : "expected_missing" },
      action: approved ? "none" : "finalize",
      replayability: "not_replayable",
      frozen: repository?.frozen ?? frozenJson(ctx),
      target_identity: ids.targetIdentity,
      projection: repository?.projection ?? projectionJson(ctx, projection, f.str("base-ref"), f.str("untracked-scope")),
      repair: REPAIR,
      candidates: [],
      next_transition: f.bool("next-transition") ? ext.nextTransition : undefined,
      repository_context: {
        capability: "review.opaque_repository_context",
        handle: ids.repositoryContext,
        revision,
        target_identity: ids.targetIdentity,
        event_id: ids.eventId(lineage.revisionIndex),
        outcome: "applied",
      },
      validation_request: lineage.state === "correction_required" ? ext.validationRequest : undefined,
    }),
  );
}

/** review status: negotiated route with --contract, plain otherwise. */
export function status(invocation: Invocation): Promise<Outcome> {
  const traits = traitsOf(invocation.scenario.profile);
  const argv = invocation.argv.slice(2);
  const route = routeFor(argv, "status", "negotiable", scanFlagsOf(STATUS_FLAG_SET));
  return runRouted(route, (out) => body(invocation, traits, argv, out));
}
