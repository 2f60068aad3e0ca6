// Checks swept documents, grouped by kind, against a gentle-ai tree's published schemas or against our zod mirror.
import { providerDocument } from "../../simulator/contract/registry.ts";
import type { ContractsTree } from "./contracts-tree.ts";
import type { InvalidDocument, KindVerdict, SchemaIssue } from "./report-schema.ts";
import type { SweptDocument } from "./sweep.ts";

/** Validates one document against one judge; `note` says what it was checked against when no schema is published. */
type Validate = (
  kind: string,
  document: unknown,
) => { schema: string | null; issues?: readonly SchemaIssue[]; note?: string };

function zodPath(path: readonly PropertyKey[]): string {
  return (
    "$" +
    path
      .map((k) =>
        typeof k === "number"
          ? `[${k}]`
          : /^[A-Za-z_][A-Za-z0-9_]*$/.test(String(k))
            ? `.${String(k)}`
            : `[${JSON.stringify(String(k))}]`,
      )
      .join("")
  );
}

/** Our zod mirror as the judge (CI: no upstream checkout). */
export const againstMirror: Validate = (kind, document) => {
  const entry = providerDocument(kind);
  if (!entry)
    return { schema: null, issues: [{ path: "$", message: `no mirrored document kind ${JSON.stringify(kind)}` }] };
  const parsed = entry.schema.safeParse(document);
  return {
    schema: entry.upstream ?? null,
    issues: parsed.success ? [] : parsed.error.issues.map((i) => ({ path: zodPath(i.path), message: i.message })),
  };
};

/**
 * A gentle-ai tree's published schemas as the judge: a kind is checked against the schema whose `schema` constant
 * names it. A kind the tree does not publish fails, unless gentle-ai publishes no schema for it at all (the reviewer
 * result, the capture preflight): those are checked against our mirror, and the report says so.
 */
export function againstTree(tree: ContractsTree): Validate {
  return (kind, document) => {
    const entry = providerDocument(kind);
    const file = tree.fileFor(kind) ?? entry?.upstream;
    if (file !== undefined) {
      const issues = tree.validate(file, document);
      if (issues !== undefined) return { schema: file, issues };
      return {
        schema: file,
        issues: [{ path: "$", message: `this tree publishes no ${file}: published contract changed` }],
      };
    }
    if (entry !== undefined) {
      const mirror = againstMirror(kind, document);
      return {
        schema: null,
        note: "gentle-ai publishes no JSON Schema for it: checked against our mirror",
        ...(mirror.issues ? { issues: mirror.issues } : {}),
      };
    }
    return {
      schema: null,
      issues: [
        { path: "$", message: `neither this tree nor our mirror knows the document kind ${JSON.stringify(kind)}` },
      ],
    };
  };
}

/** Groups documents by kind (sorted) and validates each one. */
export function checkDocuments(documents: readonly SweptDocument[], validate: Validate): KindVerdict[] {
  const byKind = new Map<string, SweptDocument[]>();
  for (const d of documents) byKind.set(d.kind, [...(byKind.get(d.kind) ?? []), d]);
  return [...byKind.keys()].sort().map((kind) => {
    const docs = byKind.get(kind)!;
    let schema: string | null = null;
    let note: string | undefined;
    const invalid: InvalidDocument[] = [];
    for (const d of docs) {
      const result = validate(kind, d.document);
      schema = result.schema;
      note = result.note;
      if (result.issues && result.issues.length > 0)
        invalid.push({ scenario: d.scenario, profile: d.profile, call: d.call, issues: [...result.issues] });
    }
    const status = invalid.length > 0 ? "invalid" : "valid";
    return { kind, schema, status, documents: docs.length, invalid, ...(note === undefined ? {} : { note }) };
  });
}
