// The zod mirror of the binding line a materialized prompt opens with (`GENTLE_AI_REVIEW_BINDING {…}`): gentle-ai's
// reviewLensContextBinding struct (internal/cli/review_lens_context.go:59-67 at fb55ef7b), in its field order. No
// JSON Schema is published for it.
import { z } from "zod";
import type { ProviderDocument } from "./provider-document.ts";

const SHA256 = z.string().regex(/^sha256:[0-9a-f]{64}$/);

/** The binding line's JSON object. */
export const LensContextBindingSchema = z.strictObject({
  lineage: z.string().min(1),
  target: SHA256,
  lens: z.enum(["review-risk", "review-resilience", "review-readability", "review-reliability"]),
  order: z.number().int().min(0),
  revision: SHA256,
  repository_context: z.string().regex(/^rctx1_[0-9a-f]{64}$/),
  subject_hash: SHA256,
});
export type LensContextBinding = z.infer<typeof LensContextBindingSchema>;

export const LENS_CONTEXT_BINDING_DOCUMENTS: readonly ProviderDocument[] = [
  {
    // The sweep names an embedded prompt line by its header.
    id: "prompt line GENTLE_AI_REVIEW_BINDING",
    upstream: undefined,
    schema: LensContextBindingSchema,
    stricter: ["the identity formats (sha256:, rctx1_) are pinned; Go's struct only says string"],
  },
];
