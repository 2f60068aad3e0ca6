import * as z from "zod/mini";
import { BytesSpecSchema } from "./bytes-spec.ts";

/** What the fake pi writes on stdout for a prompt. */
export const PiResultSchema = z.discriminatedUnion("kind", [
  z
    .strictObject({ kind: z.literal("reviewer-result"), findings: z.optional(z.enum(["none", "suggestion"])) })
    .check(
      z.describe(
        "A reviewer/v1 result gentle-ai admits for the prompt: subject_hash and lens from its GENTLE_AI_REVIEW_BINDING line, inspection.paths from its GENTLE_AI_REVIEW_NAME_STATUS block, one concrete evidence string; findings none (default) or one SUGGESTION on line 1 of the first changed path.",
      ),
    ),
  z.strictObject({ kind: z.literal("bytes"), bytes: BytesSpecSchema }).check(z.describe("Exactly these bytes.")),
  z.strictObject({ kind: z.literal("echo") }).check(z.describe("The prompt bytes back, unchanged.")),
  z
    .strictObject({
      kind: z.literal("transform"),
      transform: z.enum(["reverse", "upper", "prefix-bom", "append-crlf"]),
      of: z._default(z.enum(["reviewer-result", "prompt"]), "reviewer-result"),
    })
    .check(
      z.describe(
        "A transform of the bound reviewer result (default) or of the prompt: byte reverse, ASCII upper-case, UTF-8 BOM prefix, or a CRLF suffix.",
      ),
    ),
]);
export type PiResult = z.infer<typeof PiResultSchema>;

/** The fake pi's script: result bytes, optional stderr and exit code. */
export const PiSpecSchema = z.strictObject({
  result: z._default(PiResultSchema, { kind: "reviewer-result" }),
  stderr: z.optional(BytesSpecSchema),
  exitCode: z._default(z.number().check(z.int(), z.gte(0), z.lte(255)), 0),
});
export type PiSpec = z.infer<typeof PiSpecSchema>;
