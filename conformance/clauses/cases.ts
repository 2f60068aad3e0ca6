// Every case of the catalogue: one scenario plus one relay call. Clauses attach assertions to them by reference,
// so a case that proves several MUSTs runs once per profile.
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { ScenarioInput } from "../../simulator/scenario/schema.ts";
import { readTranscript } from "./transcript.ts";
import { plantUnremovableChain, removeUnremovableChain } from "./sabotage.ts";
import { runProgram } from "../process/run-child.ts";
import { HANDSHAKE_VALUE as STATUS_HANDSHAKE } from "../contract/provider.ts";
import {
  base64,
  defineCase,
  DEV_BINARY_ENV,
  HANDSHAKE_REFUSAL_V240,
  HANDSHAKE_REFUSAL_V250,
  onMaterialize,
  onPi,
  onSubmit,
  PI_TIMEOUT_ENV,
  PRE_RELAY,
  RELAY_PROFILES,
  SCRATCH_PREFIX,
  STAGING_PREFIX,
  SUBMIT_ACCEPTS_FAULTS,
  text,
} from "./common.ts";
import { HANDSHAKE_ENV } from "../contract/provider.ts";
import type { CaseDef, RequestContext } from "./types.ts";

type Faults = NonNullable<ScenarioInput["faults"]>;
const withFaults =
  (faults: Readonly<Faults>, extra: Omit<ScenarioInput, "profile" | "faults"> = {}) =>
  () => ({ ...extra, faults: [...faults] });
const relay = { profiles: RELAY_PROFILES } as const;
const agnostic = { profiles: RELAY_PROFILES, agnostic: true } as const;

// ---- the plain path -------------------------------------------------------------------------------------------

/** A faithful provider, a valid reviewer result: the whole slot succeeds. */
export const HAPPY = defineCase({ id: "happy-path", ...relay });

/** The user's own environment already carries a (wrong) handshake value. */
export const INHERITED_HANDSHAKE = defineCase({
  id: "inherited-handshake",
  ...relay,
  request: (ctx) => ({
    ...ctx.defaultRequest,
    environment: { ...ctx.env, [HANDSHAKE_ENV]: "gentle-pi.review-relay/v0" },
  }),
});

/** targetCwd omitted: both gentle-ai legs must run in process.cwd(), which is then the repo. */
export const DEFAULT_CWD = defineCase({
  id: "default-target-cwd",
  ...relay,
  relayInTarget: true,
  request: (ctx) => {
    const { targetCwd: _omit, ...rest } = ctx.defaultRequest;
    return rest;
  },
});

/**
 * No gentleAiExecutable: the dev-binary override names the simulator. gentle-pi reads it from its process env, the
 * clean room from request.environment (falling back to the process env): both carry it, so the case pins the
 * resolution, not where it is read from.
 */
export const DEV_BINARY_OVERRIDE = defineCase({
  id: "dev-binary-override",
  ...agnostic,
  request: (ctx) => {
    const { gentleAiExecutable: _omit, ...rest } = ctx.defaultRequest;
    return { ...rest, environment: { ...ctx.env, [DEV_BINARY_ENV]: ctx.gentleAi } };
  },
  processEnv: (ctx) => ({ ...ctx.env, [DEV_BINARY_ENV]: ctx.gentleAi }),
});

/** Forces the submit leg to succeed whatever the provider decided (for bytes the provider would refuse). */

/** Prompt bytes full of what transcoding breaks: BOM, CRLF, NUL, invalid UTF-8, a lone surrogate encoding. */
export const TRICKY_BYTES = Buffer.from([
  0xef, 0xbb, 0xbf, 0x41, 0x0d, 0x0a, 0x00, 0xff, 0xfe, 0xc3, 0x28, 0xed, 0xa0, 0x80, 0x0a, 0x20, 0x0d,
]);
export const TRICKY_PROMPT = defineCase({
  id: "tricky-prompt-bytes",
  ...relay,
  scenario: () => ({
    pi: { result: { kind: "echo" } },
    faults: [onMaterialize({ kind: "stdout", bytes: base64(TRICKY_BYTES) }), ...SUBMIT_ACCEPTS_FAULTS],
  }),
});

/** pi answers bytes that a decoder or trimmer would alter; the submit leg is forced to succeed. */
export const TRICKY_RESULT_BYTES = Buffer.concat([
  Buffer.from([0xef, 0xbb, 0xbf]),
  Buffer.from('{"x":1}\r\n\u0000', "utf8"),
  Buffer.from([0xff, 0x80]),
  Buffer.from("  \n\n"),
]);
export const TRICKY_RESULT = defineCase({
  id: "tricky-result-bytes",
  ...relay,
  scenario: withFaults(SUBMIT_ACCEPTS_FAULTS, {
    pi: { result: { kind: "bytes", bytes: base64(TRICKY_RESULT_BYTES) } },
  }),
});

/** The submit leg writes its stdout in many small chunks: the relay must return all of them, joined. */
export const SUBMIT_STDOUT_CHUNKED = defineCase({
  id: "submit-stdout-chunked",
  ...relay,
  scenario: withFaults([onSubmit({ kind: "slow-drip", chunkBytes: 64, intervalMs: 10 })]),
});

/** pi writes noise on stderr and still succeeds: stderr is dropped, stdout relayed. */
export const PI_STDERR_NOISE = defineCase({
  id: "pi-stderr-noise",
  ...relay,
  scenario: () => ({ pi: { stderr: text("warning: noisy reviewer\n") } }),
});

/** Submit stdout that is not valid UTF-8 and not JSON: the result's submission is its UTF-8 decoding, unparsed. */
export const OPAQUE_SUBMIT_STDOUT = Buffer.from([0x6f, 0x6b, 0x20, 0xff, 0xc3, 0x28, 0x0a]);
export const OPAQUE_SUBMISSION = defineCase({
  id: "opaque-submit-stdout",
  ...agnostic,
  scenario: withFaults([
    onSubmit({ kind: "stdout", bytes: base64(OPAQUE_SUBMIT_STDOUT) }),
    onSubmit({ kind: "exit-code", code: 0 }),
  ]),
});

/** Materialize succeeds with stderr noise: stderr is ignored on success. */
export const MATERIALIZE_STDERR_NOISE = defineCase({
  id: "materialize-stderr-noise",
  ...agnostic,
  scenario: withFaults([onMaterialize({ kind: "stderr", bytes: text("warning: unrelated\n") })]),
});

/** A form whose other tokens carry decoy {{value}} slots and whose location token carries two. */
export const DECOY_FORM = defineCase({
  id: "decoy-placeholders",
  ...relay,
  scenario: withFaults(SUBMIT_ACCEPTS_FAULTS),
  request: (ctx) => {
    const form = ctx.slot.submission;
    if (!form) throw new Error("STATUS slot carries no submission");
    const loc = form.values[0]?.substitutionLocation ?? 0;
    const tokens = form.argumentTokens.map((t, i) =>
      i === loc ? "--input={{value}}#{{value}}" : i === 0 ? `${t}{{value}}` : t,
    );
    return { ...ctx.defaultRequest, submission: { ...form, argumentTokens: [...tokens, "--decoy={{value}}"] } };
  },
});

// ---- pre-relay provider ---------------------------------------------------------------------------------------

/** gentle-ai 2.3.0: `--agent` is undefined; the host still holds relay tokens. */
export const PRE_RELAY_UNKNOWN_FLAG = defineCase({ id: "pre-relay-unknown-flag", profiles: PRE_RELAY });

// ---- materialize refusals (faults on leg A) ---------------------------------------------------------------------

const refusal = (stderr: string, code = 1, stdout?: string): Faults => [
  onMaterialize({ kind: "stderr", bytes: text(stderr) }),
  onMaterialize({ kind: "exit-code", code }),
  onMaterialize({ kind: "stdout", bytes: text(stdout ?? "") }),
];
export const UNKNOWN_FLAG_AGENT = defineCase({
  id: "stderr-unknown-flag-agent",
  ...agnostic,
  scenario: withFaults(refusal("Error: flag provided but not defined: -agent [invalid_request]\n")),
});
export const UNKNOWN_FLAG_MATERIALIZE_DD = defineCase({
  id: "stderr-unknown-flag-materialize",
  ...agnostic,
  scenario: withFaults(refusal("flag provided but not defined: --materialize\n", 2)),
});
export const UNKNOWN_FLAG_WORD_BOUNDARY = defineCase({
  id: "stderr-unknown-flag-agents",
  ...agnostic,
  scenario: withFaults(refusal("Error: flag provided but not defined: -agents\n")),
});
export const UNKNOWN_FLAG_ON_STDOUT_ONLY = defineCase({
  id: "stdout-unknown-flag-only",
  ...agnostic,
  scenario: withFaults(
    refusal(
      "Error: something else\n",
      1,
      "flag provided but not defined: -agent\nUsage: gentle-ai review capture-result [flags]\n",
    ),
  ),
});
export const HANDSHAKE_V240 = defineCase({
  id: "stderr-handshake-v240",
  ...agnostic,
  scenario: withFaults(refusal(HANDSHAKE_REFUSAL_V240)),
});
export const HANDSHAKE_V250 = defineCase({
  id: "stderr-handshake-v250",
  ...agnostic,
  scenario: withFaults(refusal(HANDSHAKE_REFUSAL_V250)),
});
export const HANDSHAKE_CONTRACT_ONLY = defineCase({
  id: "stderr-handshake-contract-only",
  ...agnostic,
  scenario: withFaults(refusal("  needs gentle-pi.review-relay/v1\n\n", 1)),
});
export const HANDSHAKE_WRONG_CASE = defineCase({
  id: "stderr-handshake-wrong-case",
  ...agnostic,
  scenario: withFaults(refusal("Error: THE ACTIVE RUNTIME IS NOT ELIGIBLE FOR IMMUTABLE RECEIPT REVIEW\n")),
});
export const LACKS_TRANSPORT = defineCase({
  id: "stderr-lacks-transport",
  ...agnostic,
  scenario: withFaults(
    refusal(
      "Error: the active runtime lacks immutable receipt-review transport; exit receipt-driven review [invalid_request]\n",
    ),
  ),
});
export const BOTH_PATTERNS = defineCase({
  id: "stderr-unknown-flag-and-handshake",
  ...agnostic,
  scenario: withFaults(
    refusal("Error: flag provided but not defined: -materialize; not eligible for immutable receipt review\n"),
  ),
});
export const MATERIALIZE_EXIT_3 = defineCase({
  id: "materialize-exit-3",
  ...agnostic,
  scenario: withFaults(refusal("materialize exploded\n", 3)),
});
export const MATERIALIZE_SIGNAL = defineCase({
  id: "materialize-signal",
  ...agnostic,
  scenario: withFaults([onMaterialize({ kind: "signal", signal: "SIGKILL" })]),
});
export const EMPTY_PROMPT = defineCase({
  id: "empty-prompt",
  ...agnostic,
  scenario: withFaults([onMaterialize({ kind: "empty-output" })]),
});

/** A real provider refusal: the capture tokens' revision no longer matches ([capture_binding_mismatch]). */
export const STALE_CAPTURE_TOKENS = defineCase({
  id: "stale-capture-tokens",
  ...relay,
  request: (ctx) => ({
    ...ctx.defaultRequest,
    captureArgumentTokens: ctx.defaultRequest.captureArgumentTokens.map((t) =>
      t.startsWith("--expected-revision=sha256:") ? `--expected-revision=sha256:${"e".repeat(64)}` : t,
    ),
  }),
});

/** gentle-ai that cannot be spawned (absolute path to nothing). */
export const GENTLE_AI_MISSING = defineCase({
  id: "gentle-ai-missing",
  ...agnostic,
  request: (ctx) => ({ ...ctx.defaultRequest, gentleAiExecutable: join(ctx.sandbox.dir, "no-such-gentle-ai") }),
});

/** An absolute gentleAiExecutable holding a NUL byte: Node's spawn throws synchronously, before any process exists. */
export const GENTLE_AI_NUL_PATH = defineCase({
  id: "gentle-ai-nul-path",
  ...agnostic,
  request: (ctx) => ({ ...ctx.defaultRequest, gentleAiExecutable: join(ctx.sandbox.dir, "gentle\u0000ai") }),
});

/**
 * gentle-ai is gone by the time the submit leg starts: the request names a wrapper script in the sandbox, which the
 * harness removes while pi runs (pi is held 1.2 s so the removal lands first).
 */
export const GENTLE_AI_GONE_BEFORE_SUBMIT = defineCase({
  id: "gentle-ai-gone-before-submit",
  ...agnostic,
  scenario: withFaults([onPi({ kind: "delay", ms: 1200 })]),
  request: (ctx) => {
    const wrapper = join(ctx.sandbox.dir, "gentle-ai-wrapper");
    writeFileSync(wrapper, `#!/bin/sh\nexec ${JSON.stringify(ctx.gentleAi)} "$@"\n`, { mode: 0o755 });
    return { ...ctx.defaultRequest, gentleAiExecutable: wrapper };
  },
  during: (ctx) => ({ prefix: SCRATCH_PREFIX, act: () => rmSync(join(ctx.sandbox.dir, "gentle-ai-wrapper")) }),
});

/** Bounds of 0 for every leg: no timer at all, so the slot completes (pi is held briefly, past a 0 ms timer). */
export const ZERO_BOUNDS = defineCase({
  id: "zero-bounds",
  ...agnostic,
  scenario: withFaults([onPi({ kind: "delay", ms: 200 })]),
  request: (ctx) => ({ ...ctx.defaultRequest, gentleAiTimeoutMs: 0, piTimeoutMs: 0 }),
});

/** Materialize hangs past a small gentleAiTimeoutMs. */
export const MATERIALIZE_TIMEOUT = defineCase({
  id: "materialize-timeout",
  ...agnostic,
  scenario: withFaults([onMaterialize({ kind: "hang" })]),
  request: (ctx) => ({ ...ctx.defaultRequest, gentleAiTimeoutMs: 1500 }),
});

// ---- pi leg -------------------------------------------------------------------------------------------------------

export const PI_NONZERO = defineCase({
  id: "pi-nonzero-exit",
  ...agnostic,
  scenario: () => ({ pi: { exitCode: 1, stderr: text("pi: model unavailable\n") } }),
});
export const PI_EMPTY = defineCase({
  id: "pi-empty-output",
  ...agnostic,
  scenario: () => ({ pi: { result: { kind: "bytes", bytes: text("") } } }),
});
export const PI_WHITESPACE = defineCase({
  id: "pi-whitespace-output",
  ...relay,
  scenario: () => ({ pi: { result: { kind: "bytes", bytes: text("\n") } } }),
});
export const PI_SIGNAL = defineCase({
  id: "pi-signal",
  ...agnostic,
  scenario: withFaults([onPi({ kind: "signal", signal: "SIGKILL" })]),
});
export const PI_MISSING = defineCase({
  id: "pi-missing",
  ...agnostic,
  request: (ctx) => ({ ...ctx.defaultRequest, piExecutable: join(ctx.sandbox.dir, "no-such-pi") }),
});

/** No piExecutable: the relay runs `pi` as found on the request environment's PATH (the simulator's bin folder). */
export const PI_DEFAULT_EXECUTABLE = defineCase({
  id: "pi-default-executable",
  ...agnostic,
  request: (ctx) => {
    const { piExecutable: _omit, ...rest } = ctx.defaultRequest;
    return { ...rest, environment: { ...ctx.env, PATH: `${dirname(ctx.pi)}:${ctx.env.PATH ?? ""}` } };
  },
  processEnv: (ctx) => ({ ...ctx.env, PATH: `${dirname(ctx.pi)}:${ctx.env.PATH ?? ""}` }),
});

/** The relay process's TMPDIR does not exist, so pi's scratch folder cannot be made (gentle-ai legs are unaffected). */
export const PI_SCRATCH_UNAVAILABLE = defineCase({
  id: "pi-scratch-unavailable",
  ...agnostic,
  processEnv: (ctx) => ({ ...ctx.env, TMPDIR: join(ctx.sandbox.dir, "no-such-tmp") }),
});

/** pi exits 1 quickly on an N-byte prompt: the error carries the bound the relay derived for N. */
export const promptSizeCase = (bytes: number): CaseDef =>
  defineCase({
    id: `pi-bound-${bytes}-bytes`,
    ...agnostic,
    scenario: () => ({ pi: { exitCode: 1 }, faults: [onMaterialize({ kind: "oversized-output", bytes })] }),
  });
export const PROMPT_SIZES = [1, 1_000, 65_536, 1_048_576, 1_580_000] as const;
export const PROMPT_SIZE_CASES = PROMPT_SIZES.map(promptSizeCase);

/** pi exits 1 quickly under an environment override value. */
export const envOverrideCase = (value: string): CaseDef =>
  defineCase({
    id: `pi-env-override-${JSON.stringify(value).replace(/[^A-Za-z0-9-]/g, "_")}`,
    ...agnostic,
    scenario: () => ({ pi: { exitCode: 1 } }),
    request: (ctx) => ({ ...ctx.defaultRequest, environment: { ...ctx.env, [PI_TIMEOUT_ENV]: value } }),
  });
export const ENV_VALID = ["1000", "1234", "9999999"] as const;
// End to end on a sample; API-PI-TIMEOUT-DERIVATION checks all ten listed values on the pure function.
export const ENV_IGNORED = ["", "0", "12.5", " 600000", "007", "99999999999999999999"] as const;
export const ENV_VALID_CASES = ENV_VALID.map((v) => envOverrideCase(v));
export const ENV_IGNORED_CASES = ENV_IGNORED.map((v) => envOverrideCase(v));

/** The override lives only in request.environment; the relay process's own env has none (and vice versa). */
export const ENV_FROM_REQUEST = defineCase({
  id: "pi-env-override-request-only",
  ...agnostic,
  scenario: () => ({ pi: { exitCode: 1 } }),
  request: (ctx) => ({ ...ctx.defaultRequest, environment: { ...ctx.env, [PI_TIMEOUT_ENV]: "4321" } }),
});

/** The override lives only in the relay process's own env while request.environment has none: it must be ignored. */
export const ENV_FROM_PROCESS_ONLY = defineCase({
  id: "pi-env-override-process-only",
  ...agnostic,
  scenario: () => ({ pi: { exitCode: 1 } }),
  processEnv: (ctx) => ({ ...ctx.env, [PI_TIMEOUT_ENV]: "4321" }),
});

/** request.piTimeoutMs beats the environment override. */
export const PI_TIMEOUT_REQUEST_WINS = defineCase({
  id: "pi-timeout-request-precedence",
  ...agnostic,
  scenario: () => ({ pi: { exitCode: 1 } }),
  request: (ctx) => ({
    ...ctx.defaultRequest,
    piTimeoutMs: 5555,
    environment: { ...ctx.env, [PI_TIMEOUT_ENV]: "1000" },
  }),
});

/** pi hangs; the override (scaled down to 1500 ms) kills it. */
export const PI_TIMEOUT_FIRES = defineCase({
  id: "pi-timeout-fires",
  ...agnostic,
  scenario: withFaults([onPi({ kind: "hang" })]),
  request: (ctx) => ({ ...ctx.defaultRequest, environment: { ...ctx.env, [PI_TIMEOUT_ENV]: "1500" } }),
});

// ---- timeouts against a child that traps SIGTERM ------------------------------------------------------------------

/** A bound on the relay call well past the leg's: a relay that only sends SIGTERM never settles and is cut here. */
const TRAP_CASE_BOUND_MS = 8000;

/** Materialize traps SIGTERM and hangs past a 1500 ms gentleAiTimeoutMs: only SIGKILL ends it. */
export const MATERIALIZE_TIMEOUT_TRAPS_SIGTERM = defineCase({
  id: "materialize-timeout-traps-sigterm",
  ...agnostic,
  scenario: withFaults([onMaterialize({ kind: "trap-sigterm" }), onMaterialize({ kind: "hang" })]),
  request: (ctx) => ({ ...ctx.defaultRequest, gentleAiTimeoutMs: 1500 }),
  timeoutMs: TRAP_CASE_BOUND_MS,
});

/** pi traps SIGTERM and hangs past a 1500 ms override. */
export const PI_TIMEOUT_TRAPS_SIGTERM = defineCase({
  id: "pi-timeout-traps-sigterm",
  ...agnostic,
  scenario: withFaults([onPi({ kind: "trap-sigterm" }), onPi({ kind: "hang" })]),
  request: (ctx) => ({ ...ctx.defaultRequest, environment: { ...ctx.env, [PI_TIMEOUT_ENV]: "1500" } }),
  timeoutMs: TRAP_CASE_BOUND_MS,
});

/** Submit traps SIGTERM and hangs past a 3000 ms gentleAiTimeoutMs (generous for materialize on a loaded machine). */
export const SUBMIT_TIMEOUT_TRAPS_SIGTERM = defineCase({
  id: "submit-timeout-traps-sigterm",
  ...agnostic,
  scenario: withFaults([onSubmit({ kind: "trap-sigterm" }), onSubmit({ kind: "hang" })]),
  request: (ctx) => ({ ...ctx.defaultRequest, gentleAiTimeoutMs: 3000 }),
  timeoutMs: TRAP_CASE_BOUND_MS,
});

// ---- submit leg ----------------------------------------------------------------------------------------------------

/** pi answers prose; the provider's admission refuses it: [invalid_request], exit 1. */
export const ADMISSION_REFUSED = defineCase({
  id: "admission-refused",
  ...relay,
  scenario: () => ({ pi: { result: { kind: "bytes", bytes: text("not a reviewer result\n") } } }),
});

const submitRefusal = (id: string, stderr: string, code: number, stdout = ""): CaseDef =>
  defineCase({
    id,
    ...agnostic,
    scenario: withFaults([
      onSubmit({ kind: "stderr", bytes: text(stderr) }),
      onSubmit({ kind: "exit-code", code }),
      onSubmit({ kind: "stdout", bytes: text(stdout) }),
    ]),
  });
export const SUBMIT_INVALID_REQUEST_MIDTEXT = submitRefusal(
  "submit-invalid-request-midtext",
  "  Error: decode reviewer result: x [invalid_request] trailing  \n\n",
  1,
);
export const SUBMIT_INVALID_REQUEST_EXIT_2 = submitRefusal(
  "submit-invalid-request-exit-2",
  "Error: bad [invalid_request]\n",
  2,
);
export const SUBMIT_INVALID_REQUEST_STDOUT_ONLY = submitRefusal(
  "submit-invalid-request-stdout-only",
  "Error: refused [capture_binding_mismatch]\n",
  1,
  '{"code":"[invalid_request]"}\n',
);
export const SUBMIT_UNTYPED = submitRefusal(
  "submit-binding-mismatch-fault",
  "Error: capture binding does not match the current reviewing authority under the provider-issued repository context [capture_binding_mismatch]\n",
  1,
);
export const SUBMIT_EMPTY_STDOUT = defineCase({
  id: "submit-empty-stdout",
  ...agnostic,
  scenario: withFaults([onSubmit({ kind: "empty-output" }), onSubmit({ kind: "exit-code", code: 0 })]),
});
export const SUBMIT_SIGNAL = defineCase({
  id: "submit-signal",
  ...agnostic,
  scenario: withFaults([onSubmit({ kind: "signal", signal: "SIGKILL" })]),
});
export const SUBMIT_TIMEOUT = defineCase({
  id: "submit-timeout",
  ...agnostic,
  scenario: withFaults([onSubmit({ kind: "hang" })]),
  // Both gentle-ai legs share the bound: generous enough for materialize on a loaded machine.
  request: (ctx) => ({ ...ctx.defaultRequest, gentleAiTimeoutMs: 3000 }),
});

/** The submission form's revision is stale while the capture tokens are current: a real [capture_binding_mismatch]. */
export const STALE_SUBMISSION_FORM = defineCase({
  id: "stale-submission-form",
  ...relay,
  request: (ctx) => {
    const form = ctx.slot.submission;
    if (!form) throw new Error("STATUS slot carries no submission");
    // Another slot's order: gentle-ai refuses the binding drift with [capture_binding_mismatch]. (A drifted revision
    // is refused earlier, as an unresolvable repository context: [invalid_request].)
    const tokens = form.argumentTokens.map((t) =>
      t.startsWith("--order=") ? `--order=${t === "--order=1" ? "2" : "1"}` : t,
    );
    return { ...ctx.defaultRequest, submission: { ...form, argumentTokens: tokens } };
  },
});

/** Host-side helper calls go to the STATUS transcript, never the relay's. */
const hostEnv = (ctx: RequestContext): Record<string, string> => ({
  ...ctx.env,
  [HANDSHAKE_ENV]: STATUS_HANDSHAKE,
  GENTLE_AI_SIM_TRANSCRIPT: ctx.sandbox.statusTranscript,
});

/**
 * Another host captures the same slot with a different valid result while our relay's pi is still running:
 * the relay's submission then meets [reviewer_result_slot_occupied].
 */
export const SLOT_OCCUPIED = defineCase({
  id: "slot-occupied",
  ...relay,
  scenario: () => ({
    pi: { result: { kind: "reviewer-result", findings: "suggestion" } },
    faults: [onPi({ kind: "delay", ms: 2500 })],
  }),
  before: async (ctx) => {
    const opts = { cwd: ctx.sandbox.repo, env: hostEnv(ctx), timeoutMs: 20_000 };
    const prompt = await runProgram(
      ctx.gentleAi,
      ["review", "capture-result", ...ctx.slot.captureArgumentTokens],
      opts,
    );
    const other = join(ctx.sandbox.dir, "other-host-scenario.json");
    writeFileSync(
      other,
      JSON.stringify({ profile: ctx.profile, pi: { result: { kind: "reviewer-result", findings: "none" } } }),
    );
    const result = await runProgram(ctx.pi, ["--print"], {
      ...opts,
      env: { ...opts.env, GENTLE_AI_SIM_SCENARIO: other },
      stdin: prompt.stdout,
    });
    writeFileSync(join(ctx.sandbox.dir, "other-host.raw"), result.stdout);
  },
  during: (ctx) => ({
    prefix: SCRATCH_PREFIX,
    act: async () => {
      const form = ctx.slot.submission;
      if (!form) throw new Error("no submission form");
      const file = join(ctx.sandbox.dir, "other-host.raw");
      const loc = form.values[0]?.substitutionLocation ?? -1;
      const argv = [
        "review",
        form.operationToken,
        ...form.argumentTokens.map((t, i) => (i === loc ? t.split("{{value}}").join(file) : t)),
      ];
      const r = await runProgram(ctx.gentleAi, argv, { cwd: ctx.sandbox.repo, env: hostEnv(ctx), timeoutMs: 20_000 });
      return { otherHostExit: r.exitCode, otherHostStderr: r.stderr.toString("utf8") };
    },
  }),
});

/** rdd disabled: materialize (read-only) still works, the submission is refused [rdd_disabled]. */
export const RDD_DISABLED = defineCase({
  id: "rdd-disabled",
  ...relay,
  scenario: () => ({ lineage: { rddDisabled: true } }),
});

// ---- staging / scratch observation and sabotage ---------------------------------------------------------------

const hasEntry = (
  transcript: string,
  predicate: (e: ReturnType<typeof readTranscript>[number]) => boolean,
): boolean => {
  try {
    return readTranscript(transcript).some(predicate);
  } catch {
    return false; // a line may be mid-append
  }
};

/** Submit hangs; once its record exists the harness stats the staged folder and file, then kills the submit process. */
export const OBSERVE_STAGING = defineCase({
  id: "observe-staging",
  ...agnostic,
  scenario: withFaults([onSubmit({ kind: "hang" })]),
  during: (ctx) => ({
    prefix: STAGING_PREFIX,
    ready: () => hasEntry(ctx.sandbox.transcript, (e) => e.program === "gentle-ai" && e.leg === "submit"),
    act: (dir, pids) => {
      const file = join(dir, "result.raw");
      const observed = {
        dirMode: statSync(dir).mode & 0o777,
        fileMode: existsSync(file) ? statSync(file).mode & 0o777 : null,
        fileBytes: existsSync(file) ? readFileSync(file).toString("base64") : null,
      };
      const submit = readTranscript(ctx.sandbox.transcript).find(
        (e) => e.program === "gentle-ai" && e.leg === "submit",
      );
      if (submit) pids.kill(submit.pid);
      return observed;
    },
  }),
});

/** Staging cleanup is made to fail while the submit succeeds: the typed cleanup failure. */
export const STAGING_CLEANUP_FAILS = defineCase({
  id: "staging-cleanup-fails",
  ...agnostic,
  scenario: withFaults([...SUBMIT_ACCEPTS_FAULTS, onSubmit({ kind: "delay", ms: 1200 })]),
  during: () => ({ prefix: STAGING_PREFIX, act: (dir) => plantUnremovableChain(dir), cleanup: removeUnremovableChain }),
});

/** Staging cleanup fails after a refused submit: the refusal (primary failure) must win. */
export const STAGING_CLEANUP_FAILS_AFTER_REFUSAL = defineCase({
  id: "staging-cleanup-fails-after-refusal",
  ...agnostic,
  scenario: withFaults([
    onSubmit({ kind: "stderr", bytes: text("Error: refused [capture_binding_mismatch]\n") }),
    onSubmit({ kind: "exit-code", code: 1 }),
    onSubmit({ kind: "stdout", bytes: text("") }),
    onSubmit({ kind: "delay", ms: 1200 }),
  ]),
  during: () => ({ prefix: STAGING_PREFIX, act: (dir) => plantUnremovableChain(dir), cleanup: removeUnremovableChain }),
});

/** pi scratch cleanup fails after pi succeeded: the adapter's cleanup-failed, mapped to pi-failed. */
export const SCRATCH_CLEANUP_FAILS = defineCase({
  id: "scratch-cleanup-fails",
  ...agnostic,
  scenario: withFaults([onPi({ kind: "delay", ms: 1200 })]),
  during: () => ({ prefix: SCRATCH_PREFIX, act: (dir) => plantUnremovableChain(dir), cleanup: removeUnremovableChain }),
});

/** pi times out and its scratch cleanup fails: the timeout (primary failure) must win. */
export const SCRATCH_CLEANUP_FAILS_AFTER_TIMEOUT = defineCase({
  id: "scratch-cleanup-fails-after-timeout",
  ...agnostic,
  scenario: withFaults([onPi({ kind: "hang" })]),
  request: (ctx) => ({ ...ctx.defaultRequest, environment: { ...ctx.env, [PI_TIMEOUT_ENV]: "1500" } }),
  during: () => ({ prefix: SCRATCH_PREFIX, act: (dir) => plantUnremovableChain(dir), cleanup: removeUnremovableChain }),
});

// ---- abort
// -----------------------------------------------------------------------------------------------------------

export const ABORT_BEFORE = defineCase({ id: "abort-before-start", ...agnostic, abort: () => ({ when: "before" }) });
export const ABORT_DURING_PI = defineCase({
  id: "abort-during-pi",
  ...agnostic,
  scenario: withFaults([onPi({ kind: "hang" })]),
  abort: (ctx) => ({ when: "entry-appears", dir: ctx.sandbox.tmp, prefix: SCRATCH_PREFIX }),
});
export const ABORT_DURING_SUBMIT = defineCase({
  id: "abort-during-submit",
  ...agnostic,
  scenario: withFaults([onSubmit({ kind: "hang" })]),
  abort: (ctx) => ({ when: "entry-appears", dir: ctx.sandbox.tmp, prefix: STAGING_PREFIX }),
});
// The two above abort as a folder appears, which races the leg's launch; these abort once the leg's child runs.
export const ABORT_MATERIALIZE_RUNNING = defineCase({
  id: "abort-materialize-running",
  ...agnostic,
  scenario: withFaults([onMaterialize({ kind: "hang" })]),
  abort: () => ({ when: "child-running" }),
});
export const ABORT_PI_RUNNING = defineCase({
  id: "abort-pi-running",
  ...agnostic,
  scenario: withFaults([onPi({ kind: "hang" })]),
  abort: (ctx) => ({ when: "child-running", dir: ctx.sandbox.tmp, prefix: SCRATCH_PREFIX }),
});
export const ABORT_SUBMIT_RUNNING = defineCase({
  id: "abort-submit-running",
  ...agnostic,
  scenario: withFaults([onSubmit({ kind: "hang" })]),
  abort: (ctx) => ({ when: "child-running", dir: ctx.sandbox.tmp, prefix: STAGING_PREFIX }),
});
/** A whole slot with a request.signal that is never aborted. */
export const SIGNAL_NEVER_ABORTED = defineCase({
  id: "signal-never-aborted",
  ...agnostic,
  abort: () => ({ when: "never" }),
});

// ---- binding (no process may start) ---------------------------------------------------------------------------------

const bindingCase = (id: string, mutate: (ctx: RequestContext) => Record<string, unknown>): CaseDef =>
  defineCase({
    id,
    noStatus: true,
    agnostic: true,
    request: (ctx) => ({ ...ctx.defaultRequest, ...mutate(ctx) }) as RequestContext["defaultRequest"],
  });
const form = (ctx: RequestContext): Record<string, unknown> => ({ ...(ctx.slot.submission as object) });
export const NO_TOKENS = bindingCase("no-capture-tokens", () => ({ captureArgumentTokens: [] }));
export const EMPTY_TOKEN = bindingCase("empty-capture-token", (ctx) => ({
  captureArgumentTokens: [...ctx.defaultRequest.captureArgumentTokens, ""],
}));
// Capture tokens of the wrong type, which only a malformed host sends: carried raw, past the wire's string types.
export const TOKENS_NOT_ARRAY = bindingCase("capture-tokens-not-array", () => ({
  raw: { captureArgumentTokens: "--lineage=review-1" },
}));
export const NON_STRING_TOKEN = bindingCase("non-string-capture-token", (ctx) => ({
  raw: { captureArgumentTokens: [...ctx.defaultRequest.captureArgumentTokens, ["--x"]] },
}));
export const RELATIVE_GENTLE_AI = bindingCase("relative-gentle-ai", () => ({ gentleAiExecutable: "bin/gentle-ai" }));
export const FORM_MISSING = defineCase({
  id: "form-missing",
  noStatus: true,
  agnostic: true,
  request: (ctx) => {
    const { submission: _omit, ...rest } = ctx.defaultRequest;
    return rest;
  },
});
export const FORM_EMPTY_OPERATION = bindingCase("form-empty-operation", (ctx) => ({
  submission: { ...form(ctx), operationToken: "" },
}));
export const FORM_NO_ARGUMENTS = bindingCase("form-no-arguments", (ctx) => ({
  submission: { ...form(ctx), argumentTokens: [] },
}));
export const FORM_EMPTY_ARGUMENT = bindingCase("form-empty-argument", (ctx) => ({
  submission: { ...form(ctx), argumentTokens: ["--input={{value}}", ""] },
}));
// A token that is not a string (an array here: it has a length, so only a type check rejects it).
export const FORM_NON_STRING_ARGUMENT = bindingCase("form-non-string-argument", (ctx) => ({
  submission: { ...form(ctx), argumentTokens: ["--input={{value}}", ["--lens=x"]] },
}));
export const FORM_ZERO_VALUES = bindingCase("form-zero-values", (ctx) => ({
  submission: { ...form(ctx), values: [] },
}));
export const FORM_TWO_VALUES = bindingCase("form-two-values", (ctx) => {
  const f = form(ctx) as { values: unknown[] };
  return { submission: { ...f, values: [...f.values, ...f.values] } };
});
const atLocation = (ctx: RequestContext, loc: unknown): Record<string, unknown> => {
  const f = form(ctx) as { values: Record<string, unknown>[] };
  return { submission: { ...f, values: [{ ...f.values[0], substitutionLocation: loc }] } };
};
export const FORM_LOCATION_NEGATIVE = bindingCase("form-location-negative", (ctx) => atLocation(ctx, -1));
export const FORM_LOCATION_PAST_END = bindingCase("form-location-past-end", (ctx) =>
  atLocation(ctx, ctx.slot.submission?.argumentTokens.length ?? 0),
);
export const FORM_LOCATION_FRACTION = bindingCase("form-location-fraction", (ctx) => atLocation(ctx, 1.5));
export const FORM_LOCATION_NAN = bindingCase("form-location-nan", (ctx) => atLocation(ctx, { $number: "NaN" }));
export const FORM_NO_PLACEHOLDER = bindingCase("form-location-no-placeholder", (ctx) => atLocation(ctx, 0));
/** Several defects at once: the first check in contract order decides the message. */
export const FORM_SEVERAL_DEFECTS = bindingCase("form-several-defects", () => ({
  submission: { operationToken: "", argumentTokens: ["--input=x"], values: [] },
}));
