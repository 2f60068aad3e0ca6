// Leg A: argv, cwd, handshake and refusal classification (relay reference §6–§8, §13).
import { isAbsolute } from "node:path";
import * as C from "./cases.ts";
import { ALL_PROFILES, DEFAULT_GENTLE_AI_TIMEOUT_MS, RELAY_PROFILES, UNAVAILABLE_MESSAGE } from "./common.ts";
import { HANDSHAKE_VALUE } from "../contract/provider.ts";
import { eq, legs, need, NOTHING_RAN, ok, relayError, resolved, show, stderrOf, stdoutOf } from "./expect.ts";
import { HarnessError, type CaseCheck, type CaseDef, type CaseRun, type Clause } from "./types.ts";

const each = (cases: readonly CaseDef[], assert: (run: CaseRun) => void): CaseCheck[] =>
  cases.map((c) => ({ case: c, assert }));

/** Only the materialize leg ran. */
export function onlyMaterialize(run: CaseRun): void {
  eq(
    run.transcript.map((e) => e.program),
    ["gentle-ai"],
    "processes launched after a failed materialize",
  );
}

/** A leg-A failure carrying the child's exit, verbatim stderr and the timing fields. */
function legAFailure(kind: string, message: string | ((run: CaseRun) => string)) {
  return (run: CaseRun): void => {
    const m = need(legs(run).materialize, "materialize");
    relayError(run, {
      kind,
      stage: "materialize",
      message: typeof message === "string" ? message : message(run),
      mutationOutcome: "none",
      exitCode: m.exit.code,
      stderr: stderrOf(m).toString("utf8"),
      timedOut: false,
      elapsedMs: "number",
      timeoutMs: DEFAULT_GENTLE_AI_TIMEOUT_MS,
    });
    onlyMaterialize(run);
  };
}

const materializeArgv = (run: CaseRun): void => {
  const m = need(legs(run).materialize, "materialize");
  eq(m.argv, ["review", "capture-result", ...run.request.captureArgumentTokens], "materialize argv");
  eq(m.cwd, run.repo, "materialize cwd");
};

export const MATERIALIZE_CLAUSES: readonly Clause[] = [
  {
    id: "MATERIALIZE-ARGV-VERBATIM",
    statement:
      "Leg A runs `gentle-ai review capture-result <provider tokens…>` verbatim in targetCwd: no added --cwd/--contract, nothing reordered.",
    source: "gentle-pi 2.3.0; relay reference §7",
    profiles: ALL_PROFILES,
    checks: [
      { case: C.HAPPY, assert: materializeArgv },
      { case: C.PRE_RELAY_UNKNOWN_FLAG, assert: materializeArgv },
    ],
  },
  {
    id: "TARGET-CWD-DEFAULT",
    statement: "Without targetCwd both gentle-ai legs run in process.cwd().",
    source: "gentle-pi 2.3.0 (b975dfad); relay reference §2.1",
    profiles: RELAY_PROFILES,
    checks: [
      {
        case: C.DEFAULT_CWD,
        assert: (run) => {
          const l = legs(run);
          eq(need(l.materialize, "materialize").cwd, run.repo, "materialize cwd");
          eq(need(l.submit, "submit").cwd, run.repo, "submit cwd");
        },
      },
    ],
  },
  {
    id: "TARGET-CWD-HONOURED",
    statement:
      "Both gentle-ai legs run in request.targetCwd, never in the relay's own process cwd (the harness calls the relay from another folder).",
    source:
      "gentle-pi 2.3.0 lib/review-host-relay.ts:450 (targetCwd = request.targetCwd ?? process.cwd()), :459 and :522 (cwd: targetCwd); relay reference §2.1",
    profiles: RELAY_PROFILES,
    checks: each([C.HAPPY, C.PI_NONZERO], (run) => {
      // Without distinct folders the check would prove nothing: that is the harness's fault, not the relay's.
      if (run.relayCwd === run.repo) throw new HarnessError(`case ${run.caseId} ran the relay in its target folder`);
      const l = legs(run);
      for (const [leg, entry] of [
        ["materialize", need(l.materialize, "materialize")],
        ["submit", l.submit],
      ] as const) {
        if (entry === undefined) continue;
        ok(
          entry.cwd !== run.relayCwd,
          `${leg} ran in the relay's process cwd ${entry.cwd}, not in targetCwd ${run.repo}`,
        );
        eq(entry.cwd, run.repo, `${leg} cwd`);
      }
    }),
  },
  {
    id: "HANDSHAKE-GENTLE-AI-ONLY",
    statement:
      "Both gentle-ai legs carry GENTLE_PI_REVIEW_RELAY_CONTRACT=gentle-pi.review-relay/v1; pi never gets it injected.",
    source: "gentle-pi 2.3.0 lib/review-relay-contract.ts; relay reference §6 step 4, §9",
    profiles: ALL_PROFILES,
    checks: [
      {
        case: C.HAPPY,
        assert: (run) => {
          const l = legs(run);
          eq(need(l.materialize, "materialize").handshake, HANDSHAKE_VALUE, "materialize handshake");
          eq(need(l.submit, "submit").handshake, HANDSHAKE_VALUE, "submit handshake");
          eq(need(l.pi, "pi").handshake, null, "pi handshake");
        },
      },
      {
        case: C.PRE_RELAY_UNKNOWN_FLAG,
        assert: (run) =>
          eq(need(legs(run).materialize, "materialize").handshake, HANDSHAKE_VALUE, "materialize handshake"),
      },
    ],
  },
  {
    id: "HANDSHAKE-OVERRIDES-INHERITED",
    statement: "An inherited handshake value is overridden with the exact contract on gentle-ai legs.",
    source: "gentle-pi 2.3.0; relay reference §6 step 4",
    profiles: RELAY_PROFILES,
    checks: [
      {
        case: C.INHERITED_HANDSHAKE,
        assert: (run) => {
          const l = legs(run);
          eq(need(l.materialize, "materialize").handshake, HANDSHAKE_VALUE, "materialize handshake");
          eq(need(l.submit, "submit").handshake, HANDSHAKE_VALUE, "submit handshake");
        },
      },
    ],
  },
  {
    id: "PI-ENV-UNTOUCHED",
    statement: "pi gets the base environment unchanged: no handshake injected, an inherited one not removed.",
    source: "gentle-pi main 2026-08-22 lib/opaque-pi-reviewer-adapter.ts; relay reference §9",
    profiles: RELAY_PROFILES,
    checks: [
      { case: C.HAPPY, assert: (run) => eq(need(legs(run).pi, "pi").handshake, null, "pi handshake") },
      {
        case: C.INHERITED_HANDSHAKE,
        assert: (run) => eq(need(legs(run).pi, "pi").handshake, "gentle-pi.review-relay/v0", "pi handshake"),
      },
    ],
  },
  {
    id: "UNKNOWN-FLAG-RELAY-UNAVAILABLE",
    statement:
      "A materialize refusal whose stderr matches /flag provided but not defined: -{1,2}(materialize|agent)\\b/ is relay-unavailable with REVIEW_HOST_RELAY_UNAVAILABLE_MESSAGE.",
    source: "gentle-pi 2.3.0 (818c3e68); relay reference §8, §13",
    profiles: ALL_PROFILES,
    checks: [
      { case: C.PRE_RELAY_UNKNOWN_FLAG, assert: legAFailure("relay-unavailable", UNAVAILABLE_MESSAGE) },
      { case: C.UNKNOWN_FLAG_AGENT, assert: legAFailure("relay-unavailable", UNAVAILABLE_MESSAGE) },
      { case: C.UNKNOWN_FLAG_MATERIALIZE_DD, assert: legAFailure("relay-unavailable", UNAVAILABLE_MESSAGE) },
    ],
  },
  {
    id: "UNKNOWN-FLAG-PATTERN-EXACT",
    statement:
      "The unknown-flag rule needs a word boundary and reads stderr only: `-agents` or a flag line on stdout is materialize-failed.",
    source: "gentle-pi 2.3.0; relay reference §8",
    profiles: RELAY_PROFILES,
    checks: each(
      [C.UNKNOWN_FLAG_WORD_BOUNDARY, C.UNKNOWN_FLAG_ON_STDOUT_ONLY],
      legAFailure("materialize-failed", "gentle-ai prompt materialization failed"),
    ),
  },
  {
    id: "HANDSHAKE-REFUSED-VERBATIM",
    statement:
      'A handshake refusal (env name, contract value or "not eligible for immutable receipt review" in stderr) is handshake-refused whose message is the raw stderr, untrimmed.',
    source: "gentle-pi 2.3.0; relay reference §3, §8, §13",
    profiles: RELAY_PROFILES,
    checks: each([C.HANDSHAKE_V240, C.HANDSHAKE_V250, C.HANDSHAKE_CONTRACT_ONLY], (run) =>
      legAFailure("handshake-refused", (r) => stderrOf(need(legs(r).materialize, "materialize")).toString("utf8"))(run),
    ),
  },
  {
    id: "HANDSHAKE-PATTERN-EXACT",
    statement:
      'The handshake rule is case-sensitive and does not match "lacks immutable receipt-review transport": those are materialize-failed.',
    source: "gentle-pi 2.3.0; relay reference §8",
    profiles: RELAY_PROFILES,
    checks: each(
      [C.HANDSHAKE_WRONG_CASE, C.LACKS_TRANSPORT],
      legAFailure("materialize-failed", "gentle-ai prompt materialization failed"),
    ),
  },
  {
    id: "REFUSAL-CLASSIFY-ORDER",
    statement: "Unknown-flag is tested before handshake: stderr matching both is relay-unavailable.",
    source: "gentle-pi 2.3.0; relay reference §8",
    profiles: RELAY_PROFILES,
    checks: [{ case: C.BOTH_PATTERNS, assert: legAFailure("relay-unavailable", UNAVAILABLE_MESSAGE) }],
  },
  {
    id: "MATERIALIZE-FAILED",
    statement:
      'Any other non-zero exit or signal of leg A is materialize-failed "gentle-ai prompt materialization failed" with exitCode (null on signal) and verbatim stderr.',
    source: "gentle-pi 2.3.0; relay reference §3, §7, §13",
    profiles: RELAY_PROFILES,
    checks: each(
      [C.MATERIALIZE_EXIT_3, C.STALE_CAPTURE_TOKENS, C.MATERIALIZE_SIGNAL],
      legAFailure("materialize-failed", "gentle-ai prompt materialization failed"),
    ),
  },
  {
    id: "GENTLE-AI-TIMEOUT-DEFAULT",
    statement: "Without gentleAiTimeoutMs each gentle-ai leg is bounded by 120000 ms (reported as timeoutMs).",
    source: "gentle-pi 2.3.0 DEFAULT_GENTLE_AI_TIMEOUT_MS; relay reference §5.1",
    profiles: RELAY_PROFILES,
    checks: [
      {
        case: C.MATERIALIZE_EXIT_3,
        assert: (run) => void relayError(run, { timeoutMs: DEFAULT_GENTLE_AI_TIMEOUT_MS }),
      },
    ],
  },
  {
    id: "MATERIALIZE-TIMEOUT",
    statement:
      'A leg-A child past gentleAiTimeoutMs is SIGKILLed: materialize-failed "…exceeded its ${T}ms bound after ${E}ms", timedOut, exitCode null.',
    source: "gentle-pi 2.3.0; relay reference §3, §5.1",
    profiles: RELAY_PROFILES,
    checks: [
      {
        case: C.MATERIALIZE_TIMEOUT,
        assert: (run) => {
          const e = relayError(run, {
            kind: "materialize-failed",
            stage: "materialize",
            mutationOutcome: "none",
            exitCode: null,
            timedOut: true,
            timeoutMs: 1500,
            elapsedMs: "number",
          });
          eq(
            e.message,
            `gentle-ai prompt materialization exceeded its 1500ms bound after ${String(e.elapsedMs)}ms`,
            "message",
          );
          eq(run.survivors, [], "processes alive after the relay returned");
          // The killed child may not have recorded itself yet; nothing else may appear.
          ok(
            run.transcript.every((t) => t.program === "gentle-ai") && run.transcript.length <= 1,
            "processes after a timed-out materialize",
          );
        },
      },
    ],
  },
  {
    id: "MATERIALIZE-COULD-NOT-START",
    statement:
      'A leg-A spawn error (emitted, or thrown by spawn itself) is materialize-failed "gentle-ai prompt materialization could not start: ${err.message}" with no details.',
    source: "gentle-pi 2.3.0; relay reference §3",
    profiles: RELAY_PROFILES,
    checks: [
      {
        case: C.GENTLE_AI_MISSING,
        assert: (run) => {
          const path = run.request.gentleAiExecutable ?? "";
          ok(isAbsolute(path), "case must use an absolute path");
          relayError(run, {
            kind: "materialize-failed",
            stage: "materialize",
            message: `gentle-ai prompt materialization could not start: spawn ${path} ENOENT`,
            ...NOTHING_RAN,
          });
          eq(run.transcript.length, 0, "processes recorded");
        },
      },
      {
        // spawn throws synchronously here (ERR_INVALID_ARG_VALUE) instead of emitting `error`: the same typed error.
        case: C.GENTLE_AI_NUL_PATH,
        assert: (run) => {
          const error = relayError(run, {
            kind: "materialize-failed",
            stage: "materialize",
            ...NOTHING_RAN,
          });
          const want =
            "gentle-ai prompt materialization could not start: The argument 'file' must be a string without null bytes. Received ";
          ok(error.message.startsWith(want), `message: expected ${show(`${want}…`)}, got ${show(error.message)}`);
          eq(run.transcript.length, 0, "processes recorded");
        },
      },
    ],
  },
  {
    id: "EMPTY-PROMPT",
    statement:
      'Leg A exiting 0 with no stdout is empty-prompt "gentle-ai prompt materialization produced no bytes" and pi never starts.',
    source: "gentle-pi 2.3.0; relay reference §3, §7",
    profiles: RELAY_PROFILES,
    checks: [
      {
        case: C.EMPTY_PROMPT,
        assert: (run) => {
          relayError(run, {
            kind: "empty-prompt",
            stage: "materialize",
            message: "gentle-ai prompt materialization produced no bytes",
            mutationOutcome: "none",
            exitCode: 0,
            timedOut: false,
          });
          onlyMaterialize(run);
        },
      },
    ],
  },
  {
    id: "MATERIALIZE-STDERR-IGNORED",
    statement: "stderr of a successful leg A is ignored: the slot proceeds.",
    source: "gentle-pi 2.3.0; relay reference §7",
    profiles: RELAY_PROFILES,
    checks: [{ case: C.MATERIALIZE_STDERR_NOISE, assert: (run) => void resolved(run) }],
  },
  {
    id: "PROMPT-BYTES-VERBATIM",
    statement:
      "The materialized stdout reaches pi byte for byte (no decoding, BOM handling or trimming) and promptByteLength is its length.",
    source: "gentle-pi 2.3.0; relay reference §7, §2.2",
    profiles: RELAY_PROFILES,
    checks: each([C.HAPPY, C.TRICKY_PROMPT], (run) => {
      const l = legs(run);
      const prompt = stdoutOf(need(l.materialize, "materialize"));
      const got = need(l.pi, "pi");
      const stdin = Buffer.from(got.stdin.base64 ?? "", "base64");
      if (!stdin.equals(prompt))
        eq(
          stdin.toString("hex").slice(0, 120),
          prompt.toString("hex").slice(0, 120),
          `pi stdin (${stdin.length} bytes vs prompt ${prompt.length})`,
        );
      const value = resolved(run);
      eq(value.promptByteLength, prompt.length, "promptByteLength");
    }),
  },
];
