// The non-deciding delivery gate result VALIDATE prints (gentle-ai.review-gate-result/v1), written from
// contracts/review-integration/v2/schemas/gate-result.schema.json and cli/review_facade.go reviewUnmanagedGateResult.
import { z } from "zod";
import type { ProviderDocument } from "./provider-document.ts";

const Gate = z.enum(["post-apply", "pre-commit", "pre-push", "pre-pr", "release"]);

/** The unmanaged gate result: never an allow, never a veto; only the gate as context. */
export const UnmanagedGateResultSchema = z.strictObject({
  schema: z.literal("gentle-ai.review-gate-result/v1"),
  result: z.literal("invalidated"),
  allowed: z.literal(false),
  action: z.literal("repository-policy"),
  reason: z.string(),
  context: z.strictObject({ gate: Gate }),
  delivery: z.enum(["disabled/unmanaged", "unmanaged"]),
});
export type UnmanagedGateResult = z.infer<typeof UnmanagedGateResultSchema>;

export const GATE_RESULT_DOCUMENTS: readonly ProviderDocument[] = [
  {
    id: "gentle-ai.review-gate-result/v1",
    upstream: "v2/schemas/gate-result.schema.json",
    schema: UnmanagedGateResultSchema,
    stricter: [
      "only the unmanaged and disabled/unmanaged results: the receipt-governed gate results (allow, scope-changed, escalated, gate_context) are not printed by this simulator since the gates stopped deciding (review_facade.go runNonDecidingReviewGate)",
    ],
  },
];
