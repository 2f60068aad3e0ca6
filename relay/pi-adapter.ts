import { chmod, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { messageOf } from "./errors.ts";
import { joinChunks, spawnCollected } from "./subprocess.ts";
import { DEFAULT_OPAQUE_PI_TIMEOUT_MS } from "./timeouts.ts";

/** Locked-down pi flags: no session, tools, extensions or context; never a model, provider or profile flag. */
export const OPAQUE_PI_REVIEWER_ARGV: readonly string[] = Object.freeze([
  "--print",
  "--mode",
  "text",
  "--no-session",
  "--no-tools",
  "--no-extensions",
  "--no-skills",
  "--no-prompt-templates",
  "--no-themes",
  "--no-context-files",
  "--no-approve",
]);

/** Adapter failure kinds. */
export const OPAQUE_PI_REVIEWER_TRANSPORT_FAILURE = Object.freeze({
  SCRATCH_FAILED: "scratch-failed",
  LAUNCH_FAILED: "launch-failed",
  CANCELLED: "cancelled",
  TIMED_OUT: "timed-out",
  NONZERO_EXIT: "nonzero-exit",
  EMPTY_OUTPUT: "empty-output",
  CLEANUP_FAILED: "cleanup-failed",
} as const);

export type OpaquePiReviewerTransportFailureKind =
  (typeof OPAQUE_PI_REVIEWER_TRANSPORT_FAILURE)[keyof typeof OPAQUE_PI_REVIEWER_TRANSPORT_FAILURE];

/** Evidence an adapter failure carries; stderr stays raw bytes. */
export interface OpaquePiReviewerTransportErrorDetails {
  readonly exitCode?: number | null;
  readonly stderr?: Buffer;
  readonly timedOut?: boolean;
  readonly cancelled?: boolean;
  readonly elapsedMs?: number | null;
  readonly timeoutMs?: number | null;
}

/** Typed failure of the pi leg. */
export class OpaquePiReviewerTransportError extends Error {
  override readonly name = "OpaquePiReviewerTransportError";
  readonly kind: OpaquePiReviewerTransportFailureKind;
  readonly exitCode: number | null;
  readonly stderr: Buffer;
  readonly timedOut: boolean;
  readonly cancelled: boolean;
  readonly elapsedMs: number | null;
  readonly timeoutMs: number | null;

  constructor(
    kind: OpaquePiReviewerTransportFailureKind,
    message: string,
    details: OpaquePiReviewerTransportErrorDetails = {},
  ) {
    super(message);
    this.kind = kind;
    this.exitCode = details.exitCode ?? null;
    this.stderr = details.stderr ?? Buffer.alloc(0);
    this.timedOut = details.timedOut ?? false;
    this.cancelled = details.cancelled ?? false;
    this.elapsedMs = details.elapsedMs ?? null;
    this.timeoutMs = details.timeoutMs ?? null;
  }
}

export interface OpaquePiReviewerOptions {
  readonly piExecutable?: string;
  readonly environment?: NodeJS.ProcessEnv;
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
}

export interface OpaquePiReviewerResult {
  readonly stdout: Buffer;
  readonly promptByteLength: number;
  readonly stdoutByteLength: number;
}

/** pi's stdout as received (never concatenated): the relay streams these chunks into its staged file. */
export interface OpaquePiReviewerChunks {
  readonly stdoutChunks: readonly Buffer[];
  readonly promptByteLength: number;
  readonly stdoutByteLength: number;
}

const SCRATCH_PREFIX = "gentle-pi-opaque-reviewer-";

/** Runs pi once on the raw prompt (stdin) in an empty private scratch cwd and returns its stdout verbatim. */
export async function runOpaquePiReviewer(
  prompt: Buffer,
  options: OpaquePiReviewerOptions = {},
): Promise<OpaquePiReviewerResult> {
  const result = await runOpaquePiReviewerChunks(prompt, options);
  return {
    stdout: joinChunks(result.stdoutChunks, result.stdoutByteLength),
    promptByteLength: result.promptByteLength,
    stdoutByteLength: result.stdoutByteLength,
  };
}

/** A prompt as one Buffer or as chunks (written to stdin in order) with their total length. */
export type OpaquePiPrompt = Buffer | { readonly chunks: readonly Buffer[]; readonly length: number };

/** runOpaquePiReviewer on chunks in and chunks out, so 64 MiB payloads are never joined into second copies. */
export async function runOpaquePiReviewerChunks(
  prompt: OpaquePiPrompt,
  options: OpaquePiReviewerOptions = {},
): Promise<OpaquePiReviewerChunks> {
  const F = OPAQUE_PI_REVIEWER_TRANSPORT_FAILURE;
  if (options.signal?.aborted)
    // Stryker disable next-line ObjectLiteral, StringLiteral: run-slot.ts replaces a cancelled error's message and drops `cancelled`
    throw new OpaquePiReviewerTransportError(F.CANCELLED, "Pi process was cancelled before launch", {
      // Stryker disable next-line BooleanLiteral: run-slot.ts replaces a cancelled error's message and drops `cancelled`
      cancelled: true,
    });
  const timeoutMs = options.timeoutMs ?? DEFAULT_OPAQUE_PI_TIMEOUT_MS;
  const promptByteLength = prompt.length;
  let scratch: string;
  try {
    scratch = await mkdtemp(join(tmpdir(), SCRATCH_PREFIX));
  } catch (error) {
    throw new OpaquePiReviewerTransportError(
      F.SCRATCH_FAILED,
      `Pi scratch directory could not be prepared: ${messageOf(error)}`,
    );
  }
  let primary: { error: unknown } | undefined;
  let result: OpaquePiReviewerChunks | undefined;
  try {
    // Stryker disable next-line BlockStatement: mkdtemp already makes the folder 0700, whatever the umask
    try {
      await chmod(scratch, 0o700);
    } catch (error) {
      throw new OpaquePiReviewerTransportError(
        F.SCRATCH_FAILED,
        `Pi scratch directory could not be prepared: ${messageOf(error)}`,
      );
    }
    let run;
    try {
      run = await spawnCollected({
        file: options.piExecutable ?? "pi",
        args: OPAQUE_PI_REVIEWER_ARGV,
        cwd: scratch,
        env: options.environment ?? process.env,
        stdin: Buffer.isBuffer(prompt) ? prompt : prompt.chunks,
        timeoutMs,
        ...(options.signal !== undefined ? { signal: options.signal } : {}),
      });
    } catch (error) {
      if (error instanceof Error && error.name === "AbortError") {
        throw new OpaquePiReviewerTransportError(F.CANCELLED, "Pi process was cancelled before launch", {
          cancelled: true,
        });
      }
      throw new OpaquePiReviewerTransportError(F.LAUNCH_FAILED, `Pi process could not start: ${messageOf(error)}`);
    }
    const details = {
      exitCode: run.exitCode,
      stderr: run.stderr,
      timedOut: run.timedOut,
      cancelled: run.cancelled,
      elapsedMs: run.elapsedMs,
      timeoutMs,
    };
    // Stryker disable next-line StringLiteral: run-slot.ts maps a cancelled error to its own message
    if (run.cancelled) throw new OpaquePiReviewerTransportError(F.CANCELLED, "Pi process was cancelled", details);
    // Stryker disable next-line StringLiteral: run-slot.ts replaces a timeout's message with its own
    if (run.timedOut) throw new OpaquePiReviewerTransportError(F.TIMED_OUT, "Pi process timed out", details);
    // Stryker disable next-line StringLiteral: run-slot.ts replaces this message with "pi subprocess failed"
    if (run.exitCode !== 0) throw new OpaquePiReviewerTransportError(F.NONZERO_EXIT, "Pi process failed", details);
    if (run.stdoutLength === 0)
      // Stryker disable next-line StringLiteral: run-slot.ts replaces this message with its own
      throw new OpaquePiReviewerTransportError(F.EMPTY_OUTPUT, "Pi process produced no output bytes", details);
    result = { stdoutChunks: run.stdoutChunks, promptByteLength, stdoutByteLength: run.stdoutLength };
  } catch (error) {
    primary = { error };
  }
  try {
    await rm(scratch, { recursive: true, force: true });
  } catch (error) {
    // A cleanup error never masks the primary failure.
    if (primary === undefined) {
      throw new OpaquePiReviewerTransportError(
        F.CLEANUP_FAILED,
        // Stryker disable next-line StringLiteral: run-slot.ts replaces this message with "pi subprocess failed"
        `Pi scratch directory cleanup failed: ${messageOf(error)}`,
      );
    }
  }
  if (primary !== undefined) throw primary.error;
  return result as OpaquePiReviewerChunks;
}
