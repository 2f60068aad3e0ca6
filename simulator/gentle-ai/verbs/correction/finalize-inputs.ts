// FINALIZE's caller inputs, read once the authority is known and before any plan check, in gentle-ai's order
// (runReviewFacadeFinalize: review_facade.go:2873-2975 at 301fb2ad, :2609-2711 at fb55ef7b): the reviewer
// artifact manifests, the captured reviewer results, the targeted validation, the refuter outcomes, the raw evidence
// and last the captured evidence. Every refusal names the input it read.
import { statSync } from "node:fs";
import { resolve } from "node:path";
import type { Invocation } from "../../invocation.ts";
import type { ParsedFlags } from "../../../go/go-flags.ts";
import { goQuoteStr } from "../../../go/go-quote.ts";
import { invalidRequest, ReviewRefusal } from "../../refusal.ts";
import { CONTRACT_V1 } from "../../../output/envelope.ts";
import type { LineageState } from "../../../state/lineage-state.ts";
import type { VerificationEvidenceRecord } from "../../../state/evidence-record.ts";
import { ARTIFACT_CAPABILITY, ARTIFACT_SCHEMA } from "../capture-result/artifact.ts";
import { capturedEvidence } from "../shared/correction-authority.ts";
import type { Authority } from "../shared/correction-authority.ts";
import { decodeValidation } from "./finalize-validation.ts";
import type { ValidationDocument } from "./finalize-validation.ts";
import { decodeStrict } from "../../../go/go-decode.ts";
import type { Decoded, GoType } from "../../../go/go-decode.ts";
import { readInputDocument, readInputError } from "../shared/read-input.ts";

export const CAPTURE_RESULT_COMMAND = "gentle-ai review capture-result";
export const V1_REFRESH_COMMAND = `gentle-ai review status --cwd <repo> --contract ${CONTRACT_V1} --next-transition`;

/** The count refusal of each reviewer-result source: `original reviewer result`, `captured reviewer result`, … */
export function requiresAllText(count: number, what: string): string {
  return `review finalize requires all ${count} ${what}(s); capture each missing one with \`${CAPTURE_RESULT_COMMAND}\` (see \`${V1_REFRESH_COMMAND}\` for the exact lineage/target/lens/order bindings)`;
}

const STRINGS: GoType = { kind: "slice", elem: { kind: "string" } };
/** `reviewResultArtifact` (review_artifact.go:164-176), the manifest --result-artifact carries. */
const ARTIFACT_TYPE: GoType = {
  kind: "struct",
  name: "reviewResultArtifact",
  fields: [
    ...["schema", "capability", "path", "reference", "sha256", "lineage_id", "target_identity", "lens"].map((json) => ({
      json,
      type: { kind: "string" } as const,
    })),
    { json: "selected_order", type: { kind: "int" } },
    { json: "subject_hash", type: { kind: "string" } },
    { json: "admission_decision", type: { kind: "string", named: "reviewtransaction.ArtifactAdmissionDecision" } },
  ],
};
/** `facadeRefuterResult` (review_facade.go:561-570), the --refuter document. */
const REFUTER_TYPE: GoType = {
  kind: "struct",
  name: "facadeRefuterResult",
  fields: [
    { json: "refuter_request_hash", type: { kind: "string" } },
    {
      json: "results",
      type: {
        kind: "slice",
        elem: {
          kind: "struct",
          name: "facadeRefuterOutcome",
          fields: [
            { json: "finding_id", type: { kind: "string" } },
            { json: "outcome", type: { kind: "string", named: "reviewtransaction.EvidenceOutcome" } },
            { json: "proof_refs", type: STRINGS },
          ],
        },
      },
    },
  ],
};

// reviewResultArtifactLimit (review_artifact.go:28).
const ARTIFACT_LIMIT = 4 << 20;

/**
 * One --result-artifact-file manifest (readFacadeArtifactManifest, review_facade_input_other.go:10-46): a path must
 * stat as a regular file; `-` reads stdin; a UTF-8 byte order mark is dropped.
 */
function readManifestFile(invocation: Invocation, path: string, index: number): string {
  const refuse = (text: string): ReviewRefusal => invalidRequest(`read reviewer artifact manifest ${index}: ${text}`);
  let bytes: Buffer;
  try {
    // os.Stat("") is ENOENT; resolve() would turn it into the cwd.
    if (path !== "-" && !statSync(path === "" ? "" : resolve(invocation.cwd, path)).isFile())
      throw refuse("artifact manifest input must be a regular file");
  } catch (error) {
    if (error instanceof ReviewRefusal) throw error;
    throw refuse(readInputError(error, path, "stat"));
  }
  try {
    bytes = path === "-" ? invocation.readStdin() : invocation.readFile(path);
  } catch (error) {
    throw refuse(readInputError(error, path));
  }
  if (bytes.length > ARTIFACT_LIMIT) throw refuse("artifact exceeds the native result size limit");
  const text = bytes.toString("utf8");
  return text.startsWith("\uFEFF") ? text.slice(1) : text;
}

/** validReviewCapabilitySHA256 (review_capabilities.go:455-461). */
function validSha256(value: Decoded | undefined): boolean {
  return typeof value === "string" && /^sha256:[0-9a-fA-F]{64}$/.test(value);
}

/**
 * The first checks of readVerifiedReviewerArtifact (review_artifact.go:904-929): the manifest binding and its locator.
 */
function manifestError(m: { readonly [field: string]: Decoded }, a: Authority): string | undefined {
  const lenses = a.lineage.lenses;
  const order = m["selected_order"] as number;
  if (
    m["schema"] !== ARTIFACT_SCHEMA ||
    m["capability"] !== ARTIFACT_CAPABILITY ||
    m["lineage_id"] !== a.lineageId ||
    m["target_identity"] !== a.targetIdentity ||
    order < 0 ||
    order >= lenses.length ||
    m["lens"] !== lenses[order] ||
    !validSha256(m["sha256"])
  )
    return "artifact manifest does not match frozen lineage, target, lens, and order";
  if (m["path"] !== "" && m["reference"] !== "") return "artifact manifest mixes legacy path and opaque reference";
  if (m["path"] === "" && m["reference"] === "") return "artifact manifest has no provider-owned locator";
  return undefined;
}

/**
 * readFacadeReviewerArtifacts (review_artifact.go:656-689): one manifest per selected lens, then each in turn decoded
 * strictly, in selected-lens order, bound to the frozen lineage and its slot verified. (not simulated) reading and
 * verifying the slot a binding manifest names: the first manifest either refuses as gentle-ai does or ends the
 * simulated part with a simulator error.
 */
function verifyArtifacts(manifests: readonly string[], a: Authority): void {
  const lenses = a.lineage.lenses;
  if (manifests.length !== lenses.length)
    throw invalidRequest(requiresAllText(lenses.length, "original reviewer artifact"));
  const decoded = decodeStrict(manifests[0]!, ARTIFACT_TYPE, { pkg: "cli" });
  if (!decoded.ok) throw invalidRequest(`decode reviewer artifact 1: ${decoded.error}`);
  const m = decoded.value as { readonly [field: string]: Decoded };
  if (m["selected_order"] !== 0) throw invalidRequest("reviewer artifact 1 is out of selected-lens order");
  const error = manifestError(m, a);
  if (error !== undefined) throw invalidRequest(`verify reviewer artifact 1: ${error}`);
  throw invalidRequest(
    "gentle-ai-sim: review finalize past a bound --result-artifact manifest is not simulated; use --captured-results",
  );
}

/**
 * facadeVerificationEvidenceTarget and ReadCapturedVerificationEvidence (review_artifact.go:126-153,
 * verification_evidence.go:273-282) for --captured-evidence, then the --failed agreement check.
 * (not simulated) the corrected-candidate rebuild that binds a correction's evidence.
 */
function loadCapturedEvidence(f: ParsedFlags, failedProvided: boolean, a: Authority): VerificationEvidenceRecord {
  const l = a.lineage;
  if (l.state === "correction_required") {
    if (l.correction.forecastLines === null)
      throw invalidRequest("verification evidence requires a forecasted correction");
  } else if (l.state !== "validating")
    throw invalidRequest(`cannot capture verification evidence from compact state ${goQuoteStr(l.state)}`);
  const record = capturedEvidence(a);
  if (record === undefined) throw invalidRequest("captured verification evidence is missing");
  if (failedProvided && f.bool("failed") !== (record.outcome !== "passed"))
    throw invalidRequest("--failed conflicts with captured verification evidence outcome");
  return record;
}

/** What the inputs give the plan. */
export interface FinalizeInputs {
  /** The decoded --validation document. */
  readonly validation: ValidationDocument | undefined;
  /** The record --captured-evidence loaded. */
  readonly captured: VerificationEvidenceRecord | undefined;
}

/** Reads and checks FINALIZE's inputs against the lineage `a` in gentle-ai's order; refuses at the first bad one. */
export function readFinalizeInputs(
  invocation: Invocation,
  f: ParsedFlags,
  failedProvided: boolean,
  a: Authority,
): FinalizeInputs {
  const inline = f.all("result-artifact").map(String);
  const files = f.all("result-artifact-file").map((path, i) => readManifestFile(invocation, String(path), i + 1));
  if (inline.length > 0 || files.length > 0) verifyArtifacts(inline.length > 0 ? inline : files, a);
  // (decided) only a reviewing lineage reads its captured results: the later states never consume them here.
  if (f.bool("captured-results") && a.lineage.state === "reviewing") requireCapturedResults(a.lineage);
  let validation: ValidationDocument | undefined;
  if (f.str("validation").trim() !== "") {
    const decoded = decodeValidation(readInputDocument(invocation, f.str("validation"), "targeted validation"));
    if (!decoded.ok) throw invalidRequest(decoded.error);
    validation = decoded.doc;
  }
  if (f.str("refuter").trim() !== "") {
    const decoded = decodeStrict(
      readInputDocument(invocation, f.str("refuter"), "refuter outcomes").toString("utf8"),
      REFUTER_TYPE,
      { pkg: "cli" },
    );
    if (!decoded.ok) throw invalidRequest(`read refuter outcomes: ${decoded.error}`);
  }
  if (f.str("evidence").trim() !== "") readInputDocument(invocation, f.str("evidence"), "final review evidence");
  const captured = f.bool("captured-evidence") ? loadCapturedEvidence(f, failedProvided, a) : undefined;
  return { validation, captured };
}

/** readCapturedReviewerResults (review_artifact.go:752-758): every selected lens holds a captured result. */
function requireCapturedResults(lineage: LineageState): void {
  if (lineage.lenses.some((lens) => lineage.captured[lens] === undefined))
    throw invalidRequest(requiresAllText(lineage.lenses.length, "captured reviewer result"));
}
