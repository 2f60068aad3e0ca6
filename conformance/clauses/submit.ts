// Leg C: staging, substitution, outcome rules, no retry (relay reference §4, §10, §13).
import { basename, dirname } from "node:path";
import * as C from "./cases.ts";
import { expectedSubmitArgv, RELAY_PROFILES, STAGING_PREFIX, stagedPathIn } from "./common.ts";
import { HANDSHAKE_VALUE } from "../contract/provider.ts";
import { bytesEq, eq, fail, legs, need, ok, relayError, resolved, show, stderrOf, stdoutOf } from "./expect.ts";
import type { CaseCheck, CaseDef, CaseRun, Clause } from "./types.ts";
import { blobBytes } from "./transcript.ts";

const each = (cases: readonly CaseDef[], assert: (run: CaseRun) => void): CaseCheck[] =>
  cases.map((c) => ({ case: c, assert }));
const REFUSED = "gentle-ai refused the relayed capture submission";

type Form = { operationToken: string; argumentTokens: string[]; values: { substitutionLocation: number }[] };

/** The staged path the relay put in the submit argv. */
export function stagedPath(run: CaseRun): string {
  const submit = need(legs(run).submit, "submit");
  for (const token of submit.argv) {
    const path = stagedPathIn(token, run.tmp);
    if (path) return path;
  }
  fail(
    `no <TMPDIR>/${STAGING_PREFIX}XXXXXX/result.raw path in submit argv ${JSON.stringify(submit.argv).slice(0, 300)}`,
  );
}

const submitArgv = (run: CaseRun): void => {
  const form = run.request.submission as Form;
  eq(need(legs(run).submit, "submit").argv, expectedSubmitArgv(form, stagedPath(run)), "submit argv");
};

const fileExact = (run: CaseRun): void => {
  const l = legs(run);
  const file = need(l.submit, "submit").files.find((f) => f.path === stagedPath(run));
  if (!file) fail("the provider read no staged file at the substituted path");
  bytesEq(blobBytes(file), stdoutOf(need(l.pi, "pi")), "staged result bytes vs pi stdout");
};

/** Submit-stage refusal with the child's details. */
function submitRefusal(message: string | ((run: CaseRun) => string), mutationOutcome: "none" | "unknown") {
  return (run: CaseRun): void => {
    const submit = need(legs(run).submit, "submit");
    const stderr = stderrOf(submit).toString("utf8");
    relayError(run, {
      kind: "submission-refused",
      stage: "submit",
      message: typeof message === "string" ? message : message(run),
      mutationOutcome,
      exitCode: submit.exit.code,
      stderr,
      timedOut: false,
      elapsedMs: "number",
    });
  };
}
const trimmedStderr = (run: CaseRun): string =>
  stderrOf(need(legs(run).submit, "submit"))
    .toString("utf8")
    .trim();

/** Exactly one call per leg: no retry, no second submit. */
export function oncePerLeg(run: CaseRun): void {
  eq(
    run.transcript.map((e) => e.program),
    ["gentle-ai", "pi", "gentle-ai"],
    "launch sequence",
  );
}

export const SUBMIT_CLAUSES: readonly Clause[] = [
  {
    id: "SUBMIT-ARGV-EXACT",
    statement:
      "Leg C runs `gentle-ai review <operationToken> <argumentTokens…>` with only the location token changed: every {{value}} in it becomes the staged path; decoys elsewhere stay verbatim.",
    source: "gentle-pi 2.3.0 (df5e66fc); relay reference §10.3",
    profiles: RELAY_PROFILES,
    checks: each([C.HAPPY, C.DECOY_FORM], submitArgv),
  },
  {
    id: "FORM-FIELDS-NOT-OVERCHECKED",
    statement: "The relay does not check slot, domain, schema, operation name or placeholders in other tokens.",
    source: "gentle-pi 2.3.0; relay reference §10.1",
    profiles: RELAY_PROFILES,
    checks: [{ case: C.DECOY_FORM, assert: (run) => void resolved(run) }],
  },
  {
    id: "SUBMIT-CWD-HANDSHAKE",
    statement: "Leg C runs in targetCwd with the handshake, like leg A.",
    source: "gentle-pi 2.3.0; relay reference §10.3",
    profiles: RELAY_PROFILES,
    checks: [
      {
        case: C.HAPPY,
        assert: (run) => {
          const s = need(legs(run).submit, "submit");
          eq(s.cwd, run.repo, "submit cwd");
          eq(s.handshake, HANDSHAKE_VALUE, "submit handshake");
        },
      },
    ],
  },
  {
    id: "RESULT-FILE-EXACT",
    statement: "The staged file holds pi's stdout exactly: no BOM, no transcoding, no trimming.",
    source: "gentle-pi 2.3.0; relay reference §10.2",
    profiles: RELAY_PROFILES,
    checks: each([C.HAPPY, C.TRICKY_RESULT], fileExact),
  },
  {
    id: "RESULT-FILE-PATH",
    statement:
      "The staged file is <TMPDIR>/gentle-pi-host-relay-result-XXXXXX/result.raw (os.tmpdir() honours TMPDIR).",
    source: "gentle-pi 2.3.0; relay reference §10.2",
    profiles: RELAY_PROFILES,
    checks: [
      {
        case: C.HAPPY,
        assert: (run) => {
          const path = stagedPath(run);
          eq(dirname(dirname(path)), run.tmp, "staging parent");
          eq(basename(path), "result.raw", "staged file name");
        },
      },
    ],
  },
  {
    id: "RESULT-FILE-MODES",
    statement: "The staging folder is 0700 and the staged file 0600 while the submission runs.",
    source: "gentle-pi 2.3.0; relay reference §10.2",
    profiles: RELAY_PROFILES,
    checks: [
      {
        case: C.OBSERVE_STAGING,
        assert: (run) => {
          const seen = run.observations.during as
            { dirMode?: number; fileMode?: number | null; fileBytes?: string | null } | undefined;
          if (!seen)
            fail(
              `the staging folder was never observed during submit${run.observations.duringError ? `: ${String(run.observations.duringError)}` : ""}`,
            );
          eq(seen.dirMode?.toString(8), "700", "staging folder mode");
          eq(seen.fileMode?.toString(8), "600", "staged file mode");
          bytesEq(
            Buffer.from(seen.fileBytes ?? "", "base64"),
            stdoutOf(need(legs(run).pi, "pi")),
            "staged file bytes during submit",
          );
        },
      },
    ],
  },
  {
    id: "STAGING-REMOVED",
    statement: "Nothing the relay created stays in TMPDIR after it returns, on success and on every failure.",
    source: "gentle-pi 2.3.0 (d243fdda); relay reference §11",
    profiles: RELAY_PROFILES,
    checks: each(
      [
        C.HAPPY,
        C.ADMISSION_REFUSED,
        C.SUBMIT_TIMEOUT,
        C.SUBMIT_SIGNAL,
        C.PI_NONZERO,
        C.OBSERVE_STAGING,
        C.ABORT_DURING_SUBMIT,
      ],
      (run) => eq(run.leftovers, [], "TMPDIR entries left behind"),
    ),
  },
  {
    id: "RESULT-SHAPE",
    statement:
      "Success returns {promptByteLength, resultByteLength, submission}: the two lengths and the submit stdout decoded as UTF-8, unparsed.",
    source: "gentle-pi 2.3.0; relay reference §2.2",
    profiles: RELAY_PROFILES,
    checks: each([C.HAPPY, C.OPAQUE_SUBMISSION, C.TRICKY_RESULT, C.SUBMIT_STDOUT_CHUNKED], (run) => {
      const l = legs(run);
      const value = resolved(run);
      eq(
        value,
        {
          promptByteLength: need(l.materialize, "materialize").stdout.length,
          resultByteLength: need(l.pi, "pi").stdout.length,
          submission: stdoutOf(need(l.submit, "submit")).toString("utf8"),
        },
        "result",
      );
    }),
  },
  {
    id: "ADMISSION-REFUSAL-NONE",
    statement:
      "A submit exiting 1, not timed out, with [invalid_request] anywhere in stderr is submission-refused, message stderr.trim(), mutationOutcome none.",
    source: "gentle-pi 2.3.0 #522/#524 (PR #541); relay reference §4, §10.4",
    profiles: RELAY_PROFILES,
    checks: each([C.ADMISSION_REFUSED, C.SUBMIT_INVALID_REQUEST_MIDTEXT], submitRefusal(trimmedStderr, "none")),
  },
  {
    id: "ADMISSION-RULE-EXACT",
    statement: "[invalid_request] with exit 2, or only on stdout, is not the admission refusal: outcome unknown.",
    source: "gentle-pi 2.3.0 #522/#524; relay reference §10.4",
    profiles: RELAY_PROFILES,
    checks: each(
      [C.SUBMIT_INVALID_REQUEST_EXIT_2, C.SUBMIT_INVALID_REQUEST_STDOUT_ONLY],
      submitRefusal(REFUSED, "unknown"),
    ),
  },
  {
    id: "UNTYPED-REFUSAL-UNKNOWN",
    statement:
      'Other submit refusals ([capture_binding_mismatch], [reviewer_result_slot_occupied], [rdd_disabled]) are "gentle-ai refused the relayed capture submission", outcome unknown.',
    source: "gentle-pi 2.3.0; relay reference §4, §10.4, §13",
    profiles: RELAY_PROFILES,
    checks: [
      ...each([C.SUBMIT_UNTYPED, C.STALE_SUBMISSION_FORM, C.RDD_DISABLED], submitRefusal(REFUSED, "unknown")),
      {
        case: C.SLOT_OCCUPIED,
        assert: (run) => {
          const other = run.observations.during as
            { otherHostExit?: number | null; otherHostStderr?: string } | undefined;
          if (other?.otherHostExit !== 0)
            fail(`setup: the other host's capture did not land first (${show(other ?? run.observations.duringError)})`);
          ok(
            stderrOf(need(legs(run).submit, "submit"))
              .toString("utf8")
              .includes("[reviewer_result_slot_occupied]"),
            "the provider did not answer [reviewer_result_slot_occupied]",
          );
          submitRefusal(REFUSED, "unknown")(run);
        },
      },
    ],
  },
  {
    id: "SUBMIT-COULD-NOT-START",
    statement:
      'A leg-C spawn error is submission-refused "gentle-ai capture submission could not start: ${err.message}", no details, mutationOutcome unknown; the staged result is removed.',
    source: "gentle-pi 2.2.0 lib/review-host-relay.ts (runReviewHostRelaySlot, submit leg); relay reference §10.4, §11",
    profiles: RELAY_PROFILES,
    checks: [
      {
        case: C.GENTLE_AI_GONE_BEFORE_SUBMIT,
        assert: (run) => {
          relayError(run, {
            kind: "submission-refused",
            stage: "submit",
            message: `gentle-ai capture submission could not start: spawn ${run.request.gentleAiExecutable ?? ""} ENOENT`,
            mutationOutcome: "unknown",
            exitCode: null,
            stderr: "",
            timedOut: false,
            elapsedMs: null,
            timeoutMs: null,
          });
          eq(
            run.transcript.map((e) => e.program),
            ["gentle-ai", "pi"],
            "processes launched",
          );
          eq(
            run.leftovers.filter((n) => n.startsWith(STAGING_PREFIX)),
            [],
            "staging left behind",
          );
        },
      },
    ],
  },
  {
    id: "SUBMIT-EMPTY-STDOUT",
    statement:
      "A submit exiting 0 with empty stdout is refused (unknown), and a submit killed by a signal likewise (exitCode null).",
    source: "gentle-pi 2.3.0; relay reference §10.4",
    profiles: RELAY_PROFILES,
    checks: each([C.SUBMIT_EMPTY_STDOUT, C.SUBMIT_SIGNAL], submitRefusal(REFUSED, "unknown")),
  },
  {
    id: "SUBMIT-TIMEOUT",
    statement:
      'A submit past gentleAiTimeoutMs is killed: "gentle-ai capture submission exceeded its ${T}ms bound after ${E}ms", timedOut, outcome unknown.',
    source: "gentle-pi 2.3.0 #522/#524; relay reference §3, §10.4",
    profiles: RELAY_PROFILES,
    checks: [
      {
        case: C.SUBMIT_TIMEOUT,
        assert: (run) => {
          const e = relayError(run, {
            kind: "submission-refused",
            stage: "submit",
            mutationOutcome: "unknown",
            timedOut: true,
            exitCode: null,
            timeoutMs: 3000,
            elapsedMs: "number",
          });
          eq(
            e.message,
            `gentle-ai capture submission exceeded its 3000ms bound after ${String(e.elapsedMs)}ms`,
            "message",
          );
          eq(run.survivors, [], "processes alive after the relay returned");
        },
      },
    ],
  },
  {
    id: "NO-RETRY",
    statement: "The relay never retries: one materialize, one pi, at most one submit, and nothing after a failure.",
    source: "gentle-pi 2.3.0; relay reference §4",
    profiles: RELAY_PROFILES,
    checks: each(
      [
        C.HAPPY,
        C.ADMISSION_REFUSED,
        C.SUBMIT_UNTYPED,
        C.SLOT_OCCUPIED,
        C.SUBMIT_TIMEOUT,
        C.SUBMIT_SIGNAL,
        C.SUBMIT_EMPTY_STDOUT,
      ],
      oncePerLeg,
    ),
  },
  {
    id: "LEG-ORDER",
    statement: "Legs run strictly in order: materialize ends before pi starts, pi ends before submit starts.",
    source: "gentle-pi 2.3.0; relay reference §6",
    profiles: RELAY_PROFILES,
    checks: [
      {
        case: C.HAPPY,
        assert: (run) => {
          const l = legs(run);
          const spans = [need(l.materialize, "materialize"), need(l.pi, "pi"), need(l.submit, "submit")].map((e) => ({
            start: Date.parse(e.timing.startedAt),
            end: Date.parse(e.timing.startedAt) + e.timing.durationMs,
          }));
          for (let i = 1; i < spans.length; i += 1)
            ok((spans[i]?.start ?? 0) + 1 >= (spans[i - 1]?.end ?? 0), `leg ${i + 1} started before leg ${i} ended`);
        },
      },
    ],
  },
];
