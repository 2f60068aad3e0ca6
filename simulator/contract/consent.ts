// The consent question a relay-declared negotiated START answers with (gentle-ai.review-integration.consent/v3),
// written from contracts/review-integration/v2/schemas/consent-v3.schema.json and cli/review_consent_contract.go.
import { z } from "zod";
import type { ProviderDocument } from "./provider-document.ts";
import { Sha256 } from "./status-formats.ts";
const INVOCATION =
  /^gentle-ai review start --contract gentle-ai\.review-integration\/v2 .+ --consent (granted|declined)$/;

/** One answer the question offers, with the exact runnable invocation that gives it. */
const Choice = <A extends "granted" | "declined">(answer: A) =>
  z.strictObject({
    answer: z.literal(answer),
    label: z.string().min(1),
    effect: z.string().min(1),
    invocation: z.string().regex(INVOCATION),
  });

/** consent/v3. */
export const ConsentV3Schema = z.strictObject({
  schema: z.literal("gentle-ai.review-integration.consent/v3"),
  contract: z.literal("gentle-ai.review-integration/v2"),
  operation: z.literal("review.start"),
  action: z.literal("consent_required"),
  agent: z.enum(["claude-code", "opencode", "codex", "pi"]),
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
  choices: z.tuple([Choice("granted"), Choice("declined")]),
  off_path: z.strictObject({ note: z.string().min(1), command: z.literal("gentle-ai review mode disable") }),
});
export type ConsentV3 = z.infer<typeof ConsentV3Schema>;

export const CONSENT_DOCUMENTS: readonly ProviderDocument[] = [
  {
    id: "gentle-ai.review-integration.consent/v3",
    upstream: "v2/schemas/consent-v3.schema.json",
    schema: ConsentV3Schema,
    stricter: [
      "each choice's invocation must end with --consent and its own answer (the schema's prefixItems only pin `answer`; Go renders `<stem> --consent <answer>`, review_consent_contract.go validateReviewConsentInvocations)",
    ],
  },
];
