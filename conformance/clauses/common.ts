// Shared building blocks of the catalogue: profile sets, fault rules, the contract's exact texts and numbers.
import type { FaultRule } from "../../simulator/scenario/fault-schema.ts";
import type { Profile } from "../../simulator/scenario/schema.ts";
import type { CaseDef } from "./types.ts";

export const ALL_PROFILES: readonly Profile[] = ["2.3.0", "2.4.0", "2.5.0"];
/** Providers with the relay surface (v2.4.0+): the full A→B→C path runs. */
export const RELAY_PROFILES: readonly Profile[] = ["2.4.0", "2.5.0"];
/** Pre-relay provider (gentle-ai 2.3.0, ≤ rc.1): `--agent` is an undefined flag. */
export const PRE_RELAY: readonly Profile[] = ["2.3.0"];

/** A fault as written in a scenario (the simulator validates it when it loads the scenario). */
export type FaultSpec = { readonly kind: string } & Readonly<Record<string, unknown>>;
const rule = (r: Record<string, unknown>): FaultRule => r as unknown as FaultRule;
/** A fault on leg A (materialize). */
export const onMaterialize = (fault: FaultSpec): FaultRule => rule({ program: "gentle-ai", leg: "materialize", fault });
/** A fault on leg C (submit). */
export const onSubmit = (fault: FaultSpec): FaultRule => rule({ program: "gentle-ai", leg: "submit", fault });
/** A fault on pi. */
export const onPi = (fault: FaultSpec): FaultRule => rule({ program: "pi", fault });
/** A fault on every gentle-ai call of one verb (generated forms have no --input leg marker). */
export const onVerb = (verb: string, fault: FaultSpec): FaultRule => rule({ program: "gentle-ai", verb, fault });
/** Scenario bytes from UTF-8 text. */
export const text = (t: string): { text: string } => ({ text: t });
/** Scenario bytes from a Buffer. */
export const base64 = (b: Buffer): { base64: string } => ({ base64: b.toString("base64") });

/** Declares a case (identity function that fixes the type). */
export const defineCase = (def: CaseDef): CaseDef => def;

export const PI_TIMEOUT_ENV = "GENTLE_PI_REVIEW_RELAY_PI_TIMEOUT_MS";
/**
 * The session override naming the gentle-ai binary a relay runs when the request names none (gentle-pi
 * lib/gentle-ai-binary.ts).
 */
export const DEV_BINARY_ENV = "GENTLE_PI_GENTLE_AI_DEV_BINARY";
export const DEFAULT_GENTLE_AI_TIMEOUT_MS = 120_000;
export const UNAVAILABLE_MESSAGE = "provider relay requires a gentle-ai build with the pi host relay surface";
export const MISSING_FORM_MESSAGE =
  "provider contract mismatch: the materialize capture input carries no provider-owned submission form; the host never synthesizes the completing form";
export const EMPTY_TOKEN_MESSAGE =
  "provider contract mismatch: the submission form carries an empty operation or argument token";
/** §10.1 check 3 text. */
export const valueCountMessage = (n: number): string =>
  `provider contract mismatch: the submission form must bind exactly one artifact value, received ${n}`;
export const LOCATION_RANGE_MESSAGE =
  "provider contract mismatch: the submission substitution location is outside its argument tokens";
/** §10.1 check 5 text. */
export const noSlotMessage = (loc: number): string =>
  `provider contract mismatch: the submission token at location ${loc} carries no {{value}} slot`;
export const STAGING_PREFIX = "gentle-pi-host-relay-result-";
export const SCRATCH_PREFIX = "gentle-pi-opaque-reviewer-";

/** v2.4.0 handshake refusal as real gentle-ai prints it (provider reference §6), Error: prefix and code included. */
export const HANDSHAKE_REFUSAL_V240 =
  "Error: the active runtime is not eligible for immutable receipt review; exit receipt-driven review with `gentle-ai review mode disable --scope clone --cwd <repo>`; supported immutable review runtimes: claude-code, opencode, codex [invalid_request]\n";
/** PR #3444 wording (main-0822, v2.5.0 inferred). */
export const HANDSHAKE_REFUSAL_V250 =
  "Error: the active runtime is not eligible for immutable receipt review; pi is eligible only while GENTLE_PI_REVIEW_RELAY_CONTRACT declares the exact relay contract this binary admits, which the gentle-pi host exports on every invocation it relays; export it in this shell and re-run [invalid_request]\n";

/** gentle-pi #367 derivation: min(900000 + ceil(bytes / 1048576 × 900000), 7200000), IEEE doubles as in JS. */
export function derivedPiTimeoutMs(promptBytes: number): number {
  const bytes = Number.isSafeInteger(promptBytes) && promptBytes > 0 ? promptBytes : 0;
  return Math.min(900_000 + Math.ceil((bytes / 1_048_576) * 900_000), 7_200_000);
}

/**
 * [prompt bytes, derived pi bound in ms] (gentle-pi #367; relay reference §5.2): the floor for sizes that are not a
 * positive safe integer, the per-MiB slope with its rounding, and the cap.
 */
export const PI_BOUND_TABLE: readonly (readonly [number, number])[] = [
  [0, 900000],
  [-1, 900000],
  [-5, 900000],
  [Number.NaN, 900000],
  [Number.POSITIVE_INFINITY, 900000],
  [1.5, 900000],
  [1, 900001],
  [1000, 900859],
  [65536, 956250],
  [524288, 1350000],
  [1048576, 1800000],
  [1580000, 2256125],
  [2097152, 2700000],
  [4194304, 4500000],
  [5242880, 5400000],
  [7340030, 7199999],
  [7340031, 7200000],
  [64 * 1024 * 1024, 7200000],
  [100000000, 7200000],
];

/** The override rule: /^[1-9]\d*$/ and a safe integer replaces the bound (clamped to 7200000); else null. */
export function piTimeoutOverride(value: string | undefined): number | null {
  if (value === undefined || !/^[1-9]\d*$/.test(value) || !Number.isSafeInteger(Number(value))) return null;
  return Math.min(Number(value), 7_200_000);
}

/** reviewHostRelayPiTimeoutMessage (relay reference §5.3). */
export function piTimeoutMessage(elapsedMs: number, timeoutMs: number, promptByteLength: number): string {
  return `pi reviewer subprocess exceeded the relay bound: killed after ${elapsedMs}ms against a ${timeoutMs}ms limit for a ${promptByteLength}-byte materialized prompt. Relaunching the same slot unchanged reaches the same wall. Raise GENTLE_PI_REVIEW_RELAY_PI_TIMEOUT_MS above the reviewer's real wall time (ceiling 7200000ms) or reduce the candidate scope so the materialized prompt is smaller.`;
}

/** The staged path inside a submit argv token: <TMPDIR>/gentle-pi-host-relay-result-XXXXXX/result.raw. */
export function stagedPathIn(token: string, tmp: string): string | undefined {
  const escaped = tmp.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  return new RegExp(`${escaped}/${STAGING_PREFIX}[^/]+/result\\.raw`).exec(token)?.[0];
}

/** The argv a faithful relay submits: only the location token changes, every `{{value}}` in it becomes the path. */
export function expectedSubmitArgv(
  form: {
    operationToken: string;
    argumentTokens: readonly string[];
    values: readonly { substitutionLocation: number }[];
  },
  path: string,
): string[] {
  const loc = form.values[0]?.substitutionLocation ?? -1;
  return [
    "review",
    form.operationToken,
    ...form.argumentTokens.map((t, i) => (i === loc ? t.split("{{value}}").join(path) : t)),
  ];
}

/** Forces the submit leg to succeed (stdout "accepted\n", exit 0) whatever the provider decided. */
export const SUBMIT_ACCEPTS_FAULTS: readonly FaultRule[] = [
  onSubmit({ kind: "stdout", bytes: text("accepted\n") }),
  onSubmit({ kind: "stderr", bytes: text("") }),
  onSubmit({ kind: "exit-code", code: 0 }),
];

/** Fixed v2.4.0-shaped slot for cases that never reach a process (binding and argument checks, `noStatus`). */
export const FIXED_SLOT = {
  captureArgumentTokens: [
    "--lineage=review-0000000000000001",
    "--lens=review-risk",
    "--order=0",
    "--agent=pi",
    "--materialize=true",
  ],
  submission: {
    operationToken: "capture-result",
    argumentTokens: ["--lineage=review-0000000000000001", "--lens=review-risk", "--order=0", "--input={{value}}"],
    values: [{ slot: "reviewer_result", domain: "artifact_path_or_stdin", substitutionLocation: 3 }],
  },
} as const;
