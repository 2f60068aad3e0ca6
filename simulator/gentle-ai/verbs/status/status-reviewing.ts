// STATUS next_transition for a target no authority governs (fresh START) and for a lineage in state `reviewing`
// (review_next_transition.go: newReviewNextTransition's unrelated and StateReviewing branches, reviewCaptureInput,
// reviewMissingCaptureTransition, reviewStartArguments).
import { goMarshal } from "../../../go/go-json.ts";
import { sha256Prefixed } from "../../../state/identities.ts";
import {
  arg,
  bindingArguments,
  collectTransition,
  executeTransition,
  providerRoleTransition,
  REVIEWER_SCHEMA,
  stopTransition,
  SUBMISSION_VALUE,
  tokenOf,
} from "./status-context.ts";
import type {
  Binding,
  NextTransition,
  TransitionArgument,
  TransitionContext,
  TransitionInput,
  TransitionInputV5,
} from "./status-context.ts";
import type { AuthorityFacts, SnapshotFacts } from "./status-model.ts";
import { CONTRACT_V1, CONTRACT_V2 } from "../../../output/envelope.ts";
import type { ArtifactSubjectV1 } from "../../../contract/artifact-subject.ts";

/** reviewProviderCaptureRuntime: the compiled runtimes whose finalize captures reviewer results itself. */
function captureRuntime(runtime: string): boolean {
  return runtime === "claude-code" || runtime === "codex";
}

/** reviewStartArguments (review_next_transition.go:781): the fresh START argv for the live target. */
function startArguments(live: SnapshotFacts, ctx: TransitionContext): TransitionArgument[] {
  const contract = ctx.contract === "" ? CONTRACT_V1 : ctx.contract;
  const args = [
    arg("cwd", ctx.repositoryRoot),
    arg("contract", contract),
    arg("target", live.identity),
    arg("projection", live.projection),
  ];
  if (ctx.repositoryRoot === "") args.shift();
  if (live.kind === "base-diff") args.push(arg("base-ref", live.baseTree), arg("committed-only", "true"));
  if (ctx.startLineage.trim() !== "") args.push(arg("lineage", ctx.startLineage));
  if (ctx.runtime !== "") args.push(arg("agent", ctx.runtime));
  if (contract === CONTRACT_V2) args.push(arg("consent", "relay"));
  const u = ctx.intendedUntracked;
  if (u.declared) {
    args.push(
      arg("untracked-scope", u.intended.length !== 0 ? "select" : "exclude"),
      arg("expected-untracked-inventory", u.digest),
    );
    for (const p of u.intended) args.push(arg("intended-untracked", p));
  }
  return args;
}

/** reviewTargetArguments: the target facts an external selection is made against. */
function targetArguments(live: SnapshotFacts): TransitionArgument[] {
  return [
    arg("target_identity", live.identity),
    arg("projection", live.projection),
    arg("base_tree", live.baseTree),
    arg("candidate_tree", live.candidateTree),
  ];
}

/**
 * newReviewNextTransition for an unrelated target (review_next_transition.go:145-176): rdd_disabled, the empty
 * base-diff bootstrap stop, the empty-candidate base-ref collect, or START.
 */
export function unrelatedTransition(live: SnapshotFacts, ctx: TransitionContext): NextTransition {
  if (!ctx.rddEnabled) return stopTransition("rdd_disabled");
  if (live.kind === "base-diff" && live.paths.length === 0) return stopTransition("empty_base_diff_bootstrap_required");
  if (live.paths.length === 0) {
    return collectTransition("empty_candidate_base_ref_required", {
      name: "base_ref",
      schema: "gentle-ai.review-base-ref-selection/v1",
      capture_operation: "external.select_base_ref",
      arguments: targetArguments(live),
    });
  }
  return executeTransition(
    "fresh_target_ready",
    "review.start",
    startArguments(live, ctx),
    [arg("target_identity", live.identity)],
    {
      lineageId: ctx.startLineage,
      revision: "",
      targetIdentity: live.identity,
      repositoryContext: "",
    },
  );
}

/** The ambiguous target's lineage selection (review_next_transition.go:177-181). */
export function lineageSelectionTransition(live: SnapshotFacts, candidates: readonly string[]): NextTransition {
  return collectTransition("lineage_selection_required", {
    name: "lineage_selection",
    schema: "gentle-ai.review-lineage-selection/v1",
    capture_operation: "external.select_lineage",
    arguments: [...targetArguments(live), arg("candidates", candidates.join(","))],
  });
}

/** reviewIntendedUntrackedCollection (review_intended_untracked.go:87): the eligible inventory and its digest. */
export function intendedUntrackedCollection(
  live: SnapshotFacts,
  scope: { readonly inventory: readonly string[]; readonly digest: string },
): NextTransition {
  return collectTransition("intended_untracked_selection_required", {
    name: "intended_untracked_selection",
    schema: "gentle-ai.review-intended-untracked-selection/v1",
    capture_operation: "external.select_intended_untracked",
    arguments: [
      ...targetArguments(live),
      arg("eligible_paths_json", goMarshal([...scope.inventory])),
      arg("expected_untracked_inventory", scope.digest),
    ],
  });
}

/** artifactSubjectHashV1 (artifact_subject.go:142): the v1 subject's self-hash. */
function legacySubjectHash(subject: { [key: string]: string | number }): string {
  const preimage = {
    schema: subject["schema"]!,
    lineage_id: subject["lineage_id"]!,
    authority_revision: subject["authority_revision"]!,
    target_identity: subject["target_identity"]!,
    candidate_diff_sha256: subject["candidate_diff_sha256"]!,
    changed_path_manifest_sha256: subject["changed_path_manifest_sha256"]!,
    lens: subject["lens"]!,
    selected_order: subject["selected_order"]!,
  };
  return sha256Prefixed(Buffer.from("gentle-ai.review-artifact-subject/v1\u0000" + goMarshal(preimage), "utf8"));
}

/**
 * reviewCaptureInput (review_next_transition.go:640): the binding, repository context, lens and order; the v2
 * frozen context adds the subject-hash argument and the trees, review-integration/v1 the candidate diff. A
 * claude-code/codex runtime appends `agent`; the Pi host relay gets the submission descriptor (every argument
 * so far plus `--input={{value}}`) and then `agent` and `materialize`.
 */
function lensInput(
  a: AuthorityFacts,
  b: Binding,
  lens: string,
  order: number,
  ctx: TransitionContext,
): TransitionInput {
  const args = bindingArguments(b);
  if (b.repositoryContext !== "") args.push(arg("repository-context", b.repositoryContext));
  args.push(arg("lens", lens), arg("order", String(order)));
  const manifest = a.capture.manifest.map((m) => ({ ...m }));
  const common = { name: "reviewer_result", schema: REVIEWER_SCHEMA, capture_operation: "review.capture-result" };
  if (ctx.contract === CONTRACT_V1) {
    const diff = a.capture.candidateDiff;
    const diffSha = sha256Prefixed(diff);
    const subject = {
      schema: "gentle-ai.review-artifact-subject/v1" as const,
      subject_hash: "",
      lineage_id: a.lineageId,
      authority_revision: a.revision,
      target_identity: a.initial.identity,
      candidate_diff_sha256: diffSha,
      changed_path_manifest_sha256: a.capture.manifestSha256,
      lens: lens as ArtifactSubjectV1["lens"],
      selected_order: order,
    } satisfies ArtifactSubjectV1;
    subject.subject_hash = legacySubjectHash(subject);
    return {
      ...common,
      arguments: withRuntime(args, undefined, ctx),
      artifact_subject: subject,
      candidate_diff: { encoding: "base64", data: diff.toString("base64"), sha256: diffSha, byte_size: diff.length },
      changed_path_manifest: manifest,
    };
  }
  const subjectHash = a.capture.subjectHash(lens, order);
  args.push(arg("subject-hash", subjectHash));
  let submission: TransitionInputV5["submission"] = undefined;
  if (ctx.hostRelay) {
    const tokens = [...args.map(tokenOf), `--input=${SUBMISSION_VALUE}`];
    submission = {
      operation_token: "capture-result",
      argument_tokens: tokens,
      value: {
        slot: "reviewer_result",
        domain: "artifact_path_or_stdin",
        schema: REVIEWER_SCHEMA,
        substitution_location: (tokens.length - 1) as 7,
      },
    };
  }
  return {
    ...common,
    arguments: withRuntime(args, submission, ctx),
    submission,
    artifact_subject: {
      schema: "gentle-ai.review-artifact-subject/v2",
      subject_hash: subjectHash,
      lineage_id: a.lineageId,
      authority_revision: a.revision,
      target_identity: a.initial.identity,
      base_tree: a.initial.baseTree,
      candidate_tree: a.initial.candidateTree,
      changed_path_manifest_sha256: a.capture.manifestSha256,
      lens: lens as "review-risk",
      selected_order: order,
    },
    base_tree: a.initial.baseTree,
    candidate_tree: a.initial.candidateTree,
    changed_path_manifest: manifest,
  };
}

/** The runtime tail of a lens input: `agent` for a capture runtime, `agent` + `materialize` for the Pi host relay. */
function withRuntime(args: TransitionArgument[], submission: unknown, ctx: TransitionContext): TransitionArgument[] {
  if (captureRuntime(ctx.runtime)) return [...args, arg("agent", ctx.runtime)];
  if (ctx.hostRelay && submission !== undefined)
    return [...args, arg("agent", ctx.runtime), arg("materialize", "true")];
  return args;
}

/**
 * newReviewNextTransition's StateReviewing branch: missing slots, then the refuter role, then captured_results_ready.
 */
export function reviewingTransition(a: AuthorityFacts, b: Binding, ctx: TransitionContext): NextTransition {
  const captured = new Set(a.artifacts.map((x) => x.selected_order));
  if (a.artifacts.length !== a.selectedLenses.length) {
    const inputs = a.selectedLenses.flatMap((lens, order) =>
      captured.has(order) ? [] : [lensInput(a, b, lens, order, ctx)],
    );
    if (inputs.length === 0) return stopTransition("captured_result_selection_unavailable");
    return collectTransition("reviewer_results_required", ...inputs);
  }
  if (ctx.providerRole === "refuter")
    return providerRoleTransition("provider_refuter_required", b, "refuter", ctx, undefined);
  const args = [arg("lineage", b.lineageId), arg("captured_results", "true")];
  // Finalize refuses --agent outside the negotiated v2 contract, so the transition carries the contract too.
  if (captureRuntime(ctx.runtime)) args.push(arg("contract", ctx.contract), arg("agent", ctx.runtime));
  return executeTransition(
    "captured_results_ready",
    "review.finalize",
    args,
    [arg("state", "reviewing"), arg("captured_artifacts", "complete")],
    b,
    a.artifacts,
  );
}
