// The Go-materialized provider task printed by `capture-result --agent=pi --materialize=true` (§7.3).
/**
 * Prompt layout (bytes are UTF-8, every line ends with `\n`, nothing else is appended):
 *
 * GENTLE_AI_REVIEW_BINDING
 * {"lineage":…,"target":…,"lens":…,"order":N,"revision":…,"repository_context":…,"subject_hash":"sha256:…"}
 * GENTLE_AI_REVIEW_CONTEXT {"schema":"gentle-ai.review-capture-preflight/v1",…} <- the whole preflight object
 * GENTLE_AI_REVIEW_INSTRUCTION <- block: header line, trimmed body, `<HEADER>_END` line …
 * GENTLE_AI_REVIEW_INSTRUCTION_END GENTLE_AI_REVIEW_RESULT_SCHEMA <- the reviewer/v1 schema text (reviewer-schema.ts)
 * GENTLE_AI_REVIEW_RESULT_SCHEMA_END GENTLE_AI_REVIEW_NAME_STATUS <- one `<A|M|D>\t<path>` line per manifest entry (git
 * --name-status) GENTLE_AI_REVIEW_NAME_STATUS_END GENTLE_AI_REVIEW_NUMSTAT <- one `<added>\t<deleted>\t<path>` line per
 * entry (git --numstat) GENTLE_AI_REVIEW_NUMSTAT_END GENTLE_AI_REVIEW_PATCH <index> <path> <- one block per manifest
 * entry, unified diff body GENTLE_AI_REVIEW_PATCH_END GENTLE_AI_REVIEW_CONTEXT_END
 *
 * Both JSON lines are Go json.Marshal output (HTML-escaped, no spaces) with keys in Go field order
 * (internal/cli/review_lens_context.go reviewLensContextBlock, :459-472). The instruction is
 * reviewLensContextInstructionText (:542-559) with the lens mandate of reviewer_context_level.go.
 * A valid reviewer result for the prompt: subject_hash from the BINDING line, every NAME_STATUS path in
 * inspection.paths, and at least one concrete evidence string (see admission.ts).
 */
import { goMarshal } from "../../../go/go-json.ts";
import type { Identities } from "../../../state/identities.ts";
import type { Lens } from "../../../scenario/lineage-spec.ts";
import { capturePreflight } from "./capture-preflight.ts";
import { REVIEWER_RESULT_SCHEMA_TEXT } from "./reviewer-schema.ts";
import type { LensContextBinding } from "../../../contract/lens-context-binding.ts";

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

/** lensMandates (internal/reviewtransaction/reviewer_context_level.go:81): title and inspection focus per lens. */
const LENS_MANDATES: Readonly<Record<string, readonly [title: string, focus: string]>> = {
  "review-risk": [
    "R1 Risk",
    "Inspect security, authorization, data exposure or loss, unsafe input handling, secrets, and dependency vulnerabilities. Require backend enforcement and concrete exploit or scanner evidence; do not report hypothetical risk without a reachable impact.",
  ],
  "review-resilience": [
    "R4 Resilience",
    "Inspect failure handling, rollback or fix-forward behavior, retry safety, graceful degradation, observability, latency, and load. Require a concrete production failure mode or measured impact; do not report generic operational speculation.",
  ],
  "review-readability": [
    "R2 Readability",
    "Inspect maintainability defects that obscure behavior: misleading names, duplicated or dead logic, unexplained business constants, unsafe complexity, and missing change context. Report style only when it hides a concrete defect or makes the change unsafe to maintain.",
  ],
  "review-reliability": [
    "R3 Reliability",
    "Inspect behavior, tests, boundaries, invalid inputs, failure paths, determinism, and regressions. Require externally observable assertions at the cheapest useful test level; report missing coverage only when it leaves candidate behavior unproved.",
  ],
};

/** reviewLensContextInstructionText: the reviewer's complete charge for one lens slot. */
export function instructionText(lens: Lens, paths: number, subjectHash: string): string {
  const [title, focus] = LENS_MANDATES[lens] ?? ["", ""];
  return [
    `You are the ${title} lens of one bounded Gentle AI review. ${focus}`,
    "",
    `Scope. The GENTLE_AI_REVIEW_PATCH sections below are the complete and only view of this candidate: all ${paths} changed paths are present in full, in the canonical manifest order carried by GENTLE_AI_REVIEW_CONTEXT. Do not read the working tree, the index, HEAD, or any other file, and do not run any command. Nothing outside these sections is part of this candidate, and anything you cannot see here is not evidence.`,
    "",
    "Causality. Report only what this candidate caused. Give every BLOCKER or CRITICAL finding an evidence_class and a causal_disposition, and mark what the base already contained as pre-existing or base-only rather than as a blocker.",
    "",
    `Return. Emit exactly one JSON object and nothing else: no prose before or after it, no markdown fence, no task envelope. It must validate against the schema in GENTLE_AI_REVIEW_RESULT_SCHEMA. Set subject_hash to exactly ${subjectHash}. Set inspection.status to "completed" and inspection.paths to the complete unique unordered set of every manifest path. Each finding location is one path:line or path:start-end inclusive span. findings and evidence must both be present, and evidence must be non-empty.`,
    "",
    "Citations. Every finding location, and every path cited inside an evidence string or a proof_refs entry, must be a repository-relative path exactly as it appears in the changed-path manifest, optionally with :line or :start-end. Never cite absolute paths, bare file basenames without their directory, or non-path colon-number shapes such as host:port. Any token shaped like path:line is validated against the frozen repository, and one unknown path rejects the entire result. A finding whose causal_disposition is introduced, behavior-activated, or worsened must anchor its location entirely within lines this candidate changed: every line of a path:start-end span is validated as candidate-changed, one unchanged context line in the span rejects the entire result, and observations about unchanged code belong under pre-existing or base-only instead. When the candidate's own content contains a path-shaped literal that is not a real repository path (for example a traversal or fixture token inside a test), never reproduce that token in evidence or proof_refs: describe it in words and cite the manifest file and line that contain it.",
    "",
    "Honesty. If you could not inspect the candidate, say so in evidence and do not return a clean result: an access failure is not a completed inspection, and reporting one as clean is the single outcome this review cannot recover from.",
  ].join("\n");
}

function block(header: string, body: string, end = header + "_END"): string {
  return `${header}\n${body.trim()}\n${end}\n`;
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
  } satisfies LensContextBinding);
  // The repository root stays empty: a reviewer transcript never carries a provider path (review_lens_context.go:457).
  const context = goMarshal(capturePreflight(ids, { lens: b.lens, order: b.order, revision: b.revision }));
  const instruction = instructionText(b.lens, ids.manifest.length, b.subjectHash);
  let out = `GENTLE_AI_REVIEW_BINDING ${binding}\nGENTLE_AI_REVIEW_CONTEXT ${context}\n`;
  out += block("GENTLE_AI_REVIEW_INSTRUCTION", instruction);
  out += block("GENTLE_AI_REVIEW_RESULT_SCHEMA", REVIEWER_RESULT_SCHEMA_TEXT);
  out += block("GENTLE_AI_REVIEW_NAME_STATUS", ids.manifest.map((m) => `${m.status}\t${m.path}`).join("\n"));
  out += block(
    "GENTLE_AI_REVIEW_NUMSTAT",
    ids.manifest.map((m) => `${m.additions}\t${m.deletions}\t${m.path}`).join("\n"),
  );
  ids.manifest.forEach((m, i) => {
    out += block(`GENTLE_AI_REVIEW_PATCH ${i} ${m.path}`, ids.patch(m), "GENTLE_AI_REVIEW_PATCH_END");
  });
  return Buffer.from(out + "GENTLE_AI_REVIEW_CONTEXT_END\n", "utf8");
}
