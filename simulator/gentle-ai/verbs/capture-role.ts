// review capture-refuter / capture-validation (provider reference §9, gentle-ai v2.4.0
// `review_provider_role_capture.go`): refusal order, the handshake, --materialize, and --execute through pi.
import type { Invocation, Outcome, VerbHandler } from "../invocation.ts";
import type { FlagDef, FlagSetSpec } from "../argv/go-flags.ts";
import { scanFlagsOf } from "../argv/go-flags.ts";
import { traitsOf } from "../profiles.ts";
import type { ProfileTraits } from "../profiles.ts";
import { plainError, routeFor, runRouted } from "../route.ts";
import type { StdoutBuffer } from "../route.ts";
import { invalidRequest, rddDisabled, repositoryContextUnavailable, ReviewRefusal } from "../refusal.ts";
import { requireRuntime } from "../gates/handshake.ts";
import { encodeReviewJson } from "../../output/go-json.ts";
import { identitiesFor } from "../../state/identities.ts";
import { readLineage, updateLineage } from "../../state/lineage-store.ts";
import type { LineageState } from "../../state/lineage-state.ts";
import { authorityOf, capturedEvidence } from "./correction-authority.ts";
import { rolePrompt, roleTarget } from "./role-prompt.ts";
import type { ProviderRole } from "./role-prompt.ts";
import { runPiReviewer } from "./role-transport.ts";
import { parseVerbFlags, REPOSITORY_CONTEXT_FLAG } from "./verb-flags.ts";

export type RoleVerb = "capture-refuter" | "capture-validation";

// (inferred) usage texts: only the flag names are documented.
function roleFlags(verb: RoleVerb): FlagDef[] {
  const flags: FlagDef[] = [
    { name: "agent", kind: "string", usage: "host-relay runtime that runs the provider-owned role request" },
    { name: "cwd", kind: "string", default: ".", usage: "repository path" },
    { name: "execute", kind: "bool", usage: "run the provider-owned role request through the runtime's transport and capture its result" },
    { name: "expected-revision", kind: "string", usage: "exact compact authority revision" },
    { name: "lineage", kind: "string", usage: "exact review lineage identifier" },
    { name: "materialize", kind: "bool", usage: "print the exact Go-materialized provider role task without capturing anything" },
    REPOSITORY_CONTEXT_FLAG,
    { name: "target", kind: "string", usage: "exact role target identity" },
  ];
  if (verb === "capture-validation")
    flags.push({ name: "request-hash", kind: "string", usage: "provider-owned targeted validation request hash" });
  return flags;
}

/** The FlagSet of a role verb. */
export function roleFlagSet(verb: RoleVerb): FlagSetSpec {
  return {
    name: `review ${verb}`,
    details: "Materialize or capture one Go-issued non-lens provider role result bound to compact review authority.",
    flags: roleFlags(verb),
  };
}

const STATUS_HINT = "gentle-ai review status --cwd <repo> --contract gentle-ai.review-integration/v2 --next-transition";

interface Request {
  readonly lineage: string;
  readonly target: string;
  readonly revision: string;
  readonly requestHash: string;
  readonly context: string;
  readonly materialize: boolean;
}

function shapeChecks(invocation: Invocation, traits: ProfileTraits, verb: RoleVerb, argv: readonly string[], out: StdoutBuffer): Request | undefined {
  const V = `review ${verb}`;
  const f = parseVerbFlags(roleFlagSet(verb), argv, out);
  if (f === undefined) return undefined;
  const materialize = f.bool("materialize");
  const execute = f.bool("execute");
  const agent = f.str("agent");
  const r: Request = {
    lineage: f.str("lineage"),
    target: f.str("target"),
    revision: f.str("expected-revision"),
    requestHash: verb === "capture-validation" ? f.str("request-hash") : "",
    context: f.str("repository-context"),
    materialize,
  };
  if (materialize && execute) throw invalidRequest(`${V} --materialize only prints the Go-materialized provider task and cannot be combined with --execute`);
  if (f.positionals.length > 0 || r.lineage === "" || r.target === "" || r.revision === "" || agent === "" || (!materialize && !execute))
    throw invalidRequest(
      `${V} requires --lineage, --target, --expected-revision, --agent, and either --materialize or --execute; \`gentle-ai review status --contract gentle-ai.review-integration/v2 --next-transition\` prints the exact bindings`,
    );
  if (agent.trim() === "") throw invalidRequest(`${V} requires --agent naming the host-relay runtime`);
  if (verb === "capture-validation" && r.requestHash === "")
    throw invalidRequest(`${V} requires --request-hash binding the frozen targeted validation request`);
  if (r.context !== "" && f.has("cwd")) throw invalidRequest(`${V} accepts either --repository-context or --cwd, not both`);
  if (materialize && r.context === "") throw invalidRequest(`${V} --materialize requires the provider-issued --repository-context`);
  const gate = requireRuntime(traits, agent, invocation.env, "capture");
  if (gate.kind === "compiled")
    throw invalidRequest(
      `${V} is unavailable for ${JSON.stringify(gate.runtime)}: a compiled runtime materializes internally through \`gentle-ai review finalize --agent\``,
    );
  if (gate.runtime !== "pi") throw invalidRequest(`${V} provider runtime ${JSON.stringify(gate.runtime)} is host-mediated; use its live transport collection`);
  return r;
}

/** Step 9: the role must be the one the current authority offers, with the exact binding. */
function checkBinding(invocation: Invocation, verb: RoleVerb, lineage: LineageState, r: Request): void {
  const V = `review ${verb}`;
  const a = authorityOf(invocation.scenario, lineage);
  const role: ProviderRole = verb === "capture-refuter" ? "refuter" : "targeted-validator";
  let offered: boolean;
  if (role === "refuter") {
    offered =
      lineage.state === "reviewing" &&
      invocation.scenario.lineage.refuter &&
      !lineage.correction.refuterCaptured &&
      lineage.lenses.every((lens) => lineage.captured[lens] !== undefined);
  } else {
    offered = lineage.state === "correction_required" && capturedEvidence(a)?.outcome === "passed" && !lineage.correction.validatorCaptured;
  }
  // (inferred) wording of the general drift refusal; the request-hash variant below is documented.
  if (!offered || r.lineage !== a.lineageId || r.target !== roleTarget(a, role) || r.revision !== a.revision)
    throw new ReviewRefusal(
      "capture_binding_mismatch",
      `${V} binding does not match the current provider role authority; refresh the binding with ${STATUS_HINT}`,
    );
  if (role === "targeted-validator" && r.requestHash !== a.requestHash)
    throw new ReviewRefusal(
      "capture_binding_mismatch",
      `${V} request hash does not match the frozen targeted validation request; refresh the binding with ${STATUS_HINT}`,
    );
}

async function body(invocation: Invocation, traits: ProfileTraits, verb: RoleVerb, argv: readonly string[], out: StdoutBuffer): Promise<void> {
  const r = shapeChecks(invocation, traits, verb, argv, out);
  if (r === undefined) return;
  if (r.context !== "" && r.context !== identitiesFor(invocation.scenario.lineage.seed).repositoryContext)
    throw repositoryContextUnavailable();
  const role: ProviderRole = verb === "capture-refuter" ? "refuter" : "targeted-validator";
  const snapshot = readLineage(invocation.stateDir, invocation.scenario);
  if (!r.materialize && snapshot.rddDisabled)
    // (inferred) native text, mirroring capture-result: the kill switch gates captures, not materialize.
    throw rddDisabled(`review ${verb}`);
  checkBinding(invocation, verb, snapshot, r);
  const a = authorityOf(invocation.scenario, snapshot);
  const prompt = rolePrompt(a, role);
  if (r.materialize) {
    out.write(prompt); // read-only: raw prompt bytes, nothing captured
    return;
  }
  const label = role === "refuter" ? "invoke provider refuter" : "invoke provider targeted validator";
  const run = await runPiReviewer(prompt, invocation.env);
  if (run.kind === "unavailable") throw invalidRequest(`${label}: pi reviewer transport unavailable: ${run.err}`);
  if (run.kind === "failed") throw invalidRequest(`${label}: pi reviewer transport failed: ${run.err}: ${run.stderr}`);
  if (run.kind === "empty") throw invalidRequest(`${label}: pi reviewer transport produced no final message`);
  updateLineage(invocation.stateDir, invocation.scenario, (draft) => {
    checkBinding(invocation, verb, draft, r); // the authority may have moved while pi ran
    if (role === "refuter") draft.correction.refuterCaptured = true;
    else draft.correction.validatorCaptured = true;
  });
  out.write(
    encodeReviewJson({
      schema: "gentle-ai.review-provider-role-capture/v1",
      lineage_id: a.lineageId,
      target_identity: roleTarget(a, role),
      role,
      captured: true,
    }),
  );
}

/** review capture-refuter / capture-validation: collect-capture route; absent before v2.4.0. */
export function captureRole(verb: RoleVerb): VerbHandler {
  return (invocation: Invocation): Promise<Outcome> | Outcome => {
    const traits = traitsOf(invocation.scenario.profile);
    if (!traits.roleVerbs) return plainError(`unknown review command ${JSON.stringify(verb)}`);
    const argv = invocation.argv.slice(2);
    const route = routeFor(argv, verb, "collect-capture", scanFlagsOf(roleFlagSet(verb)));
    return runRouted(route, (out) => body(invocation, traits, verb, argv, out));
  };
}
