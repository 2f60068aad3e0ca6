import type { Fault } from "../scenario/fault-schema.ts";
import type { BytesSpec } from "../scenario/bytes-spec.ts";
import type { Outcome } from "../output/outcome.ts";

/** How the process ends: normally, or by one terminal fault. */
export type Termination =
  | { readonly kind: "exit" }
  | { readonly kind: "hang" }
  | { readonly kind: "partial-then-hang"; readonly bytes: number }
  | { readonly kind: "crash-mid-write"; readonly bytes: number }
  | { readonly kind: "signal"; readonly signal: NodeJS.Signals };

/** The effect of all matching faults on one outcome, ready to execute. */
export interface FaultPlan {
  readonly delayMs: number;
  readonly stdout: Buffer;
  readonly stderr: Buffer;
  readonly exitCode: number;
  readonly drip: { readonly chunkBytes: number; readonly intervalMs: number } | null;
  readonly termination: Termination;
  /** SIGTERM is trapped and ignored for the whole call (trap-sigterm): only SIGKILL ends the process. */
  readonly trapSigterm: boolean;
  /** Faults that took effect, in scenario order (a terminal fault after the first one does not). */
  readonly applied: readonly Fault[];
}

/** Exit code of crash-mid-write without a non-zero exit-code fault: what an unrecovered Go panic exits with. */
export const CRASH_EXIT_CODE = 2;

/** Filler for oversized-output: spaces keep a JSON document valid while making it large. */
const FILLER = 0x20;

/**
 * Combines matching faults (scenario order):
 * - `delay`: delays add up; the total elapses before any output is written.
 * - `stdout`, `empty-output`, `oversized-output` act on stdout in rule order, each on the previous result
 * (`stdout` replaces it, `empty-output` empties it, `oversized-output` pads it with spaces or truncates it to N bytes).
 * - `stderr` replaces stderr; the last one wins. `exit-code` replaces the exit code; the last one wins
 * (with `crash-mid-write` it sets the crash's exit code when non-zero; otherwise the crash exits CRASH_EXIT_CODE).
 * - `slow-drip` paces every write of stdout and stderr; the last one wins.
 * - `trap-sigterm` makes the process ignore SIGTERM for the whole call, whatever else applies.
 * - Terminal faults (`hang`, `partial-then-hang`, `crash-mid-write`, `signal`): only the first matching one takes effect.
 */
export function planFaults(
  outcome: Outcome,
  faults: readonly Fault[],
  bytesOf: (spec: BytesSpec) => Buffer,
): FaultPlan {
  let delayMs = 0;
  let stdout = outcome.stdout;
  let stderr = outcome.stderr;
  let exitOverride: number | null = null;
  let drip: FaultPlan["drip"] = null;
  let termination: Termination = { kind: "exit" };
  let trapSigterm = false;
  const applied: Fault[] = [];
  for (const fault of faults) {
    switch (fault.kind) {
      case "delay":
        delayMs += fault.ms;
        break;
      case "stdout":
        stdout = bytesOf(fault.bytes);
        break;
      case "empty-output":
        stdout = Buffer.alloc(0);
        break;
      case "oversized-output":
        stdout = resize(stdout, fault.bytes);
        break;
      case "stderr":
        stderr = bytesOf(fault.bytes);
        break;
      case "exit-code":
        exitOverride = fault.code;
        break;
      case "slow-drip":
        drip = { chunkBytes: fault.chunkBytes, intervalMs: fault.intervalMs };
        break;
      case "trap-sigterm":
        trapSigterm = true;
        break;
      case "hang":
      case "partial-then-hang":
      case "crash-mid-write":
      case "signal":
        if (termination.kind !== "exit") continue; // a later terminal fault never applies
        termination =
          fault.kind === "hang"
            ? { kind: "hang" }
            : fault.kind === "signal"
              ? { kind: "signal", signal: fault.signal }
              : { kind: fault.kind, bytes: fault.bytes };
        break;
    }
    applied.push(fault);
  }
  // A crash always exits non-zero: the exit-code fault's value when non-zero, else CRASH_EXIT_CODE.
  const exitCode =
    termination.kind === "crash-mid-write"
      ? exitOverride
        ? exitOverride
        : CRASH_EXIT_CODE
      : (exitOverride ?? outcome.exitCode);
  return { delayMs, stdout, stderr, exitCode, drip, termination, trapSigterm, applied };
}

function resize(bytes: Buffer, size: number): Buffer {
  if (size <= bytes.length) return bytes.subarray(0, size);
  const out = Buffer.allocUnsafe(size);
  bytes.copy(out, 0);
  out.fill(FILLER, bytes.length);
  return out;
}
