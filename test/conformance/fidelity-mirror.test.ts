// CI has no gentle-ai checkout: every document the simulator prints, in every profile and shipped scenario, must
// parse with our zod mirror of gentle-ai's published schemas (the fidelity lane checks the mirror against upstream).
import { describe, expect, it } from "vitest";
import { checkFidelity } from "../../conformance/fidelity/fidelity.ts";
import { renderFidelityReport } from "../../conformance/fidelity/fidelity.ts";
import { PROVIDER_DOCUMENTS } from "../../simulator/contract/registry.ts";

/** Every nested `schema` string member of a document. */
function embeddedSchemas(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(embeddedSchemas);
  if (typeof value !== "object" || value === null) return [];
  return Object.entries(value).flatMap(([k, v]) => (k === "schema" && typeof v === "string" ? [v] : embeddedSchemas(v)));
}

describe("every simulator document parses with the provider mirror", () => {
  it("in every profile and shipped scenario", { timeout: 240_000 }, async () => {
    const documents: unknown[] = [];
    const report = await checkFidelity({ onDocument: (d) => documents.push(d.document) });
    const invalid = report.kinds.filter((k) => k.status === "invalid");
    expect(invalid.length, renderFidelityReport({ ...report, kinds: invalid })).toBe(0);
    // The sweep reaches every mirrored kind, printed or embedded in a printed document (a kind nobody prints would be
    // an untested mirror).
    const printed = new Set(report.kinds.map((k) => k.kind));
    for (const document of documents) for (const id of embeddedSchemas(document)) printed.add(id);
    expect(PROVIDER_DOCUMENTS.map((d) => d.id).filter((id) => !printed.has(id))).toEqual([]);
  });
});
