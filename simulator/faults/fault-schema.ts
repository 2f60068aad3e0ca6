import * as z from "zod/mini";
import { BytesSpecSchema } from "../scenario/bytes-spec.ts";

const count = z.number().check(z.int(), z.nonnegative());

/** One injected misbehaviour of a simulated process. */
export const FaultSchema = z.discriminatedUnion("kind", [
  z.strictObject({ kind: z.literal("delay"), ms: count }),
  z.strictObject({ kind: z.literal("hang") }),
  z.strictObject({ kind: z.literal("exit-code"), code: z.number().check(z.int(), z.gte(0), z.lte(255)) }),
  z.strictObject({ kind: z.literal("stdout"), bytes: BytesSpecSchema }),
  z.strictObject({ kind: z.literal("stderr"), bytes: BytesSpecSchema }),
  z.strictObject({ kind: z.literal("partial-then-hang"), bytes: count }),
  z.strictObject({ kind: z.literal("crash-mid-write"), bytes: count }),
  z.strictObject({ kind: z.literal("signal"), signal: z.enum(["SIGKILL", "SIGTERM", "SIGSEGV", "SIGABRT", "SIGINT", "SIGHUP"]) }),
  z.strictObject({ kind: z.literal("empty-output") }),
  z.strictObject({ kind: z.literal("oversized-output"), bytes: count }),
  z.strictObject({ kind: z.literal("slow-drip"), chunkBytes: z.number().check(z.int(), z.positive()), intervalMs: count }),
]);
export type Fault = z.infer<typeof FaultSchema>;

/** Which invocations a fault applies to: program, optional verb and capture leg, and 1-based call indexes. */
export const FaultRuleSchema = z.strictObject({
  program: z.enum(["gentle-ai", "pi"]),
  verb: z.optional(z.string().check(z.minLength(1))),
  leg: z.optional(z.enum(["materialize", "submit"])),
  calls: z.optional(z.union([z.literal("every"), z.array(z.number().check(z.int(), z.positive())).check(z.minLength(1))])),
  fault: FaultSchema,
});
export type FaultRule = z.infer<typeof FaultRuleSchema>;
