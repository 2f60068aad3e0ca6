import { spawn, type ChildProcess } from "node:child_process";
import { performance } from "node:perf_hooks";

/** One child process to run to completion, collecting raw bytes. */
export interface CollectedSpawnOptions {
  readonly file: string;
  readonly args: readonly string[];
  readonly cwd?: string;
  readonly env: NodeJS.ProcessEnv;
  /**
   * Bytes (or chunks, written in order) fed to stdin, which is then closed; `null` closes stdin immediately with no
   * data.
   */
  readonly stdin: Buffer | readonly Buffer[] | null;
  /** SIGKILL the whole process tree after this many ms; ≤ 0 means no timer. */
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
}

/** What a launched child produced; `exitCode` is null when a signal ended it. */
export interface CollectedSpawnResult {
  /** stdout as one Buffer, concatenated on first access only. */
  readonly stdout: Buffer;
  /** stdout as received, for callers that can write it out without ever concatenating it. */
  readonly stdoutChunks: readonly Buffer[];
  readonly stdoutLength: number;
  readonly stderr: Buffer;
  readonly exitCode: number | null;
  readonly signalCode: NodeJS.Signals | null;
  readonly timedOut: boolean;
  readonly cancelled: boolean;
  readonly elapsedMs: number;
}

/** Error a pre-aborted or aborted launch reports, matching Node's `spawn({signal})` wording. */
export function abortError(): Error {
  return Object.assign(new Error("The operation was aborted"), { name: "AbortError", code: "ABORT_ERR" });
}

/** SIGKILLs the child's whole process group, falling back to the child alone. */
export function killProcessTree(child: ChildProcess): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, "SIGKILL");
  } catch {
    // Stryker disable next-line BlockStatement: the group kill fails only when the group is gone: nothing left
    try {
      // Stryker disable next-line StringLiteral: the group kill fails only when the group is gone: nothing left
      child.kill("SIGKILL");
    } catch {
      // Already gone: nothing left to kill.
    }
  }
}

/** Collects a stream's chunks; concatenating them (one copy of the payload) is left to whoever needs one Buffer. */
class ByteSink {
  readonly chunks: Buffer[] = [];
  length = 0;
  push = (chunk: Buffer): void => {
    this.chunks.push(chunk);
    this.length += chunk.length;
  };
}

/** One Buffer from chunks, without a copy when there is a single chunk. */
export function joinChunks(chunks: readonly Buffer[], length: number): Buffer {
  return chunks.length === 1 && chunks[0] !== undefined ? chunks[0] : Buffer.concat(chunks as Buffer[], length);
}

/**
 * Spawns without a shell in its own process group, feeds stdin, collects stdout/stderr as Buffers and resolves on
 * `close`. Rejects only when the process could not start (spawn error or an already-aborted signal).
 */
export function spawnCollected(options: CollectedSpawnOptions): Promise<CollectedSpawnResult> {
  return new Promise((resolve, reject) => {
    if (options.signal?.aborted) {
      reject(abortError());
      return;
    }
    const started = performance.now();
    let child: ChildProcess;
    try {
      child = spawn(options.file, [...options.args], {
        cwd: options.cwd,
        env: options.env,
        // Stryker disable next-line ArrayDeclaration: `stdio: []` defaults every stream to "pipe"
        stdio: ["pipe", "pipe", "pipe"],
        shell: false,
        // Stryker disable next-line BooleanLiteral: windowsHide acts on Windows only
        windowsHide: true,
        // Own process group so a timeout can SIGKILL grandchildren too.
        detached: true,
      });
    } catch (error) {
      reject(error);
      return;
    }
    const stdout = new ByteSink();
    const stderr = new ByteSink();
    let timedOut = false;
    let cancelled = false;
    let timer: NodeJS.Timeout | undefined;
    let launched = false;

    const { signal, timeoutMs } = options;
    const onAbort = (): void => {
      if (timedOut || cancelled) return;
      cancelled = true;
      killProcessTree(child);
    };
    const settle = (): void => {
      if (timer !== undefined) clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    };

    child.once("error", (error) => {
      if (launched) return; // Post-launch errors (e.g. a failed kill) are reflected by `close`.
      settle();
      reject(error);
    });
    // Stryker disable next-line BlockStatement, StringLiteral: no `error` event follows a successful spawn, so nothing reads `launched`
    child.once("spawn", () => {
      // Stryker disable next-line BooleanLiteral: no `error` event follows a successful spawn, so nothing reads `launched`
      launched = true;
    });
    // Stryker disable next-line OptionalChaining: stdio is all pipes, so every stream exists
    child.stdout?.on("data", stdout.push);
    // Stryker disable next-line OptionalChaining: stdio is all pipes, so every stream exists
    child.stderr?.on("data", stderr.push);
    // EPIPE from a child that exits without reading is expected; its exit status tells the story.
    // Stryker disable next-line OptionalChaining: stdio is all pipes, so every stream exists
    child.stdin?.on("error", () => undefined);
    // Stryker disable next-line OptionalChaining: stdio is all pipes, so every stream exists
    if (options.stdin === null) child.stdin?.end();
    else if (Buffer.isBuffer(options.stdin)) child.stdin?.end(options.stdin);
    else {
      // Chunks go out as received: a large prompt is never joined into a second copy.
      // Stryker disable next-line OptionalChaining: stdio is all pipes, so every stream exists
      for (const chunk of options.stdin) child.stdin?.write(chunk);
      // Stryker disable next-line OptionalChaining: stdio is all pipes, so every stream exists
      child.stdin?.end();
    }

    if (child.pid !== undefined) {
      if (timeoutMs > 0) {
        timer = setTimeout(() => {
          if (cancelled) return;
          timedOut = true;
          killProcessTree(child);
        }, timeoutMs);
      }
      // Stryker disable next-line BooleanLiteral, ObjectLiteral: `settle` removes the listener, and a signal fires `abort` once
      signal?.addEventListener("abort", onAbort, { once: true });
    }

    child.once("close", (code, signalCode) => {
      // Stryker disable next-line BooleanLiteral, EqualityOperator, LogicalOperator: after a failed spawn, the `error` path has already settled
      if (!launched && child.pid === undefined) return; // The `error` path already rejected.
      settle();
      let joined: Buffer | undefined;
      resolve({
        get stdout(): Buffer {
          joined ??= joinChunks(stdout.chunks, stdout.length);
          return joined;
        },
        stdoutChunks: stdout.chunks,
        stdoutLength: stdout.length,
        stderr: joinChunks(stderr.chunks, stderr.length),
        exitCode: code,
        signalCode,
        timedOut,
        cancelled,
        elapsedMs: Math.round(performance.now() - started),
      });
    });
  });
}
