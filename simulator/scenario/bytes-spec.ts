import * as z from "zod/mini";

/** Bytes given in a scenario: UTF-8 text, base64, or a file path (resolved against the scenario file's folder). */
export const BytesSpecSchema = z.union([
  z.strictObject({ text: z.string() }),
  z.strictObject({ base64: z.string().check(z.regex(/^[A-Za-z0-9+/]*={0,2}$/, "must be standard base64")) }),
  z.strictObject({ file: z.string().check(z.minLength(1)) }),
]);
export type BytesSpec = z.infer<typeof BytesSpecSchema>;
