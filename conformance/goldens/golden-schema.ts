import * as z from "zod/mini";
import { ProfileSchema } from "../../simulator/scenario/schema.ts";

export const GOLDEN_SCHEMA_ID = "gentle-relay-conformance.golden/v2";

const hex64 = z.string().check(z.regex(/^[0-9a-f]{64}$/));
const count = z.number().check(z.int(), z.nonnegative());

/** Exact bytes after normalisation: digest, length and the content itself (base64). */
export const GoldenBlobSchema = z.strictObject({ sha256: hex64, length: count, base64: z.string() });
export type GoldenBlob = z.infer<typeof GoldenBlobSchema>;

/**
 * One step's outcome, as the script's `expect` lines read it, with durations replaced by `<MS>` and paths by
 * placeholders.
 */
export const GoldenOutcomeSchema = z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()]));
export type GoldenOutcome = z.infer<typeof GoldenOutcomeSchema>;

/** One process call, normalised: temp paths, pids, timings and timestamps removed or replaced by placeholders. */
export const GoldenCallSchema = z.strictObject({
  program: z.enum(["gentle-ai", "pi"]),
  // Made by the provider itself during another call (e.g. the pi a role vector runs), not by the host or relay:
  // the replayer answers the outer call from the golden, so nested calls are compared only in live runs.
  nested: z.optional(z.literal(true)),
  argv: z.array(z.string()),
  cwd: z.string(),
  cwdListing: z.optional(z.array(z.string())),
  handshake: z.nullable(z.string()),
  stdin: GoldenBlobSchema,
  files: z.array(z.strictObject({ path: z.string(), sha256: hex64, length: count, base64: z.string() })),
  stdout: GoldenBlobSchema,
  stderr: GoldenBlobSchema,
  exit: z.strictObject({ code: z.nullable(count), signal: z.nullable(z.string()), completed: z.boolean() }),
});
export type GoldenCall = z.infer<typeof GoldenCallSchema>;

/** A golden: the script that made it, where it was recorded, every call in order and every step's outcome. */
export const GoldenSchema = z.strictObject({
  $schema: z.optional(z.string()),
  schema: z.literal(GOLDEN_SCHEMA_ID),
  name: z.string().check(z.regex(/^[a-z0-9]+(?:-[a-z0-9.]+)*$/)),
  description: z.optional(z.string()),
  // The scenario script, relative to the golden's folder (golden/conversations/<name>.txtar).
  script: z.string(),
  source: z.strictObject({
    kind: z.enum(["simulator", "binary"]),
    // `gentle-ai version` stdout of the recorded binary, trailing newline removed.
    version: z.string(),
    // A binary's provenance as the recorder declared it (`record --commit`, `--build`): the source commit and how
    // it was built. The replayed simulator is checked against a binary golden in `profile`.
    commit: z.optional(z.string()),
    build: z.optional(z.string()),
  }),
  // The simulator profile the golden was recorded in (or, for a binary golden, the one that models that binary).
  profile: ProfileSchema,
  calls: z.array(GoldenCallSchema),
  outcomes: z.array(GoldenOutcomeSchema),
});
export type Golden = z.infer<typeof GoldenSchema>;
