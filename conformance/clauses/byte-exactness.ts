// Byte-exactness by generation: forms, prompt bytes and result bytes reach the relay through the scenario and
// the request; every run is a full relay call whose transcript must show the bytes untouched.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import {
  FIXED_SLOT,
  onMaterialize,
  onVerb,
  SUBMIT_ACCEPTS_FAULTS,
  expectedSubmitArgv,
  stagedPathIn,
  text,
} from "./common.ts";
import { PI_ARGV } from "../contract/provider.ts";
import { HANDSHAKE_VALUE } from "../contract/provider.ts";
import { bytesEq, eq, fail, legs, need, nothingLaunched, relayError, resolved, stdinOf, stdoutOf } from "./expect.ts";
import { blobBytes } from "./transcript.ts";
import {
  ClauseFailure,
  HarnessError,
  HungFailure,
  type CaseDef,
  type CaseRun,
  type PropertyDef,
  type PropertyRunner,
} from "./types.ts";
import { hostileBytes, invalidForm, validForm, type GeneratedForm, type InvalidForm } from "./arbitraries.ts";

/** Classifies an operation token the way the simulator's fault matcher names verbs. */
const verbOf = (operationToken: string): string =>
  operationToken.startsWith("-") || operationToken === "help" ? "review" : operationToken;

/**
 * How many more runs a failing property may spend shrinking its counterexample. A count, not a time limit: a time
 * limit makes the verdict depend on the machine's speed, and fast-check's interruptAfterTimeLimit abandons the run in
 * flight (fast-check 4.11 SkipAfterProperty races the property against a timer), leaving its relay call running on the
 * lane while the next case starts.
 */
export const MAX_SHRINK_RUNS = 64;

/**
 * Runs fast-check with the runner's seed and run count; a failure becomes a ClauseFailure naming its replay file.
 * A run the harness could not carry out (HarnessError) is neither a failure nor shrunk: the property ends as the
 * harness's error, unless a genuine counterexample was already found.
 */
async function check<T>(
  id: string,
  arb: fc.Arbitrary<T>,
  encode: (v: T) => unknown,
  predicate: (v: T) => Promise<void>,
  runner: PropertyRunner,
  examples: T[] = [],
): Promise<void> {
  let harness: HarnessError | null = null;
  let shrinking = false;
  let shrinkRuns = 0;
  const guarded = async (value: T): Promise<void> => {
    // After a harness error, or once the shrink budget is spent, every further run passes at once: fast-check
    // then finishes with the smallest counterexample found so far.
    if (harness !== null || shrinkRuns >= MAX_SHRINK_RUNS) return;
    if (shrinking) shrinkRuns += 1;
    try {
      await predicate(value);
    } catch (error) {
      if (error instanceof HarnessError) {
        harness = error;
        return;
      }
      shrinking = true;
      // A hang is not shrunk: each smaller input would wait out the bound again, and the verdict is already fail.
      if (error instanceof HungFailure) shrinkRuns = MAX_SHRINK_RUNS;
      throw error;
    }
  };
  const details = await fc.check(fc.asyncProperty(arb, guarded), {
    numRuns: runner.runs,
    seed: runner.seed,
    ...(examples.length > 0 && runner.runs > 0 ? { examples: examples.map((e): [T] => [e]) } : {}),
  });
  if (!details.failed) {
    if (harness !== null) throw harness;
    return;
  }
  const value = details.counterexample?.[0] as T;
  const message =
    details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
  const file = runner.saveCounterexample({
    property: id,
    seed: details.seed,
    path: details.counterexamplePath ?? "",
    message,
    value: encode(value),
  });
  throw new ClauseFailure(
    `property ${id} failed (seed ${details.seed}, path ${JSON.stringify(details.counterexamplePath ?? "")}): ${message} — counterexample saved to ${file}; re-run with \`relay-conformance replay ${file}\``,
  );
}

// ---- generated submission forms ---------------------------------------------------------------------------------

function formCase(form: GeneratedForm): CaseDef {
  return {
    id: "property-form",
    scenario: () => ({
      faults: [
        onVerb(verbOf(form.operationToken), { kind: "stdout", bytes: text("accepted\n") }),
        onVerb(verbOf(form.operationToken), { kind: "stderr", bytes: text("") }),
        onVerb(verbOf(form.operationToken), { kind: "exit-code", code: 0 }),
      ],
    }),
    request: (ctx) => ({
      ...ctx.defaultRequest,
      submission: {
        operationToken: form.operationToken,
        argumentTokens: form.argumentTokens,
        values: [
          {
            slot: "reviewer_result",
            domain: "artifact_path_or_stdin",
            substitutionLocation: form.substitutionLocation,
          },
        ],
      },
    }),
  };
}

function assertForm(run: CaseRun, form: GeneratedForm): void {
  resolved(run);
  const l = legs(run);
  const m = need(l.materialize, "materialize");
  eq(m.argv, ["review", "capture-result", ...run.slot.captureArgumentTokens], "capture argv");
  const submit = need(l.submit, "submit");
  const token = submit.argv[2 + form.substitutionLocation] ?? "";
  const path = stagedPathIn(token, run.tmp);
  if (!path) fail(`no staged path in the location token ${JSON.stringify(token).slice(0, 200)}`);
  eq(
    submit.argv,
    expectedSubmitArgv(
      {
        operationToken: form.operationToken,
        argumentTokens: form.argumentTokens,
        values: [{ substitutionLocation: form.substitutionLocation }],
      },
      path,
    ),
    "submit argv",
  );
  eq(
    [m.handshake, need(l.pi, "pi").handshake, submit.handshake],
    [HANDSHAKE_VALUE, null, HANDSHAKE_VALUE],
    "handshake per leg (materialize, pi, submit)",
  );
  eq(need(l.pi, "pi").argv, [...PI_ARGV], "pi argv");
}

export const SUBMISSION_FORM_PROPERTY: PropertyDef = {
  id: "generated-submission-forms",
  run: (runner) =>
    check(
      "generated-submission-forms",
      validForm,
      (f) => f,
      async (form) => assertForm(await runner.runCase(formCase(form)), form),
      runner,
    ),
  replay: async (value, runner) =>
    assertForm(await runner.runCase(formCase(value as GeneratedForm)), value as GeneratedForm),
};

// ---- generated prompt and result bytes --------------------------------------------------------------------------

interface BytesInput {
  readonly prompt: Buffer;
  readonly result: Buffer;
}

function bytesCase(input: BytesInput): CaseDef {
  return {
    id: "property-bytes",
    scenario: (ctx) => {
      writeFileSync(join(ctx.sandbox.dir, "prompt.bin"), input.prompt);
      writeFileSync(join(ctx.sandbox.dir, "result.bin"), input.result);
      return {
        pi: { result: { kind: "bytes", bytes: { file: "result.bin" } } },
        faults: [onMaterialize({ kind: "stdout", bytes: { file: "prompt.bin" } }), ...SUBMIT_ACCEPTS_FAULTS],
      };
    },
  };
}

function assertBytes(run: CaseRun, input: BytesInput): void {
  const l = legs(run);
  bytesEq(stdoutOf(need(l.materialize, "materialize")), input.prompt, "materialized bytes (simulator self-check)");
  if (input.prompt.length === 0) {
    relayError(run, { kind: "empty-prompt", stage: "materialize", mutationOutcome: "none" });
    eq(run.transcript.length, 1, "processes after an empty prompt");
    return;
  }
  bytesEq(stdinOf(need(l.pi, "pi")), input.prompt, "pi stdin");
  if (input.result.length === 0) {
    relayError(run, { kind: "pi-empty-output", stage: "pi", mutationOutcome: "none" });
    eq(run.transcript.length, 2, "processes after empty pi output");
    return;
  }
  const submit = need(l.submit, "submit");
  const file = submit.files[0];
  if (!file) fail("the provider read no staged file");
  bytesEq(blobBytes(file), input.result, "submitted file bytes vs pi stdout");
  eq(
    resolved(run),
    { promptByteLength: input.prompt.length, resultByteLength: input.result.length, submission: "accepted\n" },
    "result",
  );
}

const bytesInput = fc.record({ prompt: hostileBytes, result: hostileBytes });
const encodeBytes = (v: BytesInput): unknown => ({
  prompt: v.prompt.toString("base64"),
  result: v.result.toString("base64"),
});
const decodeBytes = (v: unknown): BytesInput => {
  const r = v as { prompt: string; result: string };
  return { prompt: Buffer.from(r.prompt, "base64"), result: Buffer.from(r.result, "base64") };
};

/** Always one multi-MiB run: hostile bytes at both ends of a 2 MiB prompt and a 3 MiB + 1 result. */
function largeExample(): BytesInput {
  const prompt = Buffer.alloc(2 << 20, 0x41);
  Buffer.from([0xef, 0xbb, 0xbf, 0x0d, 0x0a, 0x00, 0xff]).copy(prompt, 0);
  const result = Buffer.alloc((3 << 20) + 1, 0x7a);
  Buffer.from([0xc3, 0x28, 0x0d, 0x0a]).copy(result, result.length - 4);
  return { prompt, result };
}

export const BYTES_PROPERTY: PropertyDef = {
  id: "generated-prompt-and-result-bytes",
  run: (runner) =>
    check(
      "generated-prompt-and-result-bytes",
      bytesInput,
      encodeBytes,
      async (input) => assertBytes(await runner.runCase(bytesCase(input)), input),
      runner,
      [largeExample()],
    ),
  replay: async (value, runner) => assertBytes(await runner.runCase(bytesCase(decodeBytes(value))), decodeBytes(value)),
};

// ---- generated invalid forms ------------------------------------------------------------------------------------

function invalidCase(input: InvalidForm): CaseDef {
  return {
    id: "property-invalid-form",
    noStatus: true,
    request: (ctx) => ({
      ...ctx.defaultRequest,
      captureArgumentTokens: [...FIXED_SLOT.captureArgumentTokens],
      submission: input.submission,
    }),
  };
}

function assertInvalid(run: CaseRun, input: InvalidForm): void {
  relayError(run, {
    kind: "submission-contract-mismatch",
    stage: "binding",
    message: input.message,
    mutationOutcome: "none",
  });
  nothingLaunched(run);
}

export const INVALID_FORM_PROPERTY: PropertyDef = {
  id: "generated-invalid-forms",
  run: (runner) =>
    check(
      "generated-invalid-forms",
      invalidForm,
      (v) => v,
      async (input) => assertInvalid(await runner.runCase(invalidCase(input)), input),
      runner,
    ),
  replay: async (value, runner) =>
    assertInvalid(await runner.runCase(invalidCase(value as InvalidForm)), value as InvalidForm),
};

export const PROPERTIES: readonly PropertyDef[] = [SUBMISSION_FORM_PROPERTY, BYTES_PROPERTY, INVALID_FORM_PROPERTY];
