// review capture-result (provider reference §7): refusal order, materialize, submission admission, slot rules.
import type { Invocation, Outcome } from "../invocation.ts";
import type { FlagDef, FlagSetSpec, ParsedFlags } from "../argv/go-flags.ts";
import { scanFlagsOf } from "../argv/go-flags.ts";
import { traitsOf } from "../profiles.ts";
import type { ProfileTraits } from "../profiles.ts";
import { routeFor, runRouted } from "../route.ts";
import type { StdoutBuffer } from "../route.ts";
import { invalidRequest, rddDisabled, repositoryContextUnavailable, ReviewRefusal } from "../refusal.ts";
import { COMPILED_TRANSPORTS, requireRuntime } from "../gates/handshake.ts";
import { encodeReviewJson, goMarshal } from "../../output/go-json.ts";
import { identitiesFor, sha256Prefixed } from "../../state/identities.ts";
import type { Identities } from "../../state/identities.ts";
import { readLineage, updateLineage } from "../../state/lineage-store.ts";
import type { LineageState } from "../../state/lineage-state.ts";
import type { Lens } from "../../scenario/lineage-spec.ts";
import { materializePrompt } from "./materialize.ts";
import { admitReviewerResult } from "./admission.ts";
import { artifactObject } from "./artifact.ts";
import type { ArtifactBinding } from "./artifact.ts";
import { readInputDocument } from "./read-input.ts";
import { parseVerbFlags, REPOSITORY_CONTEXT_FLAG } from "./verb-flags.ts";

const V = "review capture-result";

const BASE_FLAGS: readonly FlagDef[] = [
  { name: "cwd", kind: "string", default: ".", usage: "repository path" },
  { name: "expected-revision", kind: "string", usage: "exact reviewing authority revision" },
  {
    name: "input",
    kind: "string",
    usage: "raw reviewer result JSON file or - for stdin; `gentle-ai review schema reviewer` emits the schema and a working example",
  },
  { name: "lens", kind: "string", usage: "exact selected lens" },
  { name: "lineage", kind: "string", usage: "exact review lineage identifier" },
  { name: "order", kind: "int", default: -1, usage: "zero-based selected lens order" },
  {
    name: "preflight",
    kind: "bool",
    usage: "validate the capture binding and, when --input is supplied, the result admission without persisting anything",
  },
  REPOSITORY_CONTEXT_FLAG,
  { name: "subject-hash", kind: "string", usage: "provider-issued artifact subject hash for native-Git context" },
  { name: "target", kind: "string", usage: "exact frozen target identity" },
];

const RELAY_FLAGS: readonly FlagDef[] = [
  {
    name: "agent",
    kind: "string",
    usage: "compiled reviewer runtime that invokes the provider-owned request; mutually exclusive with --input and --preflight",
  },
  {
    name: "materialize",
    kind: "bool",
    usage:
      "print the exact Go-materialized opaque provider task for a host-relay --agent runtime without capturing anything; mutually exclusive with --input and --preflight",
  },
];

const DETAILS = "Capture one strict reviewer result in native authority and emit its bound manifest.";

/** The capture-result FlagSet of a profile (pre-relay builds lack --agent and --materialize). */
export function captureResultFlags(traits: ProfileTraits): FlagSetSpec {
  return { name: V, details: DETAILS, flags: traits.relayFlags ? [...BASE_FLAGS, ...RELAY_FLAGS] : BASE_FLAGS };
}

const REQUIRES_V240 =
  "review capture-result requires an exact repository context, --lineage, --target, --lens, --order, and either --input or --agent (or --preflight); `gentle-ai review status --contract gentle-ai.review-integration/v1 --next-transition` prints the exact bindings and `gentle-ai review schema reviewer` emits the result schema with a working example";
// (inferred) pre-relay wording: the same sentence without the --agent alternative.
const REQUIRES_PRE =
  "review capture-result requires an exact repository context, --lineage, --target, --lens, --order, and either --input or --preflight; `gentle-ai review status --contract gentle-ai.review-integration/v1 --next-transition` prints the exact bindings and `gentle-ai review schema reviewer` emits the result schema with a working example";

const STATUS_HINT = "gentle-ai review status --cwd <repo> --contract gentle-ai.review-integration/v2 --next-transition";

function bindingDrift(viaContext: boolean): ReviewRefusal {
  // (inferred) the --cwd variant drops the repository-context clause.
  const scope = viaContext ? " under the provider-issued repository context" : "";
  return new ReviewRefusal(
    "capture_binding_mismatch",
    `capture binding does not match the current reviewing authority${scope}; ask the parent orchestrator to refresh the exact native next transition by running ${STATUS_HINT}`,
  );
}

/** The parsed request after the shape checks (steps 0-7). */
interface Request {
  readonly flags: ParsedFlags;
  readonly lineage: string;
  readonly target: string;
  readonly lens: string;
  readonly order: number;
  readonly revision: string;
  readonly context: string;
  readonly subjectHash: string;
  readonly input: string;
  readonly agent: string;
  readonly materialize: boolean;
  readonly preflight: boolean;
}

function shapeChecks(traits: ProfileTraits, argv: readonly string[], out: StdoutBuffer): Request | undefined {
  const f = parseVerbFlags(captureResultFlags(traits), argv, out);
  if (f === undefined) return undefined;
  const r: Request = {
    flags: f,
    lineage: f.str("lineage"),
    target: f.str("target"),
    lens: f.str("lens"),
    order: f.int("order"),
    revision: f.str("expected-revision"),
    context: f.str("repository-context"),
    subjectHash: f.str("subject-hash"),
    input: f.str("input"),
    agent: traits.relayFlags ? f.str("agent") : "",
    materialize: traits.relayFlags && f.bool("materialize"),
    preflight: f.bool("preflight"),
  };
  if (r.materialize && (r.input !== "" || r.preflight))
    throw invalidRequest(`${V} --materialize only prints the Go-materialized provider task and cannot be combined with --input or --preflight`);
  if (r.materialize && r.agent === "") throw invalidRequest(`${V} --materialize requires --agent naming the host-relay runtime`);
  if (
    f.positionals.length > 0 ||
    r.lineage === "" ||
    r.target === "" ||
    r.lens === "" ||
    r.order < 0 ||
    (r.input === "" && r.agent === "" && !r.preflight)
  )
    throw invalidRequest(traits.relayFlags ? REQUIRES_V240 : REQUIRES_PRE);
  if (r.agent !== "") {
    if (!traits.agentSubmit && (r.input !== "" || r.preflight))
      throw invalidRequest(`${V} --agent requires no --input and cannot be combined with --preflight`);
    if (traits.agentSubmit && r.preflight) throw invalidRequest(`${V} --agent cannot be combined with --preflight`);
  }
  if (r.context !== "" && f.has("cwd")) throw invalidRequest(`${V} accepts either --repository-context or --cwd, not both`);
  if (r.context !== "" && r.revision === "") throw invalidRequest(`${V} with --repository-context requires --expected-revision`);
  if (r.agent !== "" && r.context === "") throw invalidRequest(`${V} --agent requires the provider-issued --repository-context`);
  return r;
}

/** Steps 8-9: handshake, eligibility and transport kind. */
function runtimeChecks(invocation: Invocation, traits: ProfileTraits, r: Request): void {
  if (r.agent === "") return;
  const { runtime, kind } = requireRuntime(traits, r.agent, invocation.env, "capture");
  if (kind === "compiled") {
    if (r.materialize)
      throw invalidRequest(
        `${V} --materialize is unavailable for ${JSON.stringify(runtime)}: a compiled runtime materializes internally; run the capture operation without --materialize`,
      );
    if (r.input !== "")
      throw invalidRequest(
        `${V} --agent ${JSON.stringify(runtime)} with --input is unavailable: only a compiled host-relay runtime may submit its raw reviewer result with the provider-owned runtime binding; this runtime's compiled transport is ${JSON.stringify(COMPILED_TRANSPORTS[runtime] ?? runtime)}`,
      );
    // The real binary would run the compiled reviewer in-process; the simulator has no such reviewer.
    throw invalidRequest(`gentle-ai-sim: in-process reviewer runtime ${JSON.stringify(runtime)} is not simulated`);
  }
  if (r.materialize || r.input !== "") return;
  if (traits.piWithoutMaterialize === "split")
    throw invalidRequest(
      `${V} --agent "pi" without --materialize has no in-process reviewer to run: its compiled transport is "pi_host_relay", whose host owns the reviewer subprocess; print the provider task with --materialize=true, run it in the host, then submit the raw result with --input and the same binding`,
    );
  throw invalidRequest(`${V} provider runtime ${JSON.stringify(runtime)} is host-mediated; use its live transport collection`);
}

/** Step 13: the request must name the current reviewing authority and one of its selected lens slots. */
function checkBinding(ids: Identities, lineage: LineageState, r: Request): Lens {
  const viaContext = r.context !== "";
  // Lineage lenses are always valid lens names, so membership also validates the --lens value.
  const lens = (lineage.lenses as readonly string[]).includes(r.lens) ? (r.lens as Lens) : undefined;
  const revision = ids.revision(lineage.revisionIndex);
  if (
    lineage.state !== "reviewing" ||
    r.lineage !== ids.lineageId ||
    r.target !== ids.targetIdentity ||
    (r.revision !== "" && r.revision !== revision) ||
    lens === undefined ||
    lineage.lenses.indexOf(lens) !== r.order
  )
    throw bindingDrift(viaContext);
  // (inferred) a submission's --subject-hash that names another subject is binding drift too.
  if (!r.materialize && r.subjectHash !== "" && r.subjectHash !== ids.subjectHash(lens)) throw bindingDrift(viaContext);
  return lens;
}

function readInput(invocation: Invocation, path: string): Buffer {
  return readInputDocument(invocation, path, "reviewer result");
}

function artifactBinding(ids: Identities, lens: Lens, order: number, sha256: string): ArtifactBinding {
  return { lineageId: ids.lineageId, targetIdentity: ids.targetIdentity, lens, order, subjectHash: ids.subjectHash(lens), sha256 };
}

async function body(invocation: Invocation, traits: ProfileTraits, argv: readonly string[], out: StdoutBuffer): Promise<void> {
  const r = shapeChecks(traits, argv, out);
  if (r === undefined) return; // -h / --help: usage only
  runtimeChecks(invocation, traits, r);
  const ids = identitiesFor(invocation.scenario.lineage.seed);
  if (r.context !== "" && r.context !== ids.repositoryContext)
    throw repositoryContextUnavailable();
  const snapshot = readLineage(invocation.stateDir, invocation.scenario);
  const submission = !r.materialize && !r.preflight;
  if (submission && snapshot.rddDisabled)
    // (inferred) native text; the envelope message is the documented rdd_disabled sentence.
    throw rddDisabled(V);
  const lens = checkBinding(ids, snapshot, r);
  const subjectHash = ids.subjectHash(lens);
  const viaContext = r.context !== "";

  if (r.materialize) {
    if (snapshot.captured[lens] !== undefined)
      throw new ReviewRefusal("capture_binding_mismatch", "provider reviewer invocation no longer matches the current reviewing authority");
    if (r.subjectHash !== "" && r.subjectHash !== subjectHash)
      throw new ReviewRefusal(
        "capture_binding_mismatch",
        "materialize subject hash does not match the provider-owned authority; refresh the binding with gentle-ai review status --cwd <repo> --contract <same-contract> --next-transition",
      );
    out.write(
      materializePrompt(ids, {
        lineage: ids.lineageId,
        target: ids.targetIdentity,
        lens,
        order: r.order,
        revision: ids.revision(snapshot.revisionIndex),
        repositoryContext: ids.repositoryContext,
        subjectHash,
      }),
    );
    return;
  }

  const admissionBinding = { lens, subjectHash, paths: ids.manifest.map((m) => m.path) };
  if (r.preflight) {
    const admitted = r.input === "" ? undefined : admitReviewerResult(readInput(invocation, r.input), admissionBinding);
    // (inferred) preflight report shape.
    out.write(
      encodeReviewJson({
        schema: "gentle-ai.review-capture-preflight/v1",
        capability: "review.native_capture_preflight",
        lineage_id: ids.lineageId,
        target_identity: ids.targetIdentity,
        lens,
        selected_order: r.order,
        subject_hash: subjectHash,
        admission_decision: admitted ? "completed" : undefined,
      }),
    );
    return;
  }

  const raw = readInput(invocation, r.input);
  const admitted = admitReviewerResult(raw, admissionBinding);
  const sha256 = sha256Prefixed(admitted.canonical);
  const artifact = artifactObject(artifactBinding(ids, lens, r.order, sha256), viaContext);
  updateLineage(invocation.stateDir, invocation.scenario, (draft) => {
    checkBinding(ids, draft, r); // re-check under the lock: a parallel transition may have moved the authority
    const existing = draft.captured[lens];
    if (existing !== undefined) {
      if (existing.canonicalSha256 === sha256) return; // identical resubmission: same artifact, nothing written
      throw new ReviewRefusal(
        "reviewer_result_slot_occupied",
        `reviewer_result_slot_occupied: a different reviewer result already occupies this immutable slot; refresh the negotiated STATUS transition with ${STATUS_HINT} and follow its authoritative continuation: captured reviewer result slot conflicts with different canonical bytes`,
      );
    }
    draft.captured[lens] = {
      canonicalSha256: sha256,
      canonicalBase64: admitted.canonical.toString("base64"),
      rawBase64: raw.toString("base64"),
      order: r.order,
      artifact: goMarshal(artifact),
    };
  });
  // (decided) v2.5.0 also prints the artifact for the last lens: the last-event closure object is only
  // observed on 2.4.1-main builds and the relay treats the submission stdout as opaque.
  out.write(encodeReviewJson(artifact));
}

/** review capture-result: collect-capture route from v2.4.0, plain route before. */
export function captureResult(invocation: Invocation): Promise<Outcome> {
  const traits = traitsOf(invocation.scenario.profile);
  const argv = invocation.argv.slice(2);
  const route = routeFor(argv, "capture-result", traits.collectCapture ? "collect-capture" : "plain", scanFlagsOf(captureResultFlags(traits)));
  return runRouted(route, (out) => body(invocation, traits, argv, out));
}
