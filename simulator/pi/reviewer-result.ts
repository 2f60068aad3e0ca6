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

/** What the fake pi reports: no findings, or one SUGGESTION. */
export type SimFindings = "none" | "suggestion";

// findingIDPrefixByLens in gentle-ai (internal/reviewtransaction/reviewer_envelope.go): bound to the lens.
const ID_PREFIX: Readonly<Record<string, string>> = {
  "review-risk": "R1-",
  "review-readability": "R2-",
  "review-reliability": "R3-",
  "review-resilience": "R4-",
};

/**
 * A reviewer/v1 result for a binding that gentle-ai's admission accepts (internal/reviewerprovider/contract.go
 * LensResultSchema, internal/cli/review_provider.go reviewProviderAdmitRaw): subject_hash and lens echoed,
 * inspection.paths = every changed path, `evidence` one concrete string that cites no unknown path:line, and for
 * `suggestion` one SUGGESTION whose lens-bound ID, location and proof reference name the first changed path's line 1.
 */
export function reviewerResultDocument(b: PromptBinding, findings: SimFindings = "none"): Record<string, unknown> {
  const first = b.paths[0];
  // A citation is split at whitespace unless quoted, so a path with spaces is cited in backticks.
  const cite = (path: string) => (/\s/.test(path) ? `\`${path}:1\`` : `${path}:1`);
  const lensText = b.lens === null ? "the selected lens" : `the ${b.lens} lens`;
  const scope = `inspected all ${b.paths.length} changed paths of the frozen candidate through ${lensText}`;
  const cited = findings === "suggestion" ? first : undefined;
  const prefix = b.lens === null ? undefined : ID_PREFIX[b.lens];
  return {
    subject_hash: b.subjectHash,
    inspection: { status: "completed", paths: [...b.paths] },
    ...(b.lens === null ? {} : { lens: b.lens }),
    findings:
      cited !== undefined
        ? [
            {
              ...(prefix === undefined ? {} : { id: `${prefix}001` }),
              ...(b.lens === null ? {} : { lens: b.lens }),
              location: `${cited}:1`,
              severity: "SUGGESTION",
              claim: "Simulated reviewer suggestion.",
              proof_refs: [cite(cited)],
            },
          ]
        : [],
    evidence: [cited !== undefined ? `${scope}; one suggestion at ${cite(cited)}` : `${scope}; no defect found`],
  };
}

/** The fake pi's stdout for a binding: the result document as one JSON line. */
export function boundReviewerResultBytes(b: PromptBinding, findings: SimFindings = "none"): Buffer {
  return Buffer.from(`${JSON.stringify(reviewerResultDocument(b, findings))}\n`, "utf8");
}

/** A valid reviewer/v1 result bound to the prompt's binding line and NAME_STATUS block (see reviewerResultDocument). */
export function reviewerResultBytes(prompt: Buffer, findings: SimFindings = "none"): Buffer {
  return boundReviewerResultBytes(parsePromptBinding(prompt), findings);
}
