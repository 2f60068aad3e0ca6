// The consent question a relay-declared negotiated START answers with: consent/v1 for a v1 client, consent/v3 for v2
// (gentle-ai.review-integration.consent/…), written from contracts/review-integration/v1/schemas/consent.schema.json,
// v2/schemas/consent-v3.schema.json and cli/review_consent_contract.go (newReviewIntegrationConsentResult).
import { z } from "zod";
import type { ProviderDocument } from "./provider-document.ts";
import { Sha256 } from "./status-formats.ts";

/** consent/v1's invocation pattern: any runnable START that ends with the answer. */
const V1_INVOCATION = /^gentle-ai review start .* --consent (granted|declined)$/;
/** consent/v3's: a START that names contract v2 first. */
const V3_INVOCATION =
  /^gentle-ai review start --contract gentle-ai\.review-integration\/v2 .+ --consent (granted|declined)$/;

/** One answer the question offers, with the exact runnable invocation that gives it. */
const Choice = <A extends "granted" | "declined">(answer: A, invocation: RegExp) =>
  z.strictObject({
    answer: z.literal(answer),
    label: z.string().min(1),
    effect: z.string().min(1),
    invocation: z.string().regex(invocation),
  });

/** The question both versions ask (v3 adds the runtime `agent` and pins its invocations to contract v2). */
const question = (invocation: RegExp) => ({
  operation: z.literal("review.start"),
  action: z.literal("consent_required"),
  blocking: z.literal(true),
  target_identity: Sha256,
  projection: z.enum(["workspace", "staged"]),
  risk_level: z.enum(["medium", "high"]),
  changed_files: z.number().int().min(0),
  changed_lines: z.number().int().min(0),
  headline: z.string().min(1),
  reason: z.string().min(1),
  value: z.string().min(1),
  risk_evidence: z.array(z.string().min(1)),
  choices: z.tuple([Choice("granted", invocation), Choice("declined", invocation)]),
  off_path: z.strictObject({ note: z.string().min(1), command: z.literal("gentle-ai review mode disable") }),
});

/** consent/v1. */
export const ConsentV1Schema = z.strictObject({
  schema: z.literal("gentle-ai.review-integration.consent/v1"),
  contract: z.literal("gentle-ai.review-integration/v1"),
  ...question(V1_INVOCATION),
});
export type ConsentV1 = z.infer<typeof ConsentV1Schema>;

/** consent/v3. */
export const ConsentV3Schema = z.strictObject({
  schema: z.literal("gentle-ai.review-integration.consent/v3"),
  contract: z.literal("gentle-ai.review-integration/v2"),
  agent: z.enum(["claude-code", "opencode", "codex", "pi"]),
  ...question(V3_INVOCATION),
});
export type ConsentV3 = z.infer<typeof ConsentV3Schema>;

/** What the two questions share: everything after their identity (schema, contract, operation, action, agent). */
export type ConsentQuestionBody = Omit<ConsentV1, "schema" | "contract" | "operation" | "action">;

export const CONSENT_DOCUMENTS: readonly ProviderDocument[] = [
  {
    id: "gentle-ai.review-integration.consent/v1",
    upstream: "v1/schemas/consent.schema.json",
    schema: ConsentV1Schema,
    stricter: [],
  },
  {
    id: "gentle-ai.review-integration.consent/v3",
    upstream: "v2/schemas/consent-v3.schema.json",
    schema: ConsentV3Schema,
    stricter: [
      "each choice's invocation must end with --consent and its own answer (the schema's prefixItems only pin `answer`; Go renders `<stem> --consent <answer>`, review_consent_contract.go validateReviewConsentInvocations)",
    ],
  },
];
