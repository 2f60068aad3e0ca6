// review capture-refuter / capture-validation (gentle-ai fb55ef7b review_provider_role_capture.go): refusal order,
// the handshake, the handle, the kill switch, --materialize, and --execute through pi.
import { resolve } from "node:path";
import type { Invocation, Outcome, VerbHandler } from "../../invocation.ts";
import type { FlagDef, FlagSetSpec } from "../../../go/flag-spec.ts";
import { goQuoteStr } from "../../../go/go-quote.ts";
import { traitsOf } from "../../profiles.ts";
import type { ProfileTraits } from "../../profiles.ts";
import { plainError, routeFor, runRouted } from "../../route.ts";
import type { StdoutBuffer } from "../../route.ts";
import { invalidRequest, rddDisabled, ReviewRefusal } from "../../refusal.ts";
import { resolveRepositoryContext } from "../../gates/repository-context.ts";
import { CONTRACT_V2 } from "../../../output/envelope.ts";
import { requireRuntime } from "../../gates/handshake.ts";
import { encodeReviewJson } from "../../../go/go-json.ts";
import { readLineage, updateLineage } from "../../lineage.ts";
import type { LineageState } from "../../../state/lineage-state.ts";
import { authorityOf, capturedEvidence } from "../shared/correction-authority.ts";
import { rolePrompt, roleTarget } from "./role-prompt.ts";
import type { ProviderRole } from "./role-prompt.ts";
import { runPiReviewer } from "./role-transport.ts";
import { parseVerbFlags } from "../shared/verb-flags.ts";

export type RoleVerb = "capture-refuter" | "capture-validation";

// parseReviewProviderRoleCapture's FlagSet (review_provider_role_capture.go:64-78), usage texts verbatim.
function roleFlags(verb: RoleVerb): FlagDef[] {
  const flags: FlagDef[] = [
    { name: "cwd", kind: "string", default: ".", usage: "repository path" },
    {
      name: "repository-context",
      kind: "string",
      usage:
        "opaque provider-issued repository context; supplied by the collect transition and mutually exclusive with --cwd",
    },
    { name: "lineage", kind: "string", usage: "exact review lineage identifier" },
    { name: "target", kind: "string", usage: "exact provider-issued target identity for this role" },
    { name: "expected-revision", kind: "string", usage: "exact compact authority revision" },
    {
      name: "agent",
      kind: "string",
      usage:
        "host-relay runtime identity, required for both --materialize and --execute; compiled runtimes materialize this role internally through `gentle-ai review finalize --agent`",
    },
    {
      name: "materialize",
      kind: "bool",
      usage:
        "print the exact Go-materialized opaque provider role task without capturing anything; mutually exclusive with --execute",
    },
    {
      name: "execute",
      kind: "bool",
      usage: "run the Go-owned locked-down pi process on the Go-materialized role request and capture its raw result",
    },
  ];
  if (verb === "capture-validation")
    flags.push({
      name: "request-hash",
      kind: "string",
      usage: "provider-issued frozen targeted validation request hash",
    });
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

const REFRESH = `refresh the binding with gentle-ai review status --cwd <repo> --contract ${CONTRACT_V2} --next-transition`;

/**
 * The compiled runtimes that run provider roles in-process (`reviewProviderCaptureRuntime`,
 * review_provider_runtime.go:44-46).
 */
const IN_PROCESS_ROLE_RUNTIMES: ReadonlySet<string> = new Set(["claude-code", "codex"]);

interface Request {
  readonly lineage: string;
  readonly target: string;
  readonly revision: string;
  readonly requestHash: string;
  /** Trimmed; "" on the --cwd route. */
  readonly context: string;
  readonly cwd: string;
  readonly materialize: boolean;
}

/** `parseReviewProviderRoleCapture`'s refusal matrix (:79-129); values are trimmed. */
function shapeChecks(
  invocation: Invocation,
  traits: ProfileTraits,
  verb: RoleVerb,
  argv: readonly string[],
  out: StdoutBuffer,
): Request | undefined {
  const V = `review ${verb}`;
  const f = parseVerbFlags(roleFlagSet(verb), argv, out);
  if (f === undefined) return undefined;
  const materialize = f.bool("materialize");
  const execute = f.bool("execute");
  const agent = f.str("agent").trim();
  const r: Request = {
    lineage: f.str("lineage").trim(),
    target: f.str("target").trim(),
    revision: f.str("expected-revision").trim(),
    requestHash: verb === "capture-validation" ? f.str("request-hash").trim() : "",
    context: f.str("repository-context").trim(),
    cwd: f.str("cwd"),
    materialize,
  };
  if (materialize && execute)
    throw invalidRequest(
      `${V} --materialize only prints the Go-materialized provider task and cannot be combined with --execute`,
    );
  if (
    f.positionals.length > 0 ||
    r.lineage === "" ||
    r.target === "" ||
    r.revision === "" ||
    (!materialize && !execute)
  )
    throw invalidRequest(
      `${V} requires --lineage, --target, --expected-revision, --agent, and either --materialize or --execute; \`gentle-ai review status --contract ${CONTRACT_V2} --next-transition\` prints the exact bindings`,
    );
  if (agent === "") throw invalidRequest(`${V} requires --agent naming the host-relay runtime`);
  if (verb === "capture-validation" && r.requestHash === "")
    throw invalidRequest(`${V} requires --request-hash binding the frozen targeted validation request`);
  if (r.context !== "" && f.has("cwd"))
    throw invalidRequest(`${V} accepts either --repository-context or --cwd, not both`);
  if (materialize && r.context === "")
    throw invalidRequest(`${V} --materialize requires the provider-issued --repository-context`);
  const gate = requireRuntime(traits, agent, invocation.env, "capture");
  if (IN_PROCESS_ROLE_RUNTIMES.has(gate.runtime))
    throw invalidRequest(
      `${V} is unavailable for ${goQuoteStr(gate.runtime)}: a compiled runtime materializes internally through \`gentle-ai review finalize --agent\``,
    );
  if (gate.runtime !== "pi")
    throw invalidRequest(
      `${V} provider runtime ${goQuoteStr(gate.runtime)} is host-mediated; use its live transport collection`,
    );
  return r;
}

/**
 * Discovery and the role binding (`discover`, :134-147; the per-role checks of RunReviewCaptureRefuter and
 * RunReviewCaptureValidation): lineage and revision first, then the role's own target and request hash.
 */
function checkBinding(invocation: Invocation, verb: RoleVerb, lineage: LineageState, r: Request): void {
  const V = `review ${verb}`;
  const a = authorityOf(invocation.scenario, lineage, invocation.identitySource);
  const drift = (text: string) => new ReviewRefusal("capture_binding_mismatch", text);
  if (r.lineage !== a.lineageId || lineage.state === "approved") {
    const root = resolve(invocation.cwd, r.cwd);
    // (inferred) the wrapped discovery error: an unknown (or burned) lineage is reviewCompactFacadeLineageAbsentError.
    throw invalidRequest(
      `resolve review authority for lineage ${goQuoteStr(r.lineage)} under repository ${goQuoteStr(root)}: no compact facade review lineage ${goQuoteStr(r.lineage)} was found; run gentle-ai review start --lineage ${r.lineage} to begin a fresh compact review, or use gentle-ai review-resume --cwd <repo> --lineage ${r.lineage} for explicit read-only historical compatibility`,
    );
  }
  if (r.revision !== a.revision) throw drift(`${V} binding does not match the current compact authority; ${REFRESH}`);
  if (verb === "capture-refuter") {
    if (lineage.state !== "reviewing" || r.target !== roleTarget(a, "refuter"))
      throw drift(`${V} requires the exact reviewing authority target; ${REFRESH}`);
    // (inferred) text: the scenario offers no refuter, all lenses are not captured yet, or it was captured already.
    const offered =
      invocation.scenario.lineage.refuter &&
      !lineage.correction.refuterCaptured &&
      lineage.lenses.every((lens) => lineage.captured[lens] !== undefined);
    if (!offered) throw drift(`${V} binding does not match the current provider role authority; ${REFRESH}`);
    return;
  }
  // (inferred) text: no correction whose verification passed, or the validator was captured already.
  const offered =
    lineage.state === "correction_required" &&
    capturedEvidence(a)?.outcome === "passed" &&
    !lineage.correction.validatorCaptured;
  if (!offered) throw drift(`${V} binding does not match the current provider role authority; ${REFRESH}`);
  if (r.target !== roleTarget(a, "targeted-validator"))
    throw drift(`${V} target does not match the frozen correction target identity; ${REFRESH}`);
  if (r.requestHash !== a.requestHash)
    throw drift(`${V} request hash does not match the frozen targeted validation request; ${REFRESH}`);
}

async function body(
  invocation: Invocation,
  traits: ProfileTraits,
  verb: RoleVerb,
  argv: readonly string[],
  out: StdoutBuffer,
): Promise<void> {
  const r = shapeChecks(invocation, traits, verb, argv, out);
  if (r === undefined) return;
  const role: ProviderRole = verb === "capture-refuter" ? "refuter" : "targeted-validator";
  const snapshot = readLineage(invocation.stateDir, invocation.scenario, invocation.identitySource);
  if (r.context !== "")
    resolveRepositoryContext(authorityOf(invocation.scenario, snapshot, invocation.identitySource), r.context, {
      lineage: r.lineage,
      target: r.target,
      revision: r.revision,
    });
  // --materialize is read-only and stays reachable under a frozen switch (:121-127).
  if (!r.materialize && snapshot.rddDisabled) throw rddDisabled(snapshot);
  checkBinding(invocation, verb, snapshot, r);
  const a = authorityOf(invocation.scenario, snapshot, invocation.identitySource);
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
  updateLineage(invocation.stateDir, invocation.scenario, invocation.identitySource, (draft) => {
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
    if (!traits.roleVerbs) return plainError(`unknown review command ${goQuoteStr(verb)}`);
    const argv = invocation.argv.slice(2);
    const route = routeFor(argv, verb, "collect-capture");
    return runRouted(route, (out) => body(invocation, traits, verb, argv, out));
  };
}
