/** What the fake pi learns from a materialized prompt. */
export interface PromptBinding {
  /** `subject_hash` of the GENTLE_AI_REVIEW_BINDING line ("" when the prompt carries none). */
  readonly subjectHash: string;
  readonly lens: string | null;
  /** Changed paths from the GENTLE_AI_REVIEW_NAME_STATUS block, in prompt order. */
  readonly paths: readonly string[];
}

const BINDING_PREFIX = "GENTLE_AI_REVIEW_BINDING ";

/** Reads the binding line and the name-status block of a prompt; anything missing is left empty. */
export function parsePromptBinding(prompt: Buffer): PromptBinding {
  const text = prompt.toString("utf8");
  const firstEnd = text.indexOf("\n");
  const first = (firstEnd === -1 ? text : text.slice(0, firstEnd)).replace(/\r$/, "");
  let subjectHash = "";
  let lens: string | null = null;
  if (first.startsWith(BINDING_PREFIX)) {
    try {
      const binding: unknown = JSON.parse(first.slice(BINDING_PREFIX.length));
      if (binding && typeof binding === "object") {
        const b = binding as Record<string, unknown>;
        if (typeof b.subject_hash === "string") subjectHash = b.subject_hash;
        if (typeof b.lens === "string") lens = b.lens;
      }
    } catch {
      // An unparsable binding leaves the result unbound, which gentle-ai's admission then refuses.
    }
  }
  return { subjectHash, lens, paths: nameStatusPaths(text) };
}

/** Paths of `<status>\t<path>` (or `R100\t<old>\t<new>`: the new path) lines between the NAME_STATUS markers. */
function nameStatusPaths(text: string): string[] {
  const lines = text.split("\n").map((l) => l.replace(/\r$/, ""));
  const start = lines.indexOf("GENTLE_AI_REVIEW_NAME_STATUS");
  if (start === -1) return [];
  const paths: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (line === "GENTLE_AI_REVIEW_NAME_STATUS_END") break;
    if (line.trim() === "") continue;
    const fields = line.split("\t");
    const path = fields[fields.length - 1];
    if (fields.length >= 2 && path) paths.push(path);
  }
  return paths;
}

/**
 * A valid reviewer/v1 result bound to the prompt (the shape simulator/gentle-ai/verbs/admission.ts admits):
 * no findings, or one SUGGESTION on the first changed path whose proof_ref names the one evidence entry.
 */
export function reviewerResultBytes(prompt: Buffer, findings: "none" | "suggestion" = "none"): Buffer {
  const b = parsePromptBinding(prompt);
  const first = b.paths[0];
  const suggestion = findings === "suggestion";
  const result = {
    subject_hash: b.subjectHash,
    inspection: { status: "completed", paths: b.paths },
    ...(b.lens === null ? {} : { lens: b.lens }),
    findings: suggestion
      ? [
          {
            id: "F-001",
            ...(b.lens === null ? {} : { lens: b.lens }),
            location: `${first ?? "."}:1`,
            severity: "SUGGESTION",
            claim: "Simulated reviewer suggestion.",
            proof_refs: ["E-001"],
          },
        ]
      : [],
    evidence: suggestion ? [{ id: "E-001", ...(first === undefined ? {} : { path: first }), observation: "Simulated reviewer observation." }] : [],
  };
  return Buffer.from(`${JSON.stringify(result)}\n`, "utf8");
}
