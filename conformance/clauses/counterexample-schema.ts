// A shrunk property counterexample, saved when a property fails and re-run by `relay-conformance replay <file>`.
import * as z from "zod/mini";
import { ProfileSchema } from "../../simulator/scenario/schema.ts";

export const COUNTEREXAMPLE_SCHEMA_ID = "gentle-relay-conformance.counterexample/v1";

export const CounterexampleSchema = z.strictObject({
  schema: z.literal(COUNTEREXAMPLE_SCHEMA_ID),
  clause: z.string(),
  property: z.string(),
  profile: ProfileSchema,
  seed: z.number().check(z.int()),
  path: z.string(),
  relay: z.string(),
  message: z.string(),
  // The property's own input (form tokens, prompt/result bytes as base64…), decoded by the property on replay.
  value: z.unknown(),
});
export type Counterexample = z.infer<typeof CounterexampleSchema>;
