import * as z from "zod/mini";
import { ProfileSchema } from "../../simulator/scenario/schema.ts";

// One word of a script line after quote removal. `$NAME`/`${NAME}` expand at run time;
// a literal dollar (from single quotes) is stored as `$$`, so expansion is deferred and exact.
const Word = z.string();
const Line = z.number().check(z.int(), z.positive());

/**
 * `key=value`, `key~regex`, `key!=value`, `key>=n`, `key<=n`, or `key=@section` (the section's exact text, as `cmp`).
 */
export const CheckSchema = z.strictObject({
  key: z.string().check(z.regex(/^[A-Za-z][A-Za-z0-9_.:-]*$/)),
  op: z.enum(["=", "!=", "~", ">=", "<="]),
  value: Word,
  section: z.optional(z.string()),
});
export type Check = z.infer<typeof CheckSchema>;

/** An assertion line; it applies to the step right above it. */
export const AssertionSchema = z.discriminatedUnion("kind", [
  // `exit N`, or `! exit` for any non-zero exit: the provider answer's exit code.
  z.strictObject({
    kind: z.literal("exit"),
    line: Line,
    code: z.union([z.number().check(z.int()), z.literal("nonzero")]),
  }),
  // `stdout REGEX`, `! stderr REGEX`: regex on the provider answer; named groups become variables.
  z.strictObject({
    kind: z.literal("match"),
    line: Line,
    stream: z.enum(["stdout", "stderr"]),
    pattern: Word,
    negate: z.boolean(),
  }),
  // `cmp stderr SECTION`: the provider answer's stream equals the section's bytes exactly.
  z.strictObject({ kind: z.literal("cmp"), line: Line, stream: z.enum(["stdout", "stderr"]), section: z.string() }),
  // `expect kind=pi-timed-out mutationOutcome=none`: fields of the step's outcome.
  z.strictObject({ kind: z.literal("expect"), line: Line, checks: z.array(CheckSchema).check(z.minLength(1)) }),
  // `calls finalize=0 pi=0` (this step) or `calls phase capture-evidence=1` (whole phase): simulator calls.
  z.strictObject({
    kind: z.literal("calls"),
    line: Line,
    scope: z.enum(["step", "phase"]),
    checks: z.array(CheckSchema).check(z.minLength(1)),
  }),
]);
export type Assertion = z.infer<typeof AssertionSchema>;

export const STEP_COMMANDS = [
  "exec",
  "gentle-ai",
  "git",
  "relay",
  "status",
  "mode",
  "start",
  "validate",
  "transition",
  "collect",
  "role-vector",
  "correction-finalize",
  "capture-evidence",
  "finalize",
  "bound",
  "note",
  "env",
] as const;

/** One action line with the assertion lines below it. */
export const StepSchema = z.strictObject({
  line: Line,
  command: z.enum(STEP_COMMANDS),
  // Positional words (exec: program and argv; gentle-ai and git: argv; note: the text words).
  args: z.array(Word),
  // `key=value` options of relay/status/capture-evidence/finalize/bound.
  options: z.record(z.string(), Word),
  stdin: z.optional(z.string()),
  assertions: z.array(AssertionSchema),
});
export type Step = z.infer<typeof StepSchema>;

/** The simulator scenario of a phase: a section of this file or a path, plus dotted-path overrides. */
export const ScenarioRefSchema = z.strictObject({
  line: Line,
  source: z.union([z.strictObject({ section: z.string() }), z.strictObject({ path: z.string() })]),
  overrides: z.record(z.string(), z.unknown()),
  // The resolved scenario JSON (overrides applied), validated against the simulator's schema at parse time.
  resolved: z.record(z.string(), z.unknown()),
});
export type ScenarioRef = z.infer<typeof ScenarioRefSchema>;

/**
 * The repository a phase works in: `repo` builds $WORK as a Git repository from the file's `repo/…` sections
 * (committed with a pinned identity and date), then writes its `work/…` sections over it (the candidate change).
 */
export const RepoFixtureSchema = z.strictObject({
  line: Line,
  // Paths relative to $WORK: committed first, then written over the commit.
  committed: z.array(z.strictObject({ path: z.string(), section: z.string() })),
  changed: z.array(z.strictObject({ path: z.string(), section: z.string() })),
});
export type RepoFixture = z.infer<typeof RepoFixtureSchema>;

/** A fresh world (work tree, HOME, TMPDIR, provider state, transcript); steps run in order inside it. */
export const PhaseSchema = z.strictObject({
  line: Line,
  title: z.string(),
  // The simulator's seeded world; absent with a `repo`, where the repository decides (any binary can run it).
  scenario: z.optional(ScenarioRefSchema),
  repo: z.optional(RepoFixtureSchema),
  // The simulator profile of a repository phase (`profile 2.5.0`); the scenario's own profile otherwise.
  profile: z.optional(ProfileSchema),
  steps: z.array(StepSchema),
});
export type Phase = z.infer<typeof PhaseSchema>;

/** A parsed reproduction file: the single source of truth for the `.txtar` reproduction format. */
export const ReproductionSchema = z.strictObject({
  schema: z.literal("gentle-relay-conformance.repro/v1"),
  file: z.string(),
  id: z.string().check(z.regex(/^[a-z0-9][a-z0-9.-]*$/)),
  title: z.string().check(z.minLength(1)),
  issue: z.optional(z.string()),
  // The leading comment block, verbatim without `# `: the quoted report.
  summary: z.array(z.string()),
  phases: z.array(PhaseSchema).check(z.minLength(1)),
  sections: z.array(z.strictObject({ name: z.string(), text: z.string() })),
});
export type Reproduction = z.infer<typeof ReproductionSchema>;
