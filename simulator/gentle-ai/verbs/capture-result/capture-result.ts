// review capture-result, in the order of gentle-ai's RunReviewCaptureResult (internal/cli/review_artifact.go:248-470
// at fb55ef7b): flag checks on trimmed values, runtime gate, repository context or --cwd root, kill switch, authority
// binding, then --preflight (capture preflight or admission dry run), --materialize (the provider task), or the
// submission (admission, immutable slot, result artifact).
import { resolve } from "node:path";
import type { Invocation, Outcome } from "../../invocation.ts";
import type { ParsedFlags } from "../../../go/go-flags.ts";
import type { FlagDef, FlagSetSpec } from "../../../go/flag-spec.ts";
import { scanFlagsOf } from "../../../go/go-flags.ts";
import { goQuoteStr } from "../../../go/go-quote.ts";
import { traitsOf } from "../../profiles.ts";
import type { ProfileTraits } from "../../profiles.ts";
import { routeFor, runRouted } from "../../route.ts";
import type { StdoutBuffer } from "../../route.ts";
import { invalidRequest, rddDisabled, ReviewRefusal } from "../../refusal.ts";
import { resolveRepositoryContext } from "../../gates/repository-context.ts";
import { requireRuntime } from "../../gates/handshake.ts";
import { encodeReviewJson, goMarshal } from "../../../go/go-json.ts";
import { scrubCause } from "../../../output/envelope.ts";
import { identitiesFor } from "../../../state/identities.ts";
import type { Identities } from "../../../state/identities.ts";
import { readLineage, updateLineage } from "../../lineage.ts";
import type { LineageState } from "../../../state/lineage-state.ts";
import type { Lens } from "../../../scenario/lineage-spec.ts";
import { materializePrompt } from "./materialize.ts";
import { admitReviewerResult } from "./admission.ts";
import type { Admitted } from "./admission.ts";
import { artifactObject, reviewerResultPath, slotBytes } from "./artifact.ts";
import type { ArtifactBinding, SlotBytes } from "./artifact.ts";
import { capturePreflight } from "./capture-preflight.ts";
import type { SlotBinding } from "./capture-preflight.ts";
import { goTrimSpace } from "./lens-result.ts";
import { readInputDocument } from "../shared/read-input.ts";
import { authorityOf } from "../shared/correction-authority.ts";
import { parseVerbFlags, REPOSITORY_CONTEXT_FLAG } from "../shared/verb-flags.ts";
import type { CaptureResultDryRun } from "../../../contract/capture-result.ts";

const V = "review capture-result";

const BASE_FLAGS: readonly FlagDef[] = [
  { name: "cwd", kind: "string", default: ".", usage: "repository path" },
  { name: "expected-revision", kind: "string", usage: "exact reviewing authority revision" },
  {
    name: "input",
    kind: "string",
    usage:
      "raw reviewer result JSON file or - for stdin; `gentle-ai review schema reviewer` emits the schema and a working example",
  },
  { name: "lens", kind: "string", usage: "exact selected lens" },
  { name: "lineage", kind: "string", usage: "exact review lineage identifier" },
  { name: "order", kind: "int", default: -1, usage: "zero-based selected lens order" },
  {
    name: "preflight",
    kind: "bool",
    usage:
      "validate the capture binding and, when --input is supplied, the result admission without persisting anything",
  },
  REPOSITORY_CONTEXT_FLAG,
  { name: "subject-hash", kind: "string", usage: "provider-issued artifact subject hash for native-Git context" },
  { name: "target", kind: "string", usage: "exact frozen target identity" },
];

const RELAY_FLAGS: readonly FlagDef[] = [
  {
    name: "agent",
    kind: "string",
    usage:
      "compiled reviewer runtime that invokes the provider-owned request; mutually exclusive with --input and --preflight",
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

/** reviewNextTransitionRefreshCommandV21 (review_capabilities.go:53). */
const STATUS_HINT = "gentle-ai review status --cwd <repo> --contract gentle-ai.review-integration/v2 --next-transition";
const SUBJECT_REFRESH =
  "refresh the binding with gentle-ai review status --cwd <repo> --contract <same-contract> --next-transition";

/** The compiled immutable transport of each runtime (review_transport_capability.go:22-41, :86-95). */
const TRANSPORTS: Readonly<Record<string, string>> = {
  "claude-code": "claude_prompt_carried",
  opencode: "opencode_provider_injected",
  codex: "codex_advisory_scratch_process",
  pi: "pi_host_relay",
};
/**
 * reviewProviderCaptureRuntime: runtimes with a compiled in-process reviewer adapter (review_provider_runtime.go:44).
 */
const IN_PROCESS = new Set(["claude-code", "codex"]);

function bindingMismatch(text: string): ReviewRefusal {
  return new ReviewRefusal("capture_binding_mismatch", text);
}

/** reviewOpaqueContextCause: the typed opaque-context refusal with its scrubbed one-line cause. */
function opaqueContextFailure(code: string, cause: string, action: string): ReviewRefusal {
  return invalidRequest(
    `${code}: provider-issued review repository context operation failed; cause: ${scrubCause(cause)}; ${action}`,
  );
}

/** The request after the flag checks. Values are as given; Go trims them only to test for emptiness. */
interface Request {
  readonly flags: ParsedFlags;
  readonly lineage: string;
  readonly target: string;
  readonly lens: string;
  readonly order: number;
  readonly revision: string;
  /** Trimmed --repository-context (Go keeps the trimmed handle). */
  readonly context: string;
  readonly subjectHash: string;
  readonly input: string;
  readonly hasInput: boolean;
  /** Trimmed --agent. */
  readonly agent: string;
  readonly materialize: boolean;
  readonly preflight: boolean;
}

const blank = (s: string) => goTrimSpace(s) === "";

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
    context: goTrimSpace(f.str("repository-context")),
    subjectHash: f.str("subject-hash"),
    input: f.str("input"),
    hasInput: !blank(f.str("input")),
    agent: traits.relayFlags ? goTrimSpace(f.str("agent")) : "",
    materialize: traits.relayFlags && f.bool("materialize"),
    preflight: f.bool("preflight"),
  };
  if (r.materialize && (r.hasInput || r.preflight))
    throw invalidRequest(
      `${V} --materialize only prints the Go-materialized provider task and cannot be combined with --input or --preflight`,
    );
  if (r.materialize && r.agent === "")
    throw invalidRequest(`${V} --materialize requires --agent naming the host-relay runtime`);
  if (
    f.positionals.length > 0 ||
    blank(r.lineage) ||
    blank(r.target) ||
    blank(r.lens) ||
    r.order < 0 ||
    (!r.preflight && !r.hasInput && r.agent === "")
  )
    throw invalidRequest(traits.relayFlags ? REQUIRES_V240 : REQUIRES_PRE);
  if (r.agent !== "") {
    if (!traits.agentSubmit && (r.hasInput || r.preflight))
      throw invalidRequest(`${V} --agent requires no --input and cannot be combined with --preflight`);
    // (inferred) PR #3845 (2.5.0) admits --agent pi with --input; this wording for the remaining --preflight
    // conflict has no source.
    if (traits.agentSubmit && r.preflight) throw invalidRequest(`${V} --agent cannot be combined with --preflight`);
  }
  if (r.context !== "" && f.has("cwd"))
    throw invalidRequest(`${V} accepts either --repository-context or --cwd, not both`);
  if (r.context !== "" && blank(r.revision))
    throw invalidRequest(`${V} with --repository-context requires --expected-revision`);
  if (r.agent !== "" && r.context === "")
    throw invalidRequest(`${V} --agent requires the provider-issued --repository-context`);
  return r;
}

/**
 * The runtime gate and the refusal of every --agent form this runtime's transport cannot serve
 * (review_artifact.go:294-325).
 */
function runtimeChecks(invocation: Invocation, traits: ProfileTraits, r: Request): void {
  if (r.agent === "") return;
  const { runtime } = requireRuntime(traits, r.agent, invocation.env, "capture");
  const transport = TRANSPORTS[runtime] ?? "unsupported";
  const q = goQuoteStr(runtime);
  // 2.4.0 predates #3441, when both host-mediated refusals shared one sentence
  // (review_capture_result_refusal_distinct_test.go:14-24).
  const hostMediated = invalidRequest(`${V} provider runtime ${q} is host-mediated; use its live transport collection`);
  if (r.materialize) {
    if (IN_PROCESS.has(runtime))
      throw invalidRequest(
        `${V} --materialize is unavailable for ${q}: a compiled runtime materializes internally; run the capture operation without --materialize`,
      );
    if (transport !== "pi_host_relay") {
      if (traits.piWithoutMaterialize === "host-mediated") throw hostMediated;
      throw invalidRequest(
        `${V} --materialize is unavailable for ${q}: printing the Go-materialized provider task is the host-relay form, and this runtime's compiled transport is ${goQuoteStr(transport)}; collect its reviewer result through that live host transport instead`,
      );
    }
    return;
  }
  if (r.hasInput && traits.agentSubmit) {
    // (inferred) PR #3845 (2.5.0): only the host-relay runtime submits its raw result with --agent; wording inferred.
    if (transport === "pi_host_relay") return;
    if (IN_PROCESS.has(runtime))
      throw invalidRequest(
        `${V} --agent ${q} with --input is unavailable: only a compiled host-relay runtime may submit its raw reviewer result with the provider-owned runtime binding; this runtime's compiled transport is ${goQuoteStr(transport)}`,
      );
  }
  if (IN_PROCESS.has(runtime)) return; // the in-process reviewer runs after the binding checks
  if (traits.piWithoutMaterialize === "host-mediated") throw hostMediated;
  if (transport === "pi_host_relay")
    throw invalidRequest(
      `${V} --agent ${q} without --materialize has no in-process reviewer to run: its compiled transport is ${goQuoteStr(transport)}, whose host owns the reviewer subprocess; print the provider task with --materialize=true, run it in the host, then submit the raw result with --input and the same binding`,
    );
  throw invalidRequest(
    `${V} --agent ${q} has no compiled in-process reviewer adapter: its compiled transport is ${goQuoteStr(transport)}; collect its reviewer result through that live host transport instead`,
  );
}

const LINEAGE_ID = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const LINEAGE_ID_INVALID = "lineage_id must be a canonical lowercase kebab-case identifier of at most 128 bytes";

function validLineageId(id: string): boolean {
  return id.length > 0 && Buffer.byteLength(id, "utf8") <= 128 && LINEAGE_ID.test(id);
}

/** discoverCompactFacadeReview on the --cwd route: the lineage must name a compact authority under the root. */
function discoverLineage(ids: Identities, r: Request, root: string): void {
  const cause = !validLineageId(r.lineage)
    ? LINEAGE_ID_INVALID
    : r.lineage !== ids.lineageId
      ? `no compact facade review lineage ${goQuoteStr(goTrimSpace(r.lineage))} was found; run gentle-ai review start --lineage ${goTrimSpace(r.lineage)} to begin a fresh compact review, or use gentle-ai review-resume --cwd <repo> --lineage ${goTrimSpace(r.lineage)} for explicit read-only historical compatibility`
      : undefined;
  if (cause !== undefined)
    throw invalidRequest(
      `resolve reviewing authority for lineage ${goQuoteStr(r.lineage)} under repository ${goQuoteStr(root)}: ${cause}; if the review was started in a different repository (for example a nested one), re-run with --cwd set to that repository`,
    );
}

/**
 * The request names the current reviewing authority and one of its selected lens slots (review_artifact.go:357-364).
 */
function bindsAuthority(ids: Identities, lineage: LineageState, r: Request): boolean {
  return (
    lineage.state === "reviewing" &&
    r.lineage === ids.lineageId &&
    r.target === ids.targetIdentity &&
    (blank(r.revision) || r.revision === ids.revision(lineage.revisionIndex)) &&
    r.order < lineage.lenses.length &&
    lineage.lenses[r.order] === r.lens
  );
}

function checkBinding(ids: Identities, lineage: LineageState, r: Request, root: string): Lens {
  if (!bindsAuthority(ids, lineage, r)) {
    if (r.context !== "")
      throw bindingMismatch(
        `capture binding does not match the current reviewing authority under the provider-issued repository context; ask the parent orchestrator to refresh the exact native next transition by running ${STATUS_HINT}`,
      );
    throw bindingMismatch(
      `capture binding does not match the current reviewing authority under repository ${goQuoteStr(root)}; verify the frozen lineage, target, lens, and order for that repository, or re-run with --cwd set to the repository where the review was started`,
    );
  }
  return r.lens as Lens;
}

function readInput(invocation: Invocation, path: string): Buffer {
  return readInputDocument(invocation, path, "reviewer result");
}

/** A request bound to the current reviewing authority: its lens slot and the subject hash that slot commits to. */
interface Bound {
  readonly invocation: Invocation;
  readonly r: Request;
  readonly ids: Identities;
  readonly snapshot: LineageState;
  readonly root: string;
  readonly lens: Lens;
  readonly slot: SlotBinding;
  readonly subjectHash: string;
}

async function body(
  invocation: Invocation,
  traits: ProfileTraits,
  argv: readonly string[],
  out: StdoutBuffer,
): Promise<void> {
  const r = shapeChecks(traits, argv, out);
  if (r === undefined) return; // -h / --help: usage only
  runtimeChecks(invocation, traits, r);
  const b = bindRequest(invocation, r);
  if (r.preflight && !r.hasInput) {
    writeCapturePreflight(b, out);
    return;
  }
  if (r.agent !== "" && !r.hasInput) {
    writeMaterialized(b, out);
    return;
  }
  // readFacadeBytes reads the --input value as given, relative to the process's working directory.
  const raw = readInput(invocation, r.input);
  const admitted = admitReviewerResult(raw, { lens: b.lens, subjectHash: b.subjectHash, manifest: b.ids.manifest });
  if (r.preflight) {
    out.write(encodeReviewJson(dryRun(b)));
    return;
  }
  submit(b, raw, admitted, out);
}

/** The repository context or --cwd root, the kill switch, then the lineage and slot binding checks. */
function bindRequest(invocation: Invocation, r: Request): Bound {
  const ids = identitiesFor(invocation.scenario.lineage.seed, invocation.identitySource);
  const snapshot = readLineage(invocation.stateDir, invocation.scenario, invocation.identitySource);
  // (inferred) the --cwd directory is the repository's top level.
  const root = resolve(invocation.cwd, r.flags.str("cwd"));
  // resolveOpaqueReviewRepositoryRoot (review_incident.go:166): the handle must commit to the caller's binding.
  if (r.context !== "")
    resolveRepositoryContext(authorityOf(invocation.scenario, snapshot, invocation.identitySource), r.context, {
      lineage: r.lineage,
      target: r.target,
      revision: r.revision,
    });
  // --preflight and --materialize stay reachable under a frozen switch; a submission publishes
  // (review_artifact.go:338-346).
  if (!r.preflight && !r.materialize && snapshot.rddDisabled) throw rddDisabled(snapshot); // (inferred) native text
  if (r.context === "") discoverLineage(ids, r, root);
  const lens = checkBinding(ids, snapshot, r, root);
  const slot: SlotBinding = { lens, order: r.order, revision: ids.revision(snapshot.revisionIndex) };
  const subjectHash = ids.subjectHash(lens);
  return { invocation, r, ids, snapshot, root, lens, slot, subjectHash };
}

/** --preflight without --input: the capture binding alone. */
function writeCapturePreflight(b: Bound, out: StdoutBuffer): void {
  const { r, ids, slot, root, subjectHash } = b;
  if (r.subjectHash !== "" && r.subjectHash !== subjectHash)
    throw bindingMismatch(
      `review capture preflight subject hash does not match the provider-owned authority; ${SUBJECT_REFRESH}`,
    );
  out.write(encodeReviewJson(capturePreflight(ids, slot, r.context === "" ? root : "")));
}

/** --agent without --input: --materialize prints the provider task; an in-process reviewer is not simulated. */
function writeMaterialized(b: Bound, out: StdoutBuffer): void {
  const { r, ids, lens, slot, subjectHash } = b;
  if (!r.materialize)
    throw invalidRequest(`gentle-ai-sim: in-process reviewer runtime ${goQuoteStr(r.agent)} is not simulated`);
  if (r.subjectHash !== "" && r.subjectHash !== subjectHash)
    throw bindingMismatch(`materialize subject hash does not match the provider-owned authority; ${SUBJECT_REFRESH}`);
  // The raw prompt bytes, nothing captured (review_artifact.go:405-418).
  out.write(
    materializePrompt(ids, {
      lineage: ids.lineageId,
      target: ids.targetIdentity,
      lens,
      order: r.order,
      revision: slot.revision,
      repositoryContext: ids.repositoryContext,
      subjectHash,
    }),
  );
}

/** --preflight with --input: the admission verdict, nothing persisted. */
function dryRun(b: Bound): CaptureResultDryRun {
  return {
    schema: "gentle-ai.review-capture-result-dry-run/v1",
    operation: "review/capture-result",
    validation: "accepted",
    lineage_id: b.ids.lineageId,
    lens: b.lens,
    selected_order: b.r.order,
    subject_hash: b.subjectHash,
    admission_decision: "completed",
  };
}

/** The submission: the admitted result fills its immutable slot, then its artifact is printed. */
function submit(b: Bound, raw: Buffer, admitted: Admitted, out: StdoutBuffer): void {
  const { invocation, r, ids, lens } = b;
  const bytes = slotBytes(ids, b.slot, admitted, raw);
  const binding: ArtifactBinding = {
    lineageId: ids.lineageId,
    targetIdentity: ids.targetIdentity,
    lens,
    order: r.order,
    subjectHash: b.subjectHash,
    sha256: bytes.digest,
  };
  updateLineage(invocation.stateDir, invocation.scenario, invocation.identitySource, (draft) =>
    fillSlot(draft, b, bytes, raw, binding),
  );
  const path = reviewerResultPath(invocation.stateDir, ids.lineageId, r.order, lens);
  // (decided) v2.5.0 also prints the artifact for the last lens: the last-event closure object is only
  // observed on 2.4.1-main builds and the relay treats the submission stdout as opaque.
  out.write(encodeReviewJson(artifactObject(binding, r.context !== "" ? "reference" : { path })));
}

/** Under the authority lock: the slot takes the bytes, replays them, or refuses a different result. */
function fillSlot(draft: LineageState, b: Bound, bytes: SlotBytes, raw: Buffer, binding: ArtifactBinding): void {
  const { r, lens, snapshot } = b;
  // Under the authority lock the binding is checked again against the revision read before it
  // (compact_store.go:1834-1836): a parallel transition may have moved the authority since.
  if (draft.state !== "reviewing" || draft.revisionIndex !== snapshot.revisionIndex || draft.lenses[r.order] !== lens) {
    const cause = "capture binding does not match the current reviewing authority";
    if (r.context !== "")
      throw opaqueContextFailure(
        "repository_context_capture_failed",
        cause,
        "retry capture-result with the same exact binding or refresh status",
      );
    throw invalidRequest(cause);
  }
  const existing = draft.captured[lens];
  if (existing !== undefined) {
    if (existing.canonicalSha256 === bytes.digest) return; // byte-identical slot bytes: exact replay, nothing written
    throw new ReviewRefusal(
      "reviewer_result_slot_occupied",
      `reviewer_result_slot_occupied: a different reviewer result already occupies this immutable slot; refresh the negotiated STATUS transition with ${STATUS_HINT} and follow its authoritative continuation: captured reviewer result slot conflicts with different canonical bytes`,
    );
  }
  draft.captured[lens] = {
    canonicalSha256: bytes.digest,
    canonicalBase64: bytes.canonical.toString("base64"),
    rawBase64: raw.toString("base64"),
    order: r.order,
    artifact: goMarshal(artifactObject(binding, "reference")),
  };
}

/** review capture-result: collect-capture route from v2.4.0, plain route before. */
export function captureResult(invocation: Invocation): Promise<Outcome> {
  const traits = traitsOf(invocation.scenario.profile);
  const argv = invocation.argv.slice(2);
  const route = routeFor(
    argv,
    "capture-result",
    traits.collectCapture ? "collect-capture" : "plain",
    scanFlagsOf(captureResultFlags(traits)),
  );
  return runRouted(route, (out) => body(invocation, traits, argv, out));
}
