// The Go-materialized provider task printed by `capture-result --agent=pi --materialize=true` (§7.3).
/**
 * Prompt layout (bytes are UTF-8, every line ends with `\n`, nothing else is appended):
 *
 *   GENTLE_AI_REVIEW_BINDING {"lineage":…,"target":…,"lens":…,"order":N,"revision":…,"repository_context":…,"subject_hash":"sha256:…"}
 *   GENTLE_AI_REVIEW_CONTEXT {"schema":"gentle-ai.review-capture-preflight/v1","capability":"review.native_capture_preflight",…}
 *   GENTLE_AI_REVIEW_INSTRUCTION            <- block: header line, trimmed body, `<HEADER>_END` line
 *   …
 *   GENTLE_AI_REVIEW_INSTRUCTION_END
 *   GENTLE_AI_REVIEW_RESULT_SCHEMA          <- compact JSON Schema of reviewer/v1
 *   GENTLE_AI_REVIEW_RESULT_SCHEMA_END
 *   GENTLE_AI_REVIEW_NAME_STATUS            <- one `<A|M|D>\t<path>` line per manifest entry (git --name-status)
 *   GENTLE_AI_REVIEW_NAME_STATUS_END
 *   GENTLE_AI_REVIEW_NUMSTAT                <- one `<added>\t<deleted>\t<path>` line per entry (git --numstat)
 *   GENTLE_AI_REVIEW_NUMSTAT_END
 *   GENTLE_AI_REVIEW_PATCH <index> <path>   <- one block per manifest entry, unified diff body
 *   GENTLE_AI_REVIEW_PATCH_END
 *   GENTLE_AI_REVIEW_CONTEXT_END
 *
 * Both JSON lines are Go json.Marshal output (HTML-escaped, no spaces) with keys in the order shown.
 * A valid reviewer result for the prompt: subject_hash from the BINDING line, lens from it, and
 * inspection.paths = the NAME_STATUS paths in block order (see admission.ts).
 */
import { goMarshal } from "../../output/go-json.ts";
import type { GoJson } from "../../output/go-json.ts";
import { sha256Hex } from "../../state/identities.ts";
import type { Identities, ManifestEntry } from "../../state/identities.ts";
import type { Lens } from "../../scenario/lineage-spec.ts";

/** One lens slot's binding as the prompt's first line carries it. */
export interface PromptBinding {
  readonly lineage: string;
  readonly target: string;
  readonly lens: Lens;
  readonly order: number;
  readonly revision: string;
  readonly repositoryContext: string;
  readonly subjectHash: string;
}

const RESULT_SCHEMA: GoJson = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  $id: "https://gentle-ai.dev/schema/review/reviewer/v1",
  type: "object",
  additionalProperties: false,
  required: ["subject_hash", "inspection", "findings", "evidence"],
  properties: {
    subject_hash: { type: "string", pattern: "^sha256:[0-9a-f]{64}$" },
    inspection: {
      type: "object",
      additionalProperties: false,
      required: ["status", "paths"],
      properties: { status: { const: "completed" }, paths: { type: "array", items: { type: "string" } } },
    },
    lens: { type: "string" },
    findings: {
      type: "array",
      items: {
        type: "object",
        additionalProperties: false,
        required: ["location", "severity", "claim", "proof_refs"],
        properties: {
          id: { type: "string" },
          lens: { type: "string" },
          location: { type: "string" },
          severity: { enum: ["BLOCKER", "CRITICAL", "WARNING", "SUGGESTION"] },
          claim: { type: "string" },
          proof_refs: { type: "array", minItems: 1, items: { type: "string" } },
          evidence_class: { type: "string" },
          causal_disposition: { type: "string" },
        },
      },
    },
    evidence: {
      type: "array",
      items: {
        type: "object",
        additionalProperties: false,
        required: ["id", "observation"],
        properties: { id: { type: "string" }, path: { type: "string" }, observation: { type: "string" } },
      },
    },
  },
};

function block(header: string, body: string, end = header + "_END"): string {
  return `${header}\n${body.trim()}\n${end}\n`;
}

function patchBody(ids: Identities, entry: ManifestEntry): string {
  const h = sha256Hex(`${ids.seed}\u0000patch\u0000${entry.path}`);
  const lines: string[] = [`diff --git a/${entry.path} b/${entry.path}`];
  if (entry.status === "A") {
    lines.push("new file mode 100644", `index 0000000..${h.slice(0, 7)}`, "--- /dev/null", `+++ b/${entry.path}`);
    lines.push(`@@ -0,0 +1,${entry.additions} @@`);
  } else {
    lines.push(`index ${h.slice(7, 14)}..${h.slice(14, 21)} 100644`, `--- a/${entry.path}`, `+++ b/${entry.path}`);
    lines.push(`@@ -1,${entry.deletions} +1,${entry.additions} @@`);
    for (let i = 0; i < entry.deletions; i++) lines.push(`-previous line ${i + 1} ${h.slice(21 + i, 29 + i)}`);
  }
  for (let i = 0; i < entry.additions; i++) lines.push(`+candidate line ${i + 1} ${h.slice(32 + i, 40 + i)}`);
  return lines.join("\n");
}

/** Renders the prompt bytes; a pure function of the binding and the seed, so repeats are byte-identical. */
export function materializePrompt(ids: Identities, b: PromptBinding): Buffer {
  const binding = goMarshal({
    lineage: b.lineage,
    target: b.target,
    lens: b.lens,
    order: b.order,
    revision: b.revision,
    repository_context: b.repositoryContext,
    subject_hash: b.subjectHash,
  });
  const context = goMarshal({
    schema: "gentle-ai.review-capture-preflight/v1",
    capability: "review.native_capture_preflight",
    lineage_id: b.lineage,
    target_identity: b.target,
    lens: b.lens,
    selected_order: b.order,
    revision: b.revision,
    base_tree: ids.baseTree,
    candidate_tree: ids.candidateTree,
    changed_path_manifest_sha256: ids.manifestSha256,
    subject_hash: b.subjectHash,
  });
  const instruction = [
    `Review the frozen candidate through the ${b.lens} lens only.`,
    "Inspect every changed path listed in GENTLE_AI_REVIEW_NAME_STATUS using the patches below; do not run tools.",
    "Reply with exactly one JSON object matching GENTLE_AI_REVIEW_RESULT_SCHEMA: copy subject_hash and lens from",
    "GENTLE_AI_REVIEW_BINDING, set inspection.status to completed and inspection.paths to the inspected paths,",
    "and give explicit findings and evidence arrays (empty when there is nothing to report).",
  ].join("\n");
  let out = `GENTLE_AI_REVIEW_BINDING ${binding}\nGENTLE_AI_REVIEW_CONTEXT ${context}\n`;
  out += block("GENTLE_AI_REVIEW_INSTRUCTION", instruction);
  out += block("GENTLE_AI_REVIEW_RESULT_SCHEMA", goMarshal(RESULT_SCHEMA));
  out += block("GENTLE_AI_REVIEW_NAME_STATUS", ids.manifest.map((m) => `${m.status}\t${m.path}`).join("\n"));
  out += block("GENTLE_AI_REVIEW_NUMSTAT", ids.manifest.map((m) => `${m.additions}\t${m.deletions}\t${m.path}`).join("\n"));
  ids.manifest.forEach((m, i) => {
    out += block(`GENTLE_AI_REVIEW_PATCH ${i} ${m.path}`, patchBody(ids, m), "GENTLE_AI_REVIEW_PATCH_END");
  });
  return Buffer.from(out + "GENTLE_AI_REVIEW_CONTEXT_END\n", "utf8");
}
