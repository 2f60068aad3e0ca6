// The reviewer/v1 result schema gentle-ai embeds in every materialized prompt's GENTLE_AI_REVIEW_RESULT_SCHEMA block
// (internal/reviewerprovider/contract.go LensResultSchema, which `review schema reviewer` also serves). Written here
// as data and rendered in gentle-ai's layout: one top-level member per line, one `properties` member per line, every
// value inline with ", " and ": " separators. gentle-pi mirrors the same text as
// contracts/review-provider-contract-mirror/v1.1.0/bundle/schemas/lens.schema.json (a test compares them when
// GENTLE_PI_CHECKOUT is set).

type Json = null | boolean | number | string | readonly Json[] | { readonly [k: string]: Json };

const LENS_NAMES = [
  "risk",
  "resilience",
  "readability",
  "reliability",
  "review-risk",
  "review-resilience",
  "review-readability",
  "review-reliability",
];
// isConcreteEvidence's placeholder words, spelled case-insensitively for JSON Schema's ECMA-262 regexes.
const CONCRETE = {
  type: "string",
  pattern: "\\S",
  not: {
    pattern:
      "^\\s*(?:[nN]/[aA]|[nN][aA]|[nN][oO][nN][eE]|[tT][oO][dD][oO]|[tT][bB][dD]|[pP][aA][sS][sS]|[pP][aA][sS][sS][eE][dD]|[sS][uU][cC][cC][eE][sS][sS]|[pP][lL][aA][cC][eE][hH][oO][lL][dD][eE][rR])\\s*$",
  },
};

const PROPERTIES: { readonly [k: string]: Json } = {
  subject_hash: { type: "string", pattern: "^sha256:[0-9a-f]{64}$" },
  inspection: {
    type: "object",
    additionalProperties: false,
    required: ["status", "paths"],
    properties: {
      status: { const: "completed" },
      paths: {
        type: "array",
        description: "Complete unique unordered set of every changed_path_manifest.path.",
        uniqueItems: true,
        items: { type: "string", minLength: 1 },
      },
    },
  },
  lens: {
    type: "string",
    description: "Optional selected lens binding. Omission canonicalizes to the selected subject lens.",
    enum: LENS_NAMES,
  },
  findings: {
    type: "array",
    items: {
      type: "object",
      additionalProperties: false,
      required: ["location", "severity", "claim", "proof_refs"],
      allOf: [
        {
          if: { properties: { severity: { enum: ["BLOCKER", "CRITICAL"] } }, required: ["severity"] },
          then: { required: ["evidence_class", "causal_disposition"] },
        },
      ],
      properties: {
        id: {
          type: "string",
          pattern: "^R[1-4]-[A-Za-z0-9][A-Za-z0-9._-]*$",
          description:
            "Optional explicit ID; omit it to receive a native-assigned ID. When present it must carry the prefix bound to the selected lens, not the selection order: review-risk=R1-, review-readability=R2-, review-reliability=R3-, review-resilience=R4-.",
        },
        lens: { type: "string", enum: LENS_NAMES },
        location: {
          type: "string",
          description: "One canonical repository-relative path:line or inclusive path:start-end span.",
          pattern: "^.+:[1-9][0-9]*(?:-[1-9][0-9]*)?$",
        },
        severity: { type: "string", enum: ["BLOCKER", "CRITICAL", "WARNING", "SUGGESTION"] },
        claim: { type: "string", minLength: 1 },
        proof_refs: { type: "array", minItems: 1, items: CONCRETE },
        evidence_class: { type: "string", enum: ["deterministic", "inferential", "insufficient"] },
        causal_disposition: {
          type: "string",
          enum: ["introduced", "behavior-activated", "worsened", "pre-existing", "base-only", "unknown"],
        },
      },
    },
  },
  evidence: { type: "array", minItems: 1, items: CONCRETE },
};

const TOP: { readonly [k: string]: Json } = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  $id: "https://gentle-ai.dev/schema/review/reviewer/v1",
  title: "Gentle AI reviewer result",
  type: "object",
  additionalProperties: false,
  required: ["subject_hash", "inspection", "findings", "evidence"],
  properties: PROPERTIES,
  examples: [
    {
      subject_hash: "sha256:0000000000000000000000000000000000000000000000000000000000000000",
      inspection: { status: "completed", paths: ["internal/example.go"] },
      findings: [],
      evidence: ["reviewed the complete candidate scope"],
    },
  ],
};

function inline(v: Json): string {
  if (Array.isArray(v)) return `[${(v as readonly Json[]).map(inline).join(", ")}]`;
  if (v !== null && typeof v === "object") {
    return `{${Object.entries(v as { readonly [k: string]: Json })
      .map(([k, x]) => `${JSON.stringify(k)}: ${inline(x)}`)
      .join(", ")}}`;
  }
  return JSON.stringify(v);
}

function render(): string {
  const members = Object.entries(TOP).map(([k, v]) => {
    if (k !== "properties") return `  ${JSON.stringify(k)}: ${inline(v)}`;
    const props = Object.entries(v as { readonly [k: string]: Json }).map(
      ([p, x]) => `    ${JSON.stringify(p)}: ${inline(x)}`,
    );
    return `  ${JSON.stringify(k)}: {\n${props.join(",\n")}\n  }`;
  });
  return `{\n${members.join(",\n")}\n}`;
}

/** The reviewer/v1 schema text exactly as gentle-ai prints it (no trailing newline). */
export const REVIEWER_RESULT_SCHEMA_TEXT: string = render();

/** The schema's `$id`, which STATUS and the collect inputs name. */
export const REVIEWER_RESULT_SCHEMA_ID = "https://gentle-ai.dev/schema/review/reviewer/v1";
