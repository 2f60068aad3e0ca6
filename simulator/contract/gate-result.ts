// The delivery gate result VALIDATE prints (gentle-ai.review-gate-result/v1), written from
// contracts/review-integration/v2/schemas/gate-result.schema.json, cli/review_facade.go reviewUnmanagedGateResult
// (fb55ef7b, the non-deciding gate) and cli/review.go ReviewValidateResult with receipt.go GateContext (301fb2ad, the
// gate that decides).
import { z } from "zod";
import type { ProviderDocument } from "./provider-document.ts";

const Gate = z.enum(["post-apply", "pre-commit", "pre-push", "pre-pr", "release"]);
const Sha256 = z.string().regex(/^sha256:[0-9a-f]{64}$/);
const MaybeSha256 = z.string().regex(/^$|^sha256:[0-9a-f]{64}$/);
const MaybeGitObject = z.string().regex(/^$|^[0-9a-f]{40}([0-9a-f]{24})?$/);

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

/** GateContext (receipt.go:147) as the deciding gate prints it: the receipt binding, empty where nothing governs. */
export const GateContextSchema = z.strictObject({
  gate: Gate,
  lineage_id: z.string().max(128),
  generation: z.number().int().min(0),
  store_revision: Sha256.optional(),
  genesis_revision: Sha256.optional(),
  chain_identity: Sha256.optional(),
  bundle_digest: Sha256.optional(),
  base_tree: MaybeGitObject,
  candidate_tree: MaybeGitObject,
  paths_digest: MaybeSha256,
  fix_delta_hash: MaybeSha256,
  policy_hash: MaybeSha256,
  ledger_hash: MaybeSha256,
  evidence_hash: MaybeSha256,
  base_relationship_valid: z.boolean(),
  denial: z.strictObject({ stage: z.string().min(1), code: z.string().min(1) }).optional(),
});
export type GateContext = z.infer<typeof GateContextSchema>;

/** The result of the gate that decides (301fb2ad): an allow, a denial, or the disabled/unmanaged report. */
export const DecidedGateResultSchema = z
  .strictObject({
    schema: z.literal("gentle-ai.review-gate-result/v1"),
    result: z.enum(["allow", "invalidated"]),
    allowed: z.boolean(),
    action: z.enum(["continue", "explicit-maintainer-action", "repository-policy"]),
    reason: z.string(),
    context: GateContextSchema,
    delivery: z.literal("disabled/unmanaged").optional(),
  })
  .refine((r) => r.allowed === (r.result === "allow"), { message: "allowed is true exactly for an allow" });
export type DecidedGateResult = z.infer<typeof DecidedGateResultSchema>;

/** Either gate result, by profile. */
export const GateResultSchema = z.union([UnmanagedGateResultSchema, DecidedGateResultSchema]);

export const GATE_RESULT_DOCUMENTS: readonly ProviderDocument[] = [
  {
    id: "gentle-ai.review-gate-result/v1",
    upstream: "v2/schemas/gate-result.schema.json",
    schema: GateResultSchema,
    stricter: [
      "fb55ef7b: only the unmanaged and disabled/unmanaged results (review_facade.go runNonDecidingReviewGate)",
      "301fb2ad: only allow and invalidated results with the receipt binding context (no scope-changed, escalated, relation or next: the simulator does not reach them)",
    ],
  },
];
