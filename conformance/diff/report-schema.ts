// The `diff --json` report: the single source of its format (schemas/diff-report.schema.json is generated from it).
import * as z from "zod/mini";
import { ProfileSchema } from "../../simulator/scenario/schema.ts";

export const DIFF_REPORT_SCHEMA_ID = "gentle-relay-conformance.diff/v1";

/** Bytes as a report shows them: UTF-8 text, or base64 when they are not UTF-8. */
export const ShownBytesSchema = z.union([z.strictObject({ text: z.string() }), z.strictObject({ base64: z.string() })]);

/** The first difference between the two sides in one scenario: where, the call that made it, and both sides' bytes. */
export const DivergenceSchema = z.strictObject({
  // 1-based phase of the script, and 1-based call of that phase in start order.
  phase: z.number().check(z.int(), z.positive()),
  index: z.number().check(z.int(), z.positive()),
  // `calls`: one side made more calls than the other (the first extra one is `call`).
  field: z.enum(["program", "argv", "handshake", "stdin", "files", "exit", "stdout", "stderr", "calls"]),
  // The first differing byte of that field (normalised).
  offset: z.number().check(z.int(), z.nonnegative()),
  // The call as the binary's side made it: argv, the environment delta (the handshake) and stdin, normalised.
  call: z.strictObject({
    program: z.enum(["gentle-ai", "pi"]),
    argv: z.array(z.string()),
    handshake: z.nullable(z.string()),
    stdin: ShownBytesSchema,
  }),
  binary: ShownBytesSchema,
  simulator: ShownBytesSchema,
});
export type Divergence = z.infer<typeof DivergenceSchema>;

/** One scenario's verdict. */
export const ScenarioVerdictSchema = z.strictObject({
  script: z.string(),
  id: z.string(),
  status: z.enum(["pass", "diverge", "skip", "error"]),
  // Calls the binary's side made (0 when skipped).
  calls: z.number().check(z.int(), z.nonnegative()),
  // Why a scenario was skipped, or the harness error.
  reason: z.optional(z.string()),
  // Every divergent call, in order (the first one is the scenario's minimal reproduction).
  divergences: z.array(DivergenceSchema),
});
export type ScenarioVerdict = z.infer<typeof ScenarioVerdictSchema>;

/** The whole differential run. */
export const DiffReportSchema = z.strictObject({
  schema: z.literal(DIFF_REPORT_SCHEMA_ID),
  binary: z.strictObject({ path: z.string(), version: z.string() }),
  profile: ProfileSchema,
  scenarios: z.array(ScenarioVerdictSchema),
  generated: z.optional(
    z.strictObject({
      runs: z.number().check(z.int(), z.nonnegative()),
      seed: z.number().check(z.int()),
      calls: z.number().check(z.int(), z.nonnegative()),
      // The shrunk counterexample, saved as a script that `diff --script` replays.
      counterexample: z.optional(z.string()),
      divergence: z.optional(DivergenceSchema),
    }),
  ),
  summary: z.strictObject({
    scenarios: z.number().check(z.int(), z.nonnegative()),
    passed: z.number().check(z.int(), z.nonnegative()),
    diverged: z.number().check(z.int(), z.nonnegative()),
    skipped: z.number().check(z.int(), z.nonnegative()),
    errors: z.number().check(z.int(), z.nonnegative()),
    calls: z.number().check(z.int(), z.nonnegative()),
  }),
});
export type DiffReport = z.infer<typeof DiffReportSchema>;
