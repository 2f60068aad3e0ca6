// Leg B: the opaque pi adapter and the pi bound (relay reference §5, §9).
import { basename, dirname, join } from "node:path";
import * as C from "./cases.ts";
import { derivedPiTimeoutMs, piTimeoutMessage, piTimeoutOverride, RELAY_PROFILES, SCRATCH_PREFIX } from "./common.ts";
import { PI_ARGV } from "../contract/provider.ts";
import {
  bytesEq,
  eq,
  legs,
  need,
  NOTHING_RAN,
  ok,
  relayError,
  resolved,
  show,
  stderrOf,
  stdinOf,
  stdoutOf,
  thrown,
} from "./expect.ts";
import type { CaseCheck, CaseDef, CaseRun, Clause } from "./types.ts";

const each = (cases: readonly CaseDef[], assert: (run: CaseRun) => void): CaseCheck[] =>
  cases.map((c) => ({ case: c, assert }));

/** Materialize and pi ran; submit did not. */
export function noSubmit(run: CaseRun): void {
  eq(
    run.transcript.map((e) => e.program),
    ["gentle-ai", "pi"],
    "processes launched after a failed pi leg",
  );
}

const promptLength = (run: CaseRun): number => need(legs(run).materialize, "materialize").stdout.length;

/**
 * pi exits non-zero at once: pi-failed carrying the bound the relay applied. A machine loaded past a short override
 * (1000 ms is valid) can still be starting pi when the bound passes; pi-timed-out after the whole bound, carrying the
 * same bound, shows the bound just as well.
 */
function piBound(expected: (run: CaseRun) => number) {
  return (run: CaseRun): void => {
    const timeoutMs = expected(run);
    if (thrown(run).kind !== "pi-timed-out") {
      relayError(run, { kind: "pi-failed", stage: "pi", timeoutMs });
      return;
    }
    const e = relayError(run, { kind: "pi-timed-out", stage: "pi", timedOut: true, timeoutMs, elapsedMs: "number" });
    ok(
      Number(e.elapsedMs) >= timeoutMs,
      `pi-timed-out after ${String(e.elapsedMs)}ms, before its ${timeoutMs}ms bound`,
    );
  };
}

export const PI_CLAUSES: readonly Clause[] = [
  {
    id: "PI-ARGV-FIXED",
    statement:
      "pi runs with exactly REVIEW_HOST_RELAY_PI_ARGV (--print --mode text --no-session … --no-approve): no model, provider or profile flags.",
    source: "gentle-pi main 2026-08-22 OPAQUE_PI_REVIEWER_ARGV; relay reference §1, §9",
    profiles: RELAY_PROFILES,
    checks: [{ case: C.HAPPY, assert: (run) => eq(need(legs(run).pi, "pi").argv, [...PI_ARGV], "pi argv") }],
  },
  {
    id: "PI-STDIN-EXACT",
    statement: "pi's stdin is the materialized prompt, byte for byte.",
    source: "gentle-pi main 2026-08-22 lib/opaque-pi-reviewer-adapter.ts; relay reference §9",
    profiles: RELAY_PROFILES,
    checks: each([C.HAPPY, C.TRICKY_PROMPT], (run) => {
      const l = legs(run);
      bytesEq(stdinOf(need(l.pi, "pi")), stdoutOf(need(l.materialize, "materialize")), "pi stdin");
    }),
  },
  {
    id: "PI-SCRATCH-CWD",
    statement:
      "pi runs in an empty private scratch folder <TMPDIR>/gentle-pi-opaque-reviewer-XXXXXX, removed afterwards.",
    source: "gentle-pi main 2026-08-22 lib/opaque-pi-reviewer-adapter.ts; relay reference §9",
    profiles: RELAY_PROFILES,
    checks: each([C.HAPPY, C.PI_NONZERO], (run) => {
      const pi = need(legs(run).pi, "pi");
      eq(dirname(pi.cwd), run.tmp, "pi cwd parent (TMPDIR)");
      ok(basename(pi.cwd).startsWith(SCRATCH_PREFIX), `pi cwd ${pi.cwd} lacks the ${SCRATCH_PREFIX} prefix`);
      eq(pi.cwdListing ?? [], [], "pi scratch folder contents at launch");
      eq(
        run.leftovers.filter((n) => n.startsWith(SCRATCH_PREFIX)),
        [],
        "scratch folders left in TMPDIR",
      );
    }),
  },
  {
    id: "PI-FAILED",
    statement:
      'pi exiting non-zero or by signal is pi-failed "pi subprocess failed" with its exitCode (null on signal) and UTF-8 stderr; submit never starts.',
    source: "gentle-pi 2.3.0; relay reference §3, §9",
    profiles: RELAY_PROFILES,
    checks: each([C.PI_NONZERO, C.PI_SIGNAL], (run) => {
      const pi = need(legs(run).pi, "pi");
      relayError(run, {
        kind: "pi-failed",
        stage: "pi",
        message: "pi subprocess failed",
        mutationOutcome: "none",
        exitCode: pi.exit.code,
        stderr: stderrOf(pi).toString("utf8"),
        timedOut: false,
      });
      noSubmit(run);
    }),
  },
  {
    id: "PI-EMPTY-OUTPUT",
    statement:
      'pi exiting 0 with no stdout is pi-empty-output "pi subprocess produced no output bytes"; submit never starts.',
    source: "gentle-pi 2.3.0; relay reference §3, §9",
    profiles: RELAY_PROFILES,
    checks: [
      {
        case: C.PI_EMPTY,
        assert: (run) => {
          relayError(run, {
            kind: "pi-empty-output",
            stage: "pi",
            message: "pi subprocess produced no output bytes",
            mutationOutcome: "none",
            exitCode: 0,
          });
          noSubmit(run);
        },
      },
    ],
  },
  {
    id: "PI-DEFAULT-EXECUTABLE",
    statement: 'Without piExecutable the relay runs "pi", found on the PATH of the environment pi gets.',
    source: 'gentle-pi 2.2.0 lib/opaque-pi-reviewer-adapter.ts (`options.piExecutable ?? "pi"`); relay reference §7',
    profiles: RELAY_PROFILES,
    checks: [
      {
        case: C.PI_DEFAULT_EXECUTABLE,
        assert: (run) => {
          resolved(run);
          eq(
            run.transcript.map((e) => e.program),
            ["gentle-ai", "pi", "gentle-ai"],
            "processes recorded",
          );
        },
      },
    ],
  },
  {
    id: "PI-SCRATCH-FAILED",
    statement:
      'A pi scratch folder that cannot be made is pi-launch-failed "pi subprocess could not start: Pi scratch directory could not be prepared: ${err.message}", no details, and pi never starts.',
    source: "gentle-pi 2.2.0 lib/opaque-pi-reviewer-adapter.ts (SCRATCH_FAILED); relay reference §7, §9",
    profiles: RELAY_PROFILES,
    checks: [
      {
        case: C.PI_SCRATCH_UNAVAILABLE,
        assert: (run) => {
          const error = relayError(run, {
            kind: "pi-launch-failed",
            stage: "pi",
            ...NOTHING_RAN,
          });
          // Node's message names the path mkdtemp tried, random suffix included.
          const path = `${join(dirname(run.tmp), "no-such-tmp", SCRATCH_PREFIX)}`;
          const want = `pi subprocess could not start: Pi scratch directory could not be prepared: ENOENT: no such file or directory, mkdtemp '${path}`;
          ok(
            error.message.startsWith(want) && /^[A-Za-z0-9]{6}'$/.test(error.message.slice(want.length)),
            `message: expected ${show(`${want}XXXXXX'`)}, got ${show(error.message)}`,
          );
          eq(
            run.transcript.map((e) => e.program),
            ["gentle-ai"],
            "processes recorded",
          );
        },
      },
    ],
  },
  {
    id: "PI-LAUNCH-FAILED",
    statement:
      'An unlaunchable pi is pi-launch-failed "pi subprocess could not start: Pi process could not start: ${err.message}".',
    source: "gentle-pi 2.3.0; relay reference §3, §9",
    profiles: RELAY_PROFILES,
    checks: [
      {
        case: C.PI_MISSING,
        assert: (run) => {
          relayError(run, {
            kind: "pi-launch-failed",
            stage: "pi",
            message: `pi subprocess could not start: Pi process could not start: spawn ${run.request.piExecutable ?? ""} ENOENT`,
            ...NOTHING_RAN,
          });
          eq(
            run.transcript.map((e) => e.program),
            ["gentle-ai"],
            "processes recorded",
          );
        },
      },
    ],
  },
  {
    id: "PI-WHITESPACE-RELAYED",
    statement:
      "Whitespace-only pi output is non-empty, so it is relayed; the provider's typed refusal comes back as submission-refused/none.",
    source: "gentle-pi 2.3.0; relay reference §13",
    profiles: RELAY_PROFILES,
    checks: [
      {
        case: C.PI_WHITESPACE,
        assert: (run) => {
          const submit = need(legs(run).submit, "submit");
          const stderr = stderrOf(submit).toString("utf8");
          relayError(run, {
            kind: "submission-refused",
            stage: "submit",
            message: stderr.trim(),
            mutationOutcome: "none",
            exitCode: 1,
          });
        },
      },
    ],
  },
  {
    id: "PI-STDERR-DROPPED",
    statement: "pi's stderr never reaches the submitted bytes: only stdout is relayed.",
    source: "gentle-pi main 2026-08-22 lib/opaque-pi-reviewer-adapter.ts; relay reference §9",
    profiles: RELAY_PROFILES,
    checks: [
      {
        case: C.PI_STDERR_NOISE,
        assert: (run) => {
          const l = legs(run);
          const file = need(l.submit, "submit").files[0];
          ok(file !== undefined, "submit read no staged file");
          eq(file?.sha256, need(l.pi, "pi").stdout.sha256, "staged file digest vs pi stdout");
        },
      },
    ],
  },
  {
    id: "PI-TIMEOUT-DERIVED",
    statement:
      "The pi bound is min(900000 + ceil(bytes/1048576 × 900000), 7200000) ms for the materialized prompt length.",
    source: "gentle-pi #367 (b3475557); relay reference §5.2",
    profiles: RELAY_PROFILES,
    checks: [
      ...C.PROMPT_SIZE_CASES.map((c, i) => ({
        case: c,
        assert: (run: CaseRun) => (
          eq(promptLength(run), C.PROMPT_SIZES[i], "prompt length"),
          piBound((r) => derivedPiTimeoutMs(promptLength(r)))(run)
        ),
      })),
      { case: C.PI_NONZERO, assert: piBound((r) => derivedPiTimeoutMs(promptLength(r))) },
    ],
  },
  {
    id: "PI-TIMEOUT-ENV-OVERRIDE",
    statement:
      "GENTLE_PI_REVIEW_RELAY_PI_TIMEOUT_MS matching /^[1-9]\\d*$/ replaces the bound (clamped to 7200000, may go below the floor); a hung pi is then SIGKILLed at it: pi-timed-out with the exact message.",
    source: "gentle-pi #367 (b3475557); relay reference §5.2, §5.3",
    profiles: RELAY_PROFILES,
    checks: [
      ...C.ENV_VALID_CASES.map((c, i) => ({ case: c, assert: piBound(() => piTimeoutOverride(C.ENV_VALID[i]) ?? -1) })),
      {
        case: C.PI_TIMEOUT_FIRES,
        assert: (run) => {
          const e = relayError(run, {
            kind: "pi-timed-out",
            stage: "pi",
            mutationOutcome: "none",
            exitCode: null,
            timedOut: true,
            timeoutMs: 1500,
            elapsedMs: "number",
          });
          eq(e.message, piTimeoutMessage(Number(e.elapsedMs), 1500, promptLength(run)), "message");
          eq(run.survivors, [], "processes alive after the relay returned");
          ok(
            run.transcript.filter((t) => t.program === "gentle-ai").length === 1,
            "submit launched after a pi timeout",
          );
        },
      },
    ],
  },
  {
    id: "PI-TIMEOUT-ENV-IGNORED",
    statement:
      'Override values not matching /^[1-9]\\d*$/ or not safe integers ("", "0", "12.5", padded, "007", 20 digits) are ignored silently: the derived bound applies.',
    source: "gentle-pi #367; relay reference §5.2",
    profiles: RELAY_PROFILES,
    checks: C.ENV_IGNORED_CASES.map((c) => ({ case: c, assert: piBound((r) => derivedPiTimeoutMs(promptLength(r))) })),
  },
  {
    id: "PI-TIMEOUT-ENV-SOURCE",
    statement:
      "The override is read from request.environment (when given), not from the relay process's own environment.",
    source: "gentle-pi #367; relay reference §5.2",
    profiles: RELAY_PROFILES,
    checks: [
      { case: C.ENV_FROM_REQUEST, assert: piBound(() => 4321) },
      { case: C.ENV_FROM_PROCESS_ONLY, assert: piBound((r) => derivedPiTimeoutMs(promptLength(r))) },
    ],
  },
  {
    id: "PI-TIMEOUT-PRECEDENCE",
    statement: "request.piTimeoutMs beats the environment override, which beats the derived bound.",
    source: "gentle-pi #367; relay reference §5.2",
    profiles: RELAY_PROFILES,
    checks: [{ case: C.PI_TIMEOUT_REQUEST_WINS, assert: piBound(() => 5555) }],
  },
];
