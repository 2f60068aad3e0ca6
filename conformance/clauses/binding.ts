// Argument and submission-form checks that run before any process starts (relay reference §6, §10.1).
import * as C from "./cases.ts";
import {
  ALL_PROFILES,
  DEV_BINARY_ENV,
  EMPTY_TOKEN_MESSAGE,
  RELAY_PROFILES,
  LOCATION_RANGE_MESSAGE,
  MISSING_FORM_MESSAGE,
  noSlotMessage,
  valueCountMessage,
} from "./common.ts";
import { eq, legs, need, NOTHING_RAN, nothingLaunched, plainError, relayError, resolved, thrown } from "./expect.ts";
import type { CaseCheck, CaseDef, CaseRun, Clause } from "./types.ts";

const source = "gentle-pi 2.3.0 lib/review-host-relay.ts (df5e66fc); relay reference §6, §10.1";

/** The binding-stage error with all details at their defaults. */
function mismatch(message: string) {
  return (run: CaseRun): void => {
    relayError(run, {
      kind: "submission-contract-mismatch",
      stage: "binding",
      message,
      ...NOTHING_RAN,
    });
  };
}
const each = (cases: readonly CaseDef[], assert: (run: CaseRun) => void): CaseCheck[] =>
  cases.map((c) => ({ case: c, assert }));

const FORM_CASES = [
  C.FORM_MISSING,
  C.FORM_EMPTY_OPERATION,
  C.FORM_NO_ARGUMENTS,
  C.FORM_EMPTY_ARGUMENT,
  C.FORM_ZERO_VALUES,
  C.FORM_TWO_VALUES,
  C.FORM_LOCATION_NEGATIVE,
  C.FORM_LOCATION_PAST_END,
  C.FORM_LOCATION_FRACTION,
  C.FORM_LOCATION_NAN,
  C.FORM_NO_PLACEHOLDER,
  C.FORM_SEVERAL_DEFECTS,
];

export const BINDING_CLAUSES: readonly Clause[] = [
  {
    id: "CAPTURE-TOKENS-REQUIRED",
    statement:
      'Empty captureArgumentTokens throw TypeError("Pi host relay requires the provider-issued capture tokens"), and tokens that are no array a TypeError, before any launch.',
    source: "gentle-pi 2.3.0; relay reference §6 step 1",
    profiles: ALL_PROFILES,
    checks: [
      {
        case: C.NO_TOKENS,
        assert: (r) => (
          plainError(r, "TypeError", "Pi host relay requires the provider-issued capture tokens"),
          nothingLaunched(r)
        ),
      },
      // Not an array: a TypeError before any launch; its text is the runtime's in gentle-pi (`tokens.some is not a
      // function`).
      { case: C.TOKENS_NOT_ARRAY, assert: (r) => (eq(thrown(r).name, "TypeError", "error name"), nothingLaunched(r)) },
    ],
  },
  {
    id: "CAPTURE-TOKENS-NONEMPTY",
    statement:
      'An empty or non-string capture token throws TypeError("Pi host relay capture tokens must all be non-empty strings") before any launch.',
    source: "gentle-pi 2.3.0; relay reference §6 step 1",
    profiles: ALL_PROFILES,
    checks: each(
      [C.EMPTY_TOKEN, C.NON_STRING_TOKEN],
      (r) => (
        plainError(r, "TypeError", "Pi host relay capture tokens must all be non-empty strings"),
        nothingLaunched(r)
      ),
    ),
  },
  {
    id: "GENTLE-AI-PATH-ABSOLUTE",
    statement:
      'A relative gentleAiExecutable throws TypeError("Pi host relay requires an absolute gentle-ai executable path") before any launch.',
    source: "gentle-pi 2.3.0; relay reference §6 step 3",
    profiles: ALL_PROFILES,
    checks: [
      {
        case: C.RELATIVE_GENTLE_AI,
        assert: (r) => (
          plainError(r, "TypeError", "Pi host relay requires an absolute gentle-ai executable path"),
          nothingLaunched(r)
        ),
      },
    ],
  },
  {
    id: "DEV-BINARY-OVERRIDE",
    statement: `Without gentleAiExecutable, the relay runs the gentle-ai that ${DEV_BINARY_ENV} names (an absolute path), for both gentle-ai legs.`,
    source:
      "gentle-pi 2.2.0 lib/gentle-ai-binary.ts (resolveGentleAiBinary, the devbinary lane); relay reference §6 step 3",
    profiles: RELAY_PROFILES,
    checks: [
      {
        case: C.DEV_BINARY_OVERRIDE,
        assert: (run) => {
          resolved(run);
          const l = legs(run);
          need(l.materialize, "materialize");
          need(l.submit, "submit");
          eq(l.gentleAi.length, 2, "gentle-ai launches");
        },
      },
    ],
  },
  {
    id: "FORM-MISSING",
    statement:
      "An absent submission form fails submission-contract-mismatch/binding with REVIEW_HOST_RELAY_SUBMISSION_MISSING_MESSAGE; the host never synthesizes a form.",
    source,
    profiles: ALL_PROFILES,
    checks: [{ case: C.FORM_MISSING, assert: mismatch(MISSING_FORM_MESSAGE) }],
  },
  {
    id: "FORM-EMPTY-TOKEN",
    statement:
      "An empty operation token, no argument tokens, or an empty or non-string argument token fails with the empty-token mismatch text.",
    source,
    profiles: ALL_PROFILES,
    checks: each(
      [C.FORM_EMPTY_OPERATION, C.FORM_NO_ARGUMENTS, C.FORM_EMPTY_ARGUMENT, C.FORM_NON_STRING_ARGUMENT],
      mismatch(EMPTY_TOKEN_MESSAGE),
    ),
  },
  {
    id: "FORM-ONE-VALUE",
    statement:
      'A form binding other than exactly one value fails "…must bind exactly one artifact value, received ${n}".',
    source,
    profiles: ALL_PROFILES,
    checks: [
      { case: C.FORM_ZERO_VALUES, assert: mismatch(valueCountMessage(0)) },
      { case: C.FORM_TWO_VALUES, assert: mismatch(valueCountMessage(2)) },
    ],
  },
  {
    id: "FORM-LOCATION-RANGE",
    statement:
      "A substitution location that is not a safe integer in [0, tokens) fails with the out-of-range mismatch text.",
    source,
    profiles: ALL_PROFILES,
    checks: each(
      [C.FORM_LOCATION_NEGATIVE, C.FORM_LOCATION_PAST_END, C.FORM_LOCATION_FRACTION, C.FORM_LOCATION_NAN],
      mismatch(LOCATION_RANGE_MESSAGE),
    ),
  },
  {
    id: "FORM-LOCATION-PLACEHOLDER",
    statement:
      'A location token without {{value}} fails "…the submission token at location ${loc} carries no {{value}} slot".',
    source,
    profiles: ALL_PROFILES,
    checks: [{ case: C.FORM_NO_PLACEHOLDER, assert: mismatch(noSlotMessage(0)) }],
  },
  {
    id: "FORM-CHECK-ORDER",
    statement: "Form checks run in contract order: the first violated check decides the message.",
    source,
    profiles: ALL_PROFILES,
    checks: [{ case: C.FORM_SEVERAL_DEFECTS, assert: mismatch(EMPTY_TOKEN_MESSAGE) }],
  },
  {
    id: "FORM-VALIDATED-BEFORE-LAUNCH",
    statement: "Every invalid form is rejected before any process starts (empty transcript).",
    source,
    profiles: ALL_PROFILES,
    checks: each(FORM_CASES, nothingLaunched),
  },
];
