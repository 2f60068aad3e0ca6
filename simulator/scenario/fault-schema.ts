import * as z from "zod/mini";
import { BytesSpecSchema } from "./bytes-spec.ts";

const count = z.number().check(z.int(), z.nonnegative());
// One fault kind: a strict object discriminated by `kind`, with a description for the published JSON Schema.
const kind = <K extends string, S extends z.core.$ZodLooseShape>(k: K, description: string, shape: S) =>
  z.strictObject({ kind: z.literal(k), ...shape }).check(z.describe(description));

/**
 * One injected misbehaviour of a simulated process. Faults act after the verb ran (its state effects persist);
 * how several matching faults combine is documented in faults/apply.ts (planFaults).
 */
export const FaultSchema = z.discriminatedUnion("kind", [
  kind("delay", "Sleep ms before writing anything; several delays add up.", { ms: count }),
  kind("hang", "Write nothing and never exit (the caller must kill the process). Terminal.", {}),
  kind("exit-code", "Exit with this code instead of the verb's; the last one wins.", {
    code: z.number().check(z.int(), z.gte(0), z.lte(255)),
  }),
  kind("stdout", "Replace stdout with these bytes.", { bytes: BytesSpecSchema }),
  kind("stderr", "Replace stderr with these bytes; the last one wins.", { bytes: BytesSpecSchema }),
  kind("partial-then-hang", "Write the first N bytes of stdout, then hang without exiting. Terminal.", {
    bytes: count,
  }),
  kind(
    "crash-mid-write",
    "Write the first N bytes of stdout, then exit abruptly (code 2, or a non-zero exit-code fault's) without stderr. Terminal.",
    { bytes: count },
  ),
  kind("signal", "Write nothing and die by this signal (process.kill(process.pid, signal)). Terminal.", {
    signal: z.enum(["SIGKILL", "SIGTERM", "SIGSEGV", "SIGABRT", "SIGINT", "SIGHUP"]),
  }),
  kind("empty-output", "Empty stdout (stderr and exit code unchanged).", {}),
  kind("oversized-output", "Make stdout exactly N bytes: the output so far padded with spaces (or truncated).", {
    bytes: count,
  }),
  kind("slow-drip", "Write stdout and stderr in chunks of chunkBytes with intervalMs pauses; the last one wins.", {
    chunkBytes: z.number().check(z.int(), z.positive()),
    intervalMs: count,
  }),
  kind(
    "trap-sigterm",
    "Trap SIGTERM and ignore it, as real processes may, from the start of the call: only SIGKILL ends the process. Not terminal: pair it with hang or delay.",
    {},
  ),
]);
export type Fault = z.infer<typeof FaultSchema>;

/** Which invocations a fault applies to: program, optional verb and capture leg, and 1-based call indexes. */
export const FaultRuleSchema = z
  .strictObject({
    program: z.enum(["gentle-ai", "pi"]),
    verb: z.optional(
      z
        .string()
        .check(
          z.minLength(1),
          z.describe("gentle-ai only: `version`, `review` (help), or the review sub-command, e.g. `capture-result`."),
        ),
    ),
    leg: z.optional(
      z
        .enum(["materialize", "submit"])
        .check(
          z.describe(
            "materialize: argv has a --materialize[=…] token; submit: an --input[=…] token and no materialize.",
          ),
        ),
    ),
    calls: z.optional(
      z
        .union([z.literal("every"), z.array(z.number().check(z.int(), z.positive())).check(z.minLength(1))])
        .check(
          z.describe(
            "1-based indexes among calls with the same program, verb and leg (counted across processes per state dir); default every.",
          ),
        ),
    ),
    fault: FaultSchema,
  })
  .check(
    // A pi call has neither verb nor leg, so such a rule could never match: reject it rather than silently ignore it.
    z.refine((rule) => rule.program !== "pi" || rule.verb === undefined, {
      message: "pi calls have no verb",
      path: ["verb"],
    }),
    z.refine((rule) => rule.program !== "pi" || rule.leg === undefined, {
      message: "pi calls have no leg",
      path: ["leg"],
    }),
  );
export type FaultRule = z.infer<typeof FaultRuleSchema>;
