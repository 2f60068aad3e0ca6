// The zod mirror of gentle-ai's published review documents: one entry per document kind, written from the facts of
// gentle-ai's JSON Schemas (contracts/review-integration) and Go source, never copied from them. The simulator's
// builders type their output with these schemas (type-only imports, so no zod on the start-up path); the test suite
// parses every document the simulator prints with them; `relay-conformance fidelity` checks the same documents
// against the schemas a gentle-ai tree publishes.
import type { z } from "zod";

/** One provider document kind: its `schema` identifier, where gentle-ai publishes its JSON Schema, and our mirror. */
export interface ProviderDocument {
  /** The document's `schema` member, e.g. `gentle-ai.review-integration.status/v5`; a descriptive name for the few
   * documents that carry none (the reviewer result, the capture preflight). */
  readonly id: string;
  /** The published JSON Schema, relative to `contracts/review-integration/` in a gentle-ai tree (undefined: none). */
  readonly upstream: string | undefined;
  /** Our mirror of that schema. */
  readonly schema: z.ZodType;
  /** Where the mirror is deliberately stricter than the published schema, and why (empty: it is not). */
  readonly stricter: readonly string[];
}
