// The module's pure exports (relay reference §1, §5, §8, §10.4), checked in one probe; absent exports skip.
import type { ProbeResult } from "../process/protocol.ts";
import {
  ALL_PROFILES,
  DEV_BINARY_ENV,
  derivedPiTimeoutMs,
  EMPTY_TOKEN_MESSAGE,
  HANDSHAKE_REFUSAL_V240,
  MISSING_FORM_MESSAGE,
  PI_BOUND_TABLE,
  piTimeoutMessage,
  UNAVAILABLE_MESSAGE,
} from "./common.ts";
import { PI_ARGV } from "../contract/provider.ts";
import { eq, fail, show } from "./expect.ts";
import { SkipCheck, type Clause, type ProbeView } from "./types.ts";

const source = "gentle-pi 2.3.0 lib/review-host-relay.ts exports; relay reference §1";

function needExport(view: ProbeView, name: string, type: string): void {
  if (!(name in view.exports)) throw new SkipCheck(`optional export ${name} absent`);
  eq(view.exports[name], type, `typeof ${name}`);
}

function callValue(result: ProbeResult | undefined, what: string): unknown {
  if (!result) fail(`${what}: no probe result`);
  if (!result.ok) fail(`${what} threw ${result.error.name}: ${result.error.message}`);
  return result.value;
}

// Numbers JSON cannot carry travel as {"$number": …}; process/adapter-child.ts decodes them.
const wireNumber = (n: number): number | { $number: string } => (Number.isFinite(n) ? n : { $number: String(n) });
const ENV_TABLE: readonly [string, number][] = [
  ["1000", 1000],
  ["9999999", 7200000],
  ["600000", 600000],
  ...["", "0", "-1", "12.5", "abc", " 600000", "600000 ", "1e6", "007", "99999999999999999999"].map(
    (v): [string, number] => [v, 900859],
  ),
];
const CLASSIFY_TABLE: readonly [string, string][] = [
  ["Error: flag provided but not defined: -agent", "unknown-flag"],
  ["flag provided but not defined: --materialize\n", "unknown-flag"],
  ["flag provided but not defined: -agents", "other"],
  [HANDSHAKE_REFUSAL_V240, "handshake"],
  ["GENTLE_PI_REVIEW_RELAY_CONTRACT", "handshake"],
  ["gentle-pi.review-relay/v1", "handshake"],
  ["gentle-pi-review-relay/v1", "other"],
  ["NOT ELIGIBLE FOR IMMUTABLE RECEIPT REVIEW", "other"],
  ["the active runtime lacks immutable receipt-review transport", "other"],
  ["flag provided but not defined: -agent; not eligible for immutable receipt review", "unknown-flag"],
];
const ADMISSION_TABLE: readonly [{ exitCode: number | null; timedOut: boolean }, string, boolean][] = [
  [{ exitCode: 1, timedOut: false }, "Error: x [invalid_request]\n", true],
  [{ exitCode: 1, timedOut: false }, "a [invalid_request] b", true],
  [{ exitCode: 2, timedOut: false }, "Error: x [invalid_request]", false],
  [{ exitCode: 1, timedOut: true }, "Error: x [invalid_request]", false],
  [{ exitCode: null, timedOut: false }, "[invalid_request]", false],
  [{ exitCode: 1, timedOut: false }, "Error: x [capture_binding_mismatch]", false],
  [{ exitCode: 1, timedOut: false }, "invalid_request", false],
];

export const API_CLAUSES: readonly Clause[] = [
  {
    id: "API-PI-ARGV",
    statement: "REVIEW_HOST_RELAY_PI_ARGV is the frozen 11-flag pi argv.",
    source,
    profiles: ALL_PROFILES,
    checks: [
      {
        probe: [],
        verify: (view) => {
          needExport(view, "REVIEW_HOST_RELAY_PI_ARGV", "object");
          eq(view.values.REVIEW_HOST_RELAY_PI_ARGV, [...PI_ARGV], "REVIEW_HOST_RELAY_PI_ARGV");
          eq(view.frozen.REVIEW_HOST_RELAY_PI_ARGV, true, "REVIEW_HOST_RELAY_PI_ARGV frozen");
        },
      },
    ],
  },
  {
    id: "API-FAILURE-KINDS",
    statement: "REVIEW_HOST_RELAY_FAILURE holds the ten kinds, keys in declared order.",
    source: `${source}, §3`,
    profiles: ALL_PROFILES,
    checks: [
      {
        probe: [],
        verify: (view) => {
          needExport(view, "REVIEW_HOST_RELAY_FAILURE", "object");
          eq(
            JSON.stringify(view.values.REVIEW_HOST_RELAY_FAILURE),
            JSON.stringify({
              RELAY_UNAVAILABLE: "relay-unavailable",
              HANDSHAKE_REFUSED: "handshake-refused",
              SUBMISSION_CONTRACT_MISMATCH: "submission-contract-mismatch",
              MATERIALIZE_FAILED: "materialize-failed",
              EMPTY_PROMPT: "empty-prompt",
              PI_LAUNCH_FAILED: "pi-launch-failed",
              PI_FAILED: "pi-failed",
              PI_TIMED_OUT: "pi-timed-out",
              PI_EMPTY_OUTPUT: "pi-empty-output",
              SUBMISSION_REFUSED: "submission-refused",
            }),
            "REVIEW_HOST_RELAY_FAILURE",
          );
        },
      },
    ],
  },
  {
    id: "API-CONSTANTS",
    statement: "Message, slot, env and bound constants have their exact values.",
    source,
    profiles: ALL_PROFILES,
    checks: [
      {
        probe: [],
        verify: (view) => {
          const expected: Record<string, unknown> = {
            REVIEW_HOST_RELAY_UNAVAILABLE_MESSAGE: UNAVAILABLE_MESSAGE,
            REVIEW_HOST_RELAY_SUBMISSION_VALUE_SLOT: "{{value}}",
            REVIEW_HOST_RELAY_SUBMISSION_MISSING_MESSAGE: MISSING_FORM_MESSAGE,
            REVIEW_HOST_RELAY_PI_TIMEOUT_ENV: "GENTLE_PI_REVIEW_RELAY_PI_TIMEOUT_MS",
            REVIEW_HOST_RELAY_PI_TIMEOUT_FLOOR_MS: 900000,
            REVIEW_HOST_RELAY_PI_TIMEOUT_PER_MEBIBYTE_MS: 900000,
            REVIEW_HOST_RELAY_PI_TIMEOUT_MAX_MS: 7200000,
            // The session override gentle-pi's devbinary lane sets (a mutant of our relay emptied it unnoticed).
            GENTLE_PI_GENTLE_AI_DEV_BINARY_ENV: DEV_BINARY_ENV,
          };
          const present = Object.keys(expected).filter((k) => k in view.values);
          if (present.length === 0) throw new SkipCheck("no constant exports");
          for (const k of present) eq(view.values[k], expected[k], k);
        },
      },
    ],
  },
  {
    id: "API-PI-TIMEOUT-DERIVATION",
    statement: "resolveReviewHostRelayPiTimeoutMs reproduces the #367 table and the override rules (env argument).",
    source: "gentle-pi #367; relay reference §5.2",
    profiles: ALL_PROFILES,
    checks: [
      {
        probe: [
          ...PI_BOUND_TABLE.map(([bytes]) => ({
            fn: "resolveReviewHostRelayPiTimeoutMs",
            args: [wireNumber(bytes), {}],
          })),
          ...ENV_TABLE.map(([value]) => ({
            fn: "resolveReviewHostRelayPiTimeoutMs",
            args: [1000, { GENTLE_PI_REVIEW_RELAY_PI_TIMEOUT_MS: value }],
          })),
        ],
        verify: (view, results) => {
          needExport(view, "resolveReviewHostRelayPiTimeoutMs", "function");
          PI_BOUND_TABLE.forEach(([bytes, want], i) =>
            eq(callValue(results[i], `resolve(${bytes})`), want, `bound for ${bytes} bytes`),
          );
          ENV_TABLE.forEach(([value, want], i) =>
            eq(
              callValue(results[PI_BOUND_TABLE.length + i], `resolve(1000, env=${show(value)})`),
              want,
              `bound with override ${show(value)}`,
            ),
          );
          eq(derivedPiTimeoutMs(1000), 900859, "harness derivation self-check");
        },
      },
    ],
  },
  {
    id: "API-PI-TIMEOUT-MESSAGE",
    statement: "reviewHostRelayPiTimeoutMessage renders the exact §5.3 text.",
    source: "gentle-pi #367; relay reference §5.3",
    profiles: ALL_PROFILES,
    checks: [
      {
        probe: [{ fn: "reviewHostRelayPiTimeoutMessage", args: [901234, 900000, 42] }],
        verify: (view, results) => {
          needExport(view, "reviewHostRelayPiTimeoutMessage", "function");
          eq(callValue(results[0], "reviewHostRelayPiTimeoutMessage"), piTimeoutMessage(901234, 900000, 42), "message");
        },
      },
    ],
  },
  {
    id: "API-CLASSIFY-REFUSAL",
    statement: "classifyReviewHostRelayRefusal applies the unknown-flag regex, then the handshake regex, else other.",
    source: "gentle-pi 2.3.0; relay reference §8",
    profiles: ALL_PROFILES,
    checks: [
      {
        probe: CLASSIFY_TABLE.map(([stderr]) => ({ fn: "classifyReviewHostRelayRefusal", args: [stderr] })),
        verify: (view, results) => {
          needExport(view, "classifyReviewHostRelayRefusal", "function");
          CLASSIFY_TABLE.forEach(([stderr, want], i) =>
            eq(callValue(results[i], "classify"), want, `classify(${show(stderr, 60)})`),
          );
        },
      },
    ],
  },
  {
    id: "API-ADMISSION-REFUSAL",
    statement: "isReviewHostRelayAdmissionRefusal is exitCode === 1 && !timedOut && /\\[invalid_request\\]/ on stderr.",
    source: "gentle-pi 2.3.0 #522/#524; relay reference §10.4",
    profiles: ALL_PROFILES,
    checks: [
      {
        probe: ADMISSION_TABLE.map(([capture, stderr]) => ({
          fn: "isReviewHostRelayAdmissionRefusal",
          args: [capture, stderr],
        })),
        verify: (view, results) => {
          needExport(view, "isReviewHostRelayAdmissionRefusal", "function");
          ADMISSION_TABLE.forEach(([capture, stderr, want], i) =>
            eq(
              callValue(results[i], "isReviewHostRelayAdmissionRefusal"),
              want,
              `admission(${show(capture)}, ${show(stderr, 40)})`,
            ),
          );
        },
      },
    ],
  },
  {
    id: "API-RESOLVE-SUBMISSION",
    statement:
      "resolveReviewHostRelaySubmission returns {operationToken, argumentTokens, substitutionLocation} and throws the binding mismatch for a bad form.",
    source: "gentle-pi 2.3.0; relay reference §1, §10.1",
    profiles: ALL_PROFILES,
    checks: [
      {
        probe: [
          {
            fn: "resolveReviewHostRelaySubmission",
            args: [
              {
                operationToken: "capture-result",
                argumentTokens: ["--a=1", "--input={{value}}"],
                values: [{ slot: "s", domain: "d", substitutionLocation: 1 }],
              },
            ],
          },
          {
            fn: "resolveReviewHostRelaySubmission",
            args: [{ operationToken: "", argumentTokens: ["--input={{value}}"], values: [] }],
          },
        ],
        verify: (view, results) => {
          needExport(view, "resolveReviewHostRelaySubmission", "function");
          eq(
            callValue(results[0], "resolve(valid)"),
            {
              operationToken: "capture-result",
              argumentTokens: ["--a=1", "--input={{value}}"],
              substitutionLocation: 1,
            },
            "binding",
          );
          const bad = results[1];
          if (!bad || bad.ok) fail("an empty operation token was accepted");
          eq(bad.error, { name: "ReviewHostRelayError", message: EMPTY_TOKEN_MESSAGE }, "thrown error");
        },
      },
    ],
  },
];
