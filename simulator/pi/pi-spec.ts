import * as z from "zod/mini";
import { BytesSpecSchema } from "../scenario/bytes-spec.ts";

/** What the fake pi writes on stdout for a prompt. */
export const PiResultSchema = z.discriminatedUnion("kind", [
  // A valid reviewer result bound to the prompt's GENTLE_AI_REVIEW_BINDING subject hash.
  z.strictObject({ kind: z.literal("reviewer-result"), findings: z.optional(z.enum(["none", "suggestion"])) }),
  z.strictObject({ kind: z.literal("bytes"), bytes: BytesSpecSchema }),
  z.strictObject({ kind: z.literal("echo") }),
  // A transform of the bound reviewer result (default) or of the prompt bytes: reverse, ASCII upper-case, UTF-8 BOM prefix, CRLF suffix.
  z.strictObject({
    kind: z.literal("transform"),
    transform: z.enum(["reverse", "upper", "prefix-bom", "append-crlf"]),
    of: z._default(z.enum(["reviewer-result", "prompt"]), "reviewer-result"),
  }),
]);
export type PiResult = z.infer<typeof PiResultSchema>;

/** The fake pi's script: result bytes, optional stderr and exit code. */
export const PiSpecSchema = z.strictObject({
  result: z._default(PiResultSchema, { kind: "reviewer-result" }),
  stderr: z.optional(BytesSpecSchema),
  exitCode: z._default(z.number().check(z.int(), z.gte(0), z.lte(255)), 0),
});
export type PiSpec = z.infer<typeof PiSpecSchema>;
