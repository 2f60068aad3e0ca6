// review mode's JSON result (gentle-ai.review-mode/v1 around gentle-ai.rdd-mode-status/v1), written from
// cli/review_mode.go ReviewModeResult and reviewtransaction/rdd_mode.go RDDModeStatus; gentle-ai publishes no schema.
import { z } from "zod";
import type { ProviderDocument } from "./provider-document.ts";
import { Sha256 } from "./status-formats.ts";

const Mode = z.enum(["", "on", "off"]);

/** RDDModeStatus. */
export const ModeStatusSchema = z.strictObject({
  schema: z.literal("gentle-ai.rdd-mode-status/v1"),
  global: Mode,
  clone_local: z.enum(["", "off"]),
  effective: z.enum(["on", "off"]),
  // Empty in applyReviewMode's zero status: a clone write that failed before it read a revision.
  source: z.enum(["", "default", "global", "clone_local"]),
  revision: z.optional(Sha256),
  reach: z.optional(z.enum(["machine", "this_build"])),
});

/** ReviewModeResult. */
export const ReviewModeSchema = z.strictObject({
  schema: z.literal("gentle-ai.review-mode/v1"),
  operation: z.enum(["enable", "disable", "status"]),
  scope: z.enum(["global", "clone", "both"]),
  status: ModeStatusSchema,
});
export type ReviewModeResult = z.infer<typeof ReviewModeSchema>;

export const REVIEW_MODE_DOCUMENTS: readonly ProviderDocument[] = [
  {
    id: "gentle-ai.review-mode/v1",
    upstream: undefined,
    schema: ReviewModeSchema,
    stricter: [
      "clone_local is only ever unset or off: the override is off-only (rdd_mode.go cloneLocalRDDOverrideValue)",
    ],
  },
];
