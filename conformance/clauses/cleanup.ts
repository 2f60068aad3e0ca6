// Cleanup, abort and mutationOutcome rules (relay reference §4, §9, §11).
import * as C from "./cases.ts";
import { ALL_PROFILES, RELAY_PROFILES, SCRATCH_PREFIX, STAGING_PREFIX } from "./common.ts";
import { SIGNAL_LISTENER } from "../process/protocol.ts";
import { eq, ok, relayError, resolved, thrown } from "./expect.ts";
import { noSubmit } from "./pi.ts";
import { onlyMaterialize } from "./materialize.ts";
import type { CaseCheck, CaseDef, CaseRun, Clause } from "./types.ts";

const each = (cases: readonly CaseDef[], assert: (run: CaseRun) => void): CaseCheck[] =>
  cases.map((c) => ({ case: c, assert }));

const STAGES = ["binding", "materialize", "pi", "submit"];
const KINDS = [
  "relay-unavailable",
  "handshake-refused",
  "submission-contract-mismatch",
  "materialize-failed",
  "empty-prompt",
  "pi-launch-failed",
  "pi-failed",
  "pi-timed-out",
  "pi-empty-output",
  "submission-refused",
];

/** Every failing case of the catalogue that ends in a typed error, across all stages. */
const TYPED_FAILURES = [
  C.FORM_MISSING,
  C.FORM_NO_PLACEHOLDER,
  C.UNKNOWN_FLAG_AGENT,
  C.HANDSHAKE_V240,
  C.MATERIALIZE_EXIT_3,
  C.MATERIALIZE_TIMEOUT,
  C.GENTLE_AI_MISSING,
  C.EMPTY_PROMPT,
  C.PI_NONZERO,
  C.PI_EMPTY,
  C.PI_MISSING,
  C.PI_TIMEOUT_FIRES,
  C.ADMISSION_REFUSED,
  C.SUBMIT_UNTYPED,
  C.SUBMIT_TIMEOUT,
  C.SUBMIT_SIGNAL,
  C.SUBMIT_EMPTY_STDOUT,
  C.SUBMIT_INVALID_REQUEST_EXIT_2,
  C.STAGING_CLEANUP_FAILS,
];

/** How long after its bound a SIGKILLed child may take to be reaped: a SIGTERM that is waited out lasts longer. */
const KILL_SLACK_MS = 3000;

/**
 * The leg's typed timeout, settled promptly after the bound, with no survivor (mutationOutcome is another clause's).
 */
function hardKilled(expected: { kind: string; stage: string; timeoutMs: number }) {
  return (run: CaseRun): void => {
    const e = relayError(run, { ...expected, timedOut: true, exitCode: null, elapsedMs: "number" });
    const late = Number(e.elapsedMs) - expected.timeoutMs;
    ok(
      late <= KILL_SLACK_MS,
      `the ${expected.stage} child was reaped ${late}ms after its ${expected.timeoutMs}ms bound (a SIGKILL ends it at once)`,
    );
    eq(run.survivors, [], "processes alive after the relay returned");
  };
}

export const CLEANUP_CLAUSES: readonly Clause[] = [
  {
    id: "MUTATION-OUTCOME-BY-STAGE",
    statement:
      "mutationOutcome is none for binding, materialize and pi failures and unknown for submit failures, except the typed admission refusal (none).",
    source: "gentle-pi 2.3.0 #522/#524; relay reference §4",
    profiles: RELAY_PROFILES,
    checks: each(TYPED_FAILURES, (run) => {
      const e = thrown(run);
      const admission =
        e.exitCode === 1 &&
        e.timedOut === false &&
        typeof e.stderr === "string" &&
        /\[invalid_request\]/.test(e.stderr);
      const expected = e.stage === "submit" && !admission ? "unknown" : "none";
      eq(e.mutationOutcome, expected, `mutationOutcome at stage ${String(e.stage)}`);
    }),
  },
  {
    id: "ERROR-SHAPE",
    statement:
      'Typed failures are ReviewHostRelayError instances (name "ReviewHostRelayError") with a declared kind and stage.',
    source: "gentle-pi 2.3.0; relay reference §2.3, §3",
    profiles: RELAY_PROFILES,
    checks: each(TYPED_FAILURES, (run) => {
      const e = thrown(run);
      eq(e.name, "ReviewHostRelayError", "name");
      ok(e.isError, "not an Error instance");
      if (e.instanceOfRelayError !== null)
        ok(e.instanceOfRelayError, "not an instance of the module's exported ReviewHostRelayError");
      ok(KINDS.includes(String(e.kind)), `undeclared kind ${String(e.kind)}`);
      ok(STAGES.includes(String(e.stage)), `undeclared stage ${String(e.stage)}`);
    }),
  },
  {
    id: "CLEANUP-FAILURE-TYPED",
    statement:
      'A staging cleanup failure after a successful submit is submission-refused "Pi host relay result staging cleanup failed: ${msg}", unknown, no exit code or timings.',
    source: "gentle-pi 2.3.0 (b975dfad, d243fdda); relay reference §11",
    profiles: RELAY_PROFILES,
    checks: [
      {
        case: C.STAGING_CLEANUP_FAILS,
        assert: (run) => {
          const e = relayError(run, {
            kind: "submission-refused",
            stage: "submit",
            mutationOutcome: "unknown",
            exitCode: null,
            timedOut: false,
            elapsedMs: null,
            timeoutMs: null,
          });
          ok(
            e.message.startsWith("Pi host relay result staging cleanup failed: "),
            `message ${JSON.stringify(e.message.slice(0, 120))}`,
          );
          eq(
            run.transcript.map((t) => t.program),
            ["gentle-ai", "pi", "gentle-ai"],
            "launch sequence",
          );
        },
      },
    ],
  },
  {
    id: "CLEANUP-NEVER-MASKS",
    statement:
      "A cleanup failure never masks a primary failure (staging after a refused submit; pi scratch after a pi timeout).",
    source: "gentle-pi 2.3.0 (d243fdda); relay reference §11",
    profiles: RELAY_PROFILES,
    checks: [
      {
        case: C.STAGING_CLEANUP_FAILS_AFTER_REFUSAL,
        assert: (run) =>
          void relayError(run, {
            kind: "submission-refused",
            stage: "submit",
            message: "gentle-ai refused the relayed capture submission",
            mutationOutcome: "unknown",
            exitCode: 1,
          }),
      },
      {
        case: C.SCRATCH_CLEANUP_FAILS_AFTER_TIMEOUT,
        assert: (run) =>
          void relayError(run, { kind: "pi-timed-out", stage: "pi", timedOut: true, mutationOutcome: "none" }),
      },
    ],
  },
  {
    id: "SCRATCH-CLEANUP-FAILURE",
    statement:
      'A pi scratch cleanup failure with no primary failure is pi-failed "pi subprocess failed" and nothing is submitted.',
    source: "gentle-pi main 2026-08-22 (d243fdda); relay reference §9, §11",
    profiles: RELAY_PROFILES,
    checks: [
      {
        case: C.SCRATCH_CLEANUP_FAILS,
        assert: (run) => {
          relayError(run, { kind: "pi-failed", stage: "pi", message: "pi subprocess failed", mutationOutcome: "none" });
          noSubmit(run);
        },
      },
    ],
  },
  {
    id: "ABORT-HONOURED",
    statement:
      "request.signal reaches every child: abort before start, or while materialize, pi or submit runs, stops the relay with the stage's failure and kills the child.",
    source: "gentle-pi 2.3.0; relay reference §2.1, §7, §9, §10.4",
    profiles: RELAY_PROFILES,
    checks: [
      {
        case: C.ABORT_BEFORE,
        assert: (run) => {
          relayError(run, {
            kind: "materialize-failed",
            stage: "materialize",
            message: "gentle-ai prompt materialization could not start: The operation was aborted",
            mutationOutcome: "none",
          });
          ok(
            run.transcript.every((e) => e.program === "gentle-ai") && run.transcript.length <= 1,
            "processes after an aborted materialize",
          );
        },
      },
      {
        case: C.ABORT_DURING_PI,
        assert: (run) => {
          relayError(run, { kind: "pi-failed", stage: "pi", message: "pi subprocess failed", mutationOutcome: "none" });
          ok(
            !run.transcript.some((e) => e.program === "gentle-ai" && e.leg === "submit"),
            "submit launched after abort",
          );
          eq(run.survivors, [], "processes alive after the relay returned");
          eq(
            run.leftovers.filter((n) => n.startsWith(SCRATCH_PREFIX)),
            [],
            "scratch left behind",
          );
        },
      },
      {
        case: C.ABORT_MATERIALIZE_RUNNING,
        assert: (run) => {
          relayError(run, {
            kind: "materialize-failed",
            stage: "materialize",
            message: "gentle-ai prompt materialization could not start: The operation was aborted",
            mutationOutcome: "none",
          });
          ok(
            run.transcript.every((e) => e.program === "gentle-ai"),
            "processes after an aborted materialize",
          );
          eq(run.survivors, [], "processes alive after the relay returned");
        },
      },
      {
        case: C.ABORT_PI_RUNNING,
        assert: (run) => {
          // Killed by the abort, not failed: no exit code, no timeout, the bound and the time pi ran.
          relayError(run, {
            kind: "pi-failed",
            stage: "pi",
            message: "pi subprocess failed",
            mutationOutcome: "none",
            exitCode: null,
            stderr: "",
            timedOut: false,
            elapsedMs: "number",
            timeoutMs: "number",
          });
          ok(
            !run.transcript.some((e) => e.program === "gentle-ai" && e.leg === "submit"),
            "submit launched after abort",
          );
          eq(run.survivors, [], "processes alive after the relay returned");
        },
      },
      ...each([C.ABORT_DURING_SUBMIT, C.ABORT_SUBMIT_RUNNING], (run) => {
        relayError(run, {
          kind: "submission-refused",
          stage: "submit",
          message: "gentle-ai capture submission could not start: The operation was aborted",
          mutationOutcome: "unknown",
        });
        eq(run.survivors, [], "processes alive after the relay returned");
        eq(
          run.leftovers.filter((n) => n.startsWith(STAGING_PREFIX)),
          [],
          "staging left behind",
        );
      }),
    ],
  },
  {
    id: "BOUND-ZERO-NO-TIMER",
    statement: "A bound of 0 (gentleAiTimeoutMs, piTimeoutMs) arms no timer: no leg is killed and the slot completes.",
    source: "gentle-pi 2.2.0 (`timeoutMs > 0 ? setTimeout(…) : undefined` on every leg); relay reference §5.1",
    profiles: RELAY_PROFILES,
    checks: each([C.ZERO_BOUNDS], (run) => {
      const value = resolved(run);
      eq(Object.keys(value).sort(), ["promptByteLength", "resultByteLength", "submission"], "result keys");
    }),
  },
  {
    id: "SETTLES-CLEAN",
    statement: "Once the relay settles it leaves no timer armed and no listener on request.signal, aborted or not.",
    source:
      "gentle-pi 2.2.0 (every leg clears its timer and removes its abort listener on close); relay reference §5.1, §7",
    profiles: RELAY_PROFILES,
    // A timer left armed fires minutes later and SIGKILLs a process group the kernel may have handed to another
    // process; a listener left on the host's session-long signal acts on its next abort, and they pile up per slot.
    checks: each([C.SIGNAL_NEVER_ABORTED, C.ABORT_PI_RUNNING], (run) =>
      eq(
        run.handles.filter((h) => h === "Timeout" || h === SIGNAL_LISTENER),
        [],
        "left in the relay's process after it settled",
      ),
    ),
  },
  {
    id: "NO-LAUNCH-AFTER-FAILURE",
    statement:
      "A failed leg stops everything after it: nothing launches after a materialize failure, no submit after a pi failure.",
    source: "gentle-pi 2.3.0; relay reference §6",
    profiles: ALL_PROFILES,
    checks: [
      ...each([C.PRE_RELAY_UNKNOWN_FLAG, C.MATERIALIZE_EXIT_3, C.EMPTY_PROMPT, C.HANDSHAKE_V240], onlyMaterialize),
      ...each([C.PI_NONZERO, C.PI_EMPTY, C.PI_SIGNAL], noSubmit),
    ],
  },
  {
    id: "TIMEOUT-HARD-KILL",
    statement:
      "A timed-out child is SIGKILLed, not sent SIGTERM: a gentle-ai or pi that traps SIGTERM still ends at the bound, the relay settles with the leg's typed timeout within 3 s of it, and nothing it launched survives.",
    source:
      'gentle-pi 2.3.0 lib/review-host-relay.ts:358 and lib/opaque-pi-reviewer-adapter.ts:111 (child.kill("SIGKILL") when the timer fires); relay reference §5.1',
    profiles: RELAY_PROFILES,
    checks: [
      {
        case: C.MATERIALIZE_TIMEOUT_TRAPS_SIGTERM,
        assert: hardKilled({ kind: "materialize-failed", stage: "materialize", timeoutMs: 1500 }),
      },
      { case: C.PI_TIMEOUT_TRAPS_SIGTERM, assert: hardKilled({ kind: "pi-timed-out", stage: "pi", timeoutMs: 1500 }) },
      {
        case: C.SUBMIT_TIMEOUT_TRAPS_SIGTERM,
        assert: hardKilled({ kind: "submission-refused", stage: "submit", timeoutMs: 3000 }),
      },
    ],
  },
  {
    id: "NO-ORPHANS",
    statement: "No process the relay launched outlives the relay call (timeouts, signals, aborts).",
    source: "gentle-pi 2.3.0; relay reference §5.1",
    profiles: RELAY_PROFILES,
    checks: each(
      [C.MATERIALIZE_TIMEOUT, C.PI_TIMEOUT_FIRES, C.SUBMIT_TIMEOUT, C.ABORT_DURING_PI, C.ABORT_DURING_SUBMIT],
      (run) => eq(run.survivors, [], "processes alive after the relay returned"),
    ),
  },
];
