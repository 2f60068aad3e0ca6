// STATUS next_transition for a lineage in state `reviewing` (provider reference §8.3, §8.4, §9).
import type { GoJson } from "../../output/go-json.ts";
import type { Lens } from "../../scenario/lineage-spec.ts";
import { argument, roleVector } from "./status-context.ts";
import type { StatusContext } from "./status-context.ts";

export const REVIEWER_SCHEMA = "https://gentle-ai.dev/schema/review/reviewer/v1";
export const REFUTER_SCHEMA = "https://gentle-ai.dev/schema/review/refuter/v1";

/** One changed_path_manifest entry as STATUS renders it (inferred field set). */
export function manifestJson(ctx: StatusContext): GoJson {
  return ctx.ids.manifest.map((m) => ({ path: m.path, status: m.status, additions: m.additions, deletions: m.deletions }));
}

/** The seven binding arguments of one lens slot, in provider order. */
function bindingArguments(ctx: StatusContext, lens: Lens, order: number): GoJson[] {
  const { ids } = ctx;
  return [
    argument("lineage", ids.lineageId),
    argument("expected_revision", ctx.revision),
    argument("target", ids.targetIdentity),
    argument("repository_context", ids.repositoryContext),
    argument("lens", lens),
    argument("order", String(order)),
    argument("subject_hash", ids.subjectHash(lens)),
  ];
}

function tokenOf(arg: GoJson): string {
  return (arg as { token: string }).token;
}

/** The provider-owned completing form of a relay slot, in the profile's wire shape. */
function submission(ctx: StatusContext, binding: readonly GoJson[]): GoJson | undefined {
  const tokens = binding.map(tokenOf);
  const value = (location: number): GoJson => ({
    slot: "reviewer_result",
    domain: "artifact_path_or_stdin",
    schema: REVIEWER_SCHEMA,
    substitution_location: location,
  });
  if (ctx.traits.lensSubmission === "v2.4.0")
    return { operation_token: "capture-result", argument_tokens: [...tokens, "--input={{value}}"], value: value(7) };
  if (ctx.traits.lensSubmission === "v2.5.0")
    return { operation_token: "capture-result", argument_tokens: [...tokens, "--agent=pi", "--input={{value}}"], value: value(8) };
  return undefined;
}

/** One `reviewer_result` collect input; agent-sensitive (§8.3). */
function lensInput(ctx: StatusContext, lens: Lens, order: number): GoJson {
  const { ids } = ctx;
  const binding = bindingArguments(ctx, lens, order);
  let args: GoJson[] = binding;
  let form: GoJson | undefined;
  if (ctx.agent === "pi") {
    args = [...binding, argument("agent", "pi"), argument("materialize", "true")];
    form = submission(ctx, binding);
  } else if (ctx.agent !== undefined) args = [...binding, argument("agent", ctx.agent)];
  return {
    name: "reviewer_result",
    schema: REVIEWER_SCHEMA,
    capture_operation: "review.capture-result",
    arguments: args,
    submission: form,
    // (inferred) artifact_subject fields; gentle-pi reads subject_hash from it.
    artifact_subject: {
      subject_hash: ids.subjectHash(lens),
      lens,
      selected_order: order,
      base_tree: ids.baseTree,
      candidate_tree: ids.candidateTree,
      changed_path_manifest_sha256: ids.manifestSha256,
    },
    base_tree: ids.baseTree,
    candidate_tree: ids.candidateTree,
    changed_path_manifest: manifestJson(ctx),
  };
}

/** The refuter role vector (§9): self-contained --execute arguments, no submission. */
function refuterInput(ctx: StatusContext): GoJson {
  const { ids } = ctx;
  return roleVector("provider_refuter", REFUTER_SCHEMA, "review.capture-refuter", [
    argument("lineage", ids.lineageId),
    argument("expected_revision", ctx.revision),
    argument("target", ids.targetIdentity),
    argument("repository_context", ids.repositoryContext),
  ]);
}

/** next_transition while reviewing: uncaptured lens slots, then the refuter vector (pi), then finalize. */
export function reviewingTransition(ctx: StatusContext): GoJson {
  const { lineage, ids } = ctx;
  const open = lineage.lenses.map((lens, order) => ({ lens, order })).filter(({ lens }) => lineage.captured[lens] === undefined);
  if (open.length > 0)
    return {
      kind: "collect",
      reason_code: "reviewer_results_required",
      collect: { inputs: open.map(({ lens, order }) => lensInput(ctx, lens, order)) },
    };
  if (lineage.correction.refuterCaptured === false && ctx.invocation.scenario.lineage.refuter && ctx.agent === "pi")
    return { kind: "collect", reason_code: "provider_refuter_required", collect: { inputs: [refuterInput(ctx)] } };
  return {
    kind: "execute",
    reason_code: "captured_results_ready",
    execute: {
      operation: "review.finalize",
      arguments: [argument("lineage", ids.lineageId), argument("captured_results", "true")],
      preconditions: ["state=reviewing", "captured_artifacts=complete"],
    },
  };
}
