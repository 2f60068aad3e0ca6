import { escapeBytes } from "../goldens/diff.ts";
import type { Profile } from "../cli/profile.ts";
import type { ProbeCall } from "./exec.ts";
import type { ProbeStatus } from "./report-schema.ts";

/** What a probe may do: run the binary (with or without the handshake) and write scratch files. */
export interface ProbeContext {
  readonly profile: Profile;
  /** Repository directory every call runs in and STATUS names with --cwd. */
  readonly cwd: string;
  /** Private scratch directory for input files. */
  readonly scratch: string;
  /** `handshake`: the GENTLE_PI_REVIEW_RELAY_CONTRACT value, or null to remove it. */
  call(argv: readonly string[], options?: { handshake?: string | null; input?: Buffer }): Promise<ProbeCall>;
}

/** A probe's verdict before it is labelled with its id and clause. */
export interface ProbeVerdict {
  readonly status: ProbeStatus;
  readonly findings: string[];
}

/** One contract clause check. */
export interface Probe {
  readonly id: string;
  readonly clause: string;
  run(context: ProbeContext): Promise<ProbeVerdict>;
}

const WINDOW = 40;

function firstDiff(a: Buffer, b: Buffer): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i += 1) if (a[i] !== b[i]) return i;
  return n;
}

function around(bytes: Buffer, offset: number): string {
  const start = Math.max(0, offset - WINDOW);
  const end = Math.min(bytes.length, offset + WINDOW);
  return `${start > 0 ? "…" : ""}"${escapeBytes(bytes.subarray(start, end))}"${end < bytes.length ? "…" : ""}`;
}

/** A finding when `actual` differs from `expected`, showing both around the first differing byte. */
export function bytesFinding(label: string, expected: Buffer | string, actual: Buffer): string | undefined {
  const want = typeof expected === "string" ? Buffer.from(expected, "utf8") : expected;
  if (want.equals(actual)) return undefined;
  const at = firstDiff(want, actual);
  return `${label} differs at byte ${at}: expected ${around(want, at)}, got ${around(actual, at)}`;
}

/** A finding unless `actual` starts with `prefix`. */
export function prefixFinding(label: string, prefix: string, actual: Buffer): string | undefined {
  const want = Buffer.from(prefix, "utf8");
  return actual.subarray(0, want.length).equals(want)
    ? undefined
    : bytesFinding(`${label} prefix`, want, actual.subarray(0, want.length));
}

/** A finding unless the call exited with `code`. */
export function exitFinding(call: ProbeCall, code: number): string | undefined {
  if (call.timedOut) return `\`${describe(call)}\` timed out`;
  return call.exitCode === code
    ? undefined
    : `\`${describe(call)}\` exit code: expected ${code}, got ${call.exitCode ?? call.signal}`;
}

/** Short rendering of a call for findings. */
export function describe(call: ProbeCall): string {
  const argv = call.argv.map((a) => (a.length > 48 ? `${a.slice(0, 45)}…` : a));
  return `gentle-ai ${argv.join(" ")}`;
}

/** Parses stdout as a JSON object, or undefined. */
export function jsonOf(bytes: Buffer): Record<string, unknown> | undefined {
  try {
    const v: unknown = JSON.parse(bytes.toString("utf8"));
    return v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Verdict from findings: drift when any finding is present. */
export function verdict(findings: readonly (string | undefined)[]): ProbeVerdict {
  const real = findings.filter((f): f is string => f !== undefined);
  return { status: real.length === 0 ? "pass" : "drift", findings: real };
}

/** A probe that could not reach the state it needs. */
export function inconclusive(reason: string): ProbeVerdict {
  return { status: "inconclusive", findings: [reason] };
}

/** Profiles from v2.4.0 on define the relay surface (--agent, --materialize, the handshake). */
export const isRelayProfile = (profile: Profile): boolean => profile !== "2.3.0";
