import * as z from "zod/mini";
import { FaultSchema } from "../scenario/fault-schema.ts";

const hex64 = z.string().check(z.regex(/^[0-9a-f]{64}$/));
const count = z.number().check(z.int(), z.nonnegative());

/** Binary-safe bytes: digest and length always; content as base64 unless over the inline cap. */
export const BlobSchema = z.strictObject({
  sha256: hex64,
  length: count,
  base64: z.optional(z.string()),
});
export type Blob = z.infer<typeof BlobSchema>;

/** One simulated process invocation, one JSON line in the transcript file. */
export const TranscriptEntrySchema = z.strictObject({
  schema: z.literal("gentle-relay-conformance.transcript/v1"),
  program: z.enum(["gentle-ai", "pi"]),
  pid: count,
  argv: z.array(z.string()),
  cwd: z.string(),
  // pi only: names in its cwd at start, to prove the scratch directory was empty.
  cwdListing: z.optional(z.array(z.string())),
  // Value of GENTLE_PI_REVIEW_RELAY_CONTRACT, or null when unset; no other environment value is ever recorded.
  handshake: z.nullable(z.string()),
  verb: z.optional(z.string()),
  leg: z.optional(z.enum(["materialize", "submit"])),
  callIndex: count,
  faults: z.array(FaultSchema),
  stdin: BlobSchema,
  // false: the program never read stdin (gentle-ai reads it only for a `-` input), so `stdin` is empty by construction.
  stdinRead: z.optional(z.boolean()),
  files: z.array(z.strictObject({ path: z.string(), sha256: hex64, length: count, base64: z.optional(z.string()) })),
  stdout: BlobSchema,
  stderr: BlobSchema,
  // completed=false: the process was still running (hang) or died mid-write when this line was written.
  exit: z.strictObject({ code: z.nullable(count), signal: z.nullable(z.string()), completed: z.boolean() }),
  timing: z.strictObject({ startedAt: z.string(), durationMs: z.number().check(z.nonnegative()) }),
});
export type TranscriptEntry = z.infer<typeof TranscriptEntrySchema>;
