// Assertion helpers for clause checks: each failure is one line naming what differed.
import { isDeepStrictEqual } from "node:util";
import type { ErrorSnapshot } from "../process/protocol.ts";
import { blobBytes, type TranscriptEntry } from "./transcript.ts";
import { ClauseFailure, HarnessError, HungFailure, type CaseRun, type RelayOutcome } from "./types.ts";

/** Short printable form of any value. */
export function show(value: unknown, max = 240): string {
  let text: string;
  if (Buffer.isBuffer(value))
    text = `<${value.length} bytes ${JSON.stringify(value.subarray(0, 48).toString("latin1"))}${value.length > 48 ? "…" : ""}>`;
  else if (value === undefined) text = "undefined";
  else text = JSON.stringify(value) ?? String(value);
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** Fails the check with a one-line reason. */
export function fail(message: string): never {
  throw new ClauseFailure(message);
}

/** Deep equality or a failure naming `what`. */
export function eq(actual: unknown, expected: unknown, what: string): void {
  if (!isDeepStrictEqual(actual, expected)) fail(`${what}: expected ${show(expected)}, got ${show(actual)}`);
}

/** Fails with message unless condition holds. */
export function ok(condition: boolean, message: string): void {
  if (!condition) fail(message);
}

/** Byte equality with the first differing offset. */
export function bytesEq(actual: Buffer, expected: Buffer, what: string): void {
  if (actual.equals(expected)) return;
  let i = 0;
  while (i < actual.length && i < expected.length && actual[i] === expected[i]) i += 1;
  fail(
    `${what}: ${actual.length} bytes vs expected ${expected.length}, first difference at byte ${i} (got ${show(actual.subarray(i, i + 16))}, expected ${show(expected.subarray(i, i + 16))})`,
  );
}

/** The relay's calls by leg: gentle-ai calls in order are materialize then submit; pi is leg B. */
export interface Legs {
  readonly materialize?: TranscriptEntry;
  readonly pi?: TranscriptEntry;
  readonly submit?: TranscriptEntry;
  readonly gentleAi: readonly TranscriptEntry[];
  readonly pis: readonly TranscriptEntry[];
}

/** Splits the transcript into the three legs. */
export function legs(run: CaseRun): Legs {
  const gentleAi = run.transcript.filter((e) => e.program === "gentle-ai");
  const pis = run.transcript.filter((e) => e.program === "pi");
  return { materialize: gentleAi[0], pi: pis[0], submit: gentleAi[1], gentleAi, pis };
}

/** The leg entry, or a failure saying it never launched. */
export function need<T>(value: T | undefined, what: string): T {
  if (value === undefined) fail(`${what} was never launched`);
  return value;
}

/** Recorded stdout bytes. */
export const stdoutOf = (entry: TranscriptEntry): Buffer => blobBytes(entry.stdout);
/** Recorded stderr bytes. */
export const stderrOf = (entry: TranscriptEntry): Buffer => blobBytes(entry.stderr);
/** Recorded stdin bytes. */
export const stdinOf = (entry: TranscriptEntry): Buffer => blobBytes(entry.stdin);

/** Why a relay call produced neither a result nor a thrown value; a harness error is never the relay's failure. */
export function noAnswer(o: Exclude<RelayOutcome, { type: "result" } | { type: "error" }>): never {
  if (o.type === "harness-error") throw new HarnessError(o.detail);
  if (o.type === "timeout") throw new HungFailure(outcomeCause(o));
  fail(outcomeCause(o));
}

/** One line for a call that ended without an answer: what happened, and the relay's own evidence. */
export function outcomeCause(o: Extract<RelayOutcome, { type: "timeout" } | { type: "crashed" }>): string {
  if (o.type === "crashed") return `relay process died: ${o.detail}`;
  const wall = `${(o.wallMs / 1000).toFixed(1)} s wall`;
  const h = o.hang;
  const when = h?.early
    ? `decided after ${wall}: nothing could wake it before its bound, so a patient run times out too`
    : `load-scaled; ${wall}`;
  const where =
    h === undefined
      ? ""
      : `it hung ${h.leg === "none" ? "before any leg" : h.leg === "unknown" ? "where the census could not see" : `in the ${h.leg} leg`}: ${h.waitingFor}${h.processes.length > 0 ? `; processes: ${h.processes.join(" | ")}` : ""}; `;
  return `relay did not settle within ${o.timeoutMs}ms (${when}): ${where}its adapter child and process tree were killed and replaced; output tail: ${o.output.trim() === "" ? "(none)" : JSON.stringify(o.output.trim().slice(-300))}`;
}

/** One line for the processes a relay started and left running after it settled (null: none). */
export function escapedCause(run: Pick<CaseRun, "escaped">): string | null {
  if (run.escaped.length === 0) return null;
  const list = run.escaped.map((p) => `pid ${p.pid} argv ${JSON.stringify(p.argv).slice(0, 300)}`).join("; ");
  return `the relay left ${run.escaped.length} process(es) it started running after it settled (now killed): ${list}`;
}

/** The thrown error, or a failure saying what happened instead. */
export function thrown(run: CaseRun): ErrorSnapshot {
  const o = run.outcome;
  if (o.type === "error") return o.error;
  if (o.type === "result") fail(`expected the relay to throw, it returned ${show(o.value)}`);
  noAnswer(o);
}

/** The resolved value, or a failure describing the error instead. */
export function resolved(run: CaseRun): Record<string, unknown> {
  const o = run.outcome;
  if (o.type === "result") {
    if (o.value === null || typeof o.value !== "object") fail(`relay resolved a non-object ${show(o.value)}`);
    return o.value as Record<string, unknown>;
  }
  if (o.type === "error")
    fail(
      `expected success, relay threw ${o.error.name}: kind=${show(o.error.kind)} stage=${show(o.error.stage)} message=${show(o.error.message)}`,
    );
  noAnswer(o);
}

/** Expected relay error fields; "number" means any finite non-negative number. */
export interface ErrorExpectation {
  readonly kind?: string;
  readonly stage?: string;
  readonly message?: string;
  readonly mutationOutcome?: "none" | "unknown";
  readonly exitCode?: number | null;
  readonly stderr?: string;
  readonly timedOut?: boolean;
  readonly elapsedMs?: number | null | "number";
  readonly timeoutMs?: number | null | "number";
}

/** What an error raised before any child ran carries: nothing mutated, no exit, no output, no timing. */
export const NOTHING_RAN = {
  mutationOutcome: "none",
  exitCode: null,
  stderr: "",
  timedOut: false,
  elapsedMs: null,
  timeoutMs: null,
} as const satisfies ErrorExpectation;

/** A typed ReviewHostRelayError with the given fields. */
export function relayError(run: CaseRun, expected: ErrorExpectation): ErrorSnapshot {
  const error = thrown(run);
  if (error.name !== "ReviewHostRelayError")
    fail(`expected a ReviewHostRelayError, got ${error.name}: ${show(error.message)}`);
  for (const [field, want] of Object.entries(expected) as [keyof ErrorExpectation, unknown][]) {
    const got = (error as Record<string, unknown>)[field];
    if (want === "number")
      ok(
        typeof got === "number" && Number.isFinite(got) && got >= 0,
        `${field}: expected a non-negative number, got ${show(got)}`,
      );
    else eq(got, want, field);
  }
  return error;
}

/** A plain (untyped) error: name and message only. */
export function plainError(run: CaseRun, name: string, message: string): void {
  const error = thrown(run);
  eq(error.name, name, "error name");
  eq(error.message, message, "error message");
}

/** The relay launched nothing at all. */
export function nothingLaunched(run: CaseRun): void {
  eq(
    run.transcript.map((e) => `${e.program} ${e.argv.slice(0, 2).join(" ")}`),
    [],
    "processes launched",
  );
}
