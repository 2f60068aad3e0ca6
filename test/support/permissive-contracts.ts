// A contracts/ tree as gentle-ai lays it out, written in the test (never copied from upstream): for each mirrored
// document kind, a schema that only pins its `schema` constant, plus whatever a test adds to break one kind.
import { PROVIDER_DOCUMENTS } from "../../simulator/contract/registry.ts";

/** `contracts/review-integration/<upstream path>` → schema bytes, for every mirrored kind not in `omit`. */
export function permissiveContracts(
  extra: Record<string, object> = {},
  omit: readonly string[] = [],
): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  for (const d of PROVIDER_DOCUMENTS) {
    if (d.upstream === undefined || omit.includes(d.id)) continue;
    const schema = {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      $id: `https://example.test/contracts/review-integration/${d.upstream}`,
      type: "object",
      required: ["schema"],
      properties: { schema: { const: d.id } },
      ...extra[d.id],
    };
    files.set(`contracts/review-integration/${d.upstream}`, Buffer.from(JSON.stringify(schema)));
  }
  return files;
}
