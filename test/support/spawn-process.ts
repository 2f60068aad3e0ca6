// One finished process as the tests see it (bytes first), and the one way the tests spawn a command: execa with
// shell: false, exactly the given environment, stdin always closed, in its own process group so a kill takes the tree.
import { existsSync, readFileSync } from "node:fs";
import { execa } from "execa";

/** One finished process (or in-process dispatch): its exact bytes, exit code and terminating signal. */
export class Run {
  constructor(
    readonly stdout: Buffer,
    readonly stderr: Buffer,
    readonly code: number | null,
    readonly signal: NodeJS.Signals | null = null,
  ) {}

  /** stdout decoded as UTF-8. */
  get stdoutText(): string {
    return this.stdout.toString("utf8");
  }

  /** stderr decoded as UTF-8. */
  get stderrText(): string {
    return this.stderr.toString("utf8");
  }
}

/** Parses a run's stdout as JSON. */
export function json(run: Run): Record<string, any> {
  return JSON.parse(run.stdoutText) as Record<string, any>;
}

export interface SpawnOptions {
  /** The whole environment of the child (nothing is inherited). */
  readonly env: Record<string, string>;
  /** stdin bytes; stdin is closed after them (empty when omitted). */
  readonly input?: Buffer | string;
  readonly cwd?: string;
  /** For hanging processes: SIGKILL the group once this transcript holds this many lines (written before the hang). */
  readonly killWhenTranscriptLines?: { readonly path: string; readonly lines: number };
  /** For hanging processes without a transcript: SIGKILL the group once stdout holds this many bytes. */
  readonly killAfterStdoutBytes?: number;
  /** The safety net's bound for a command that legitimately runs longer than a test's default 60 s (default 50 s). */
  readonly guardMs?: number;
}

// Safety net so a broken test never leaves a hanging process behind (below the 60 s test timeout).
const GUARD_MS = 50_000;

/** Spawns `command` (shell: false) in its own process group and collects stdout/stderr as Buffers. */
export async function spawnProcess(command: string, args: readonly string[], options: SpawnOptions): Promise<Run> {
  const child = execa(command, args, {
    env: options.env,
    extendEnv: false,
    shell: false,
    encoding: "buffer",
    stripFinalNewline: false,
    maxBuffer: 1024 * 1024 * 1024,
    reject: false,
    detached: true,
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    input: typeof options.input === "string" ? Buffer.from(options.input) : (options.input ?? Buffer.alloc(0)),
  });
  const killGroup = (): void => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
    } catch {
      // already gone
    }
  };
  const guard = setTimeout(killGroup, options.guardMs ?? GUARD_MS);
  let poll: NodeJS.Timeout | undefined;
  if (options.killWhenTranscriptLines) {
    const { path, lines } = options.killWhenTranscriptLines;
    poll = setInterval(() => {
      if (existsSync(path) && readFileSync(path, "utf8").split("\n").filter(Boolean).length >= lines) killGroup();
    }, 20);
  }
  if (options.killAfterStdoutBytes !== undefined) {
    const limit = options.killAfterStdoutBytes;
    let seen = 0;
    child.stdout.on("data", (chunk: Uint8Array) => {
      seen += chunk.length;
      if (seen >= limit) killGroup();
    });
  }
  try {
    const result = await child;
    // Neither an exit code nor a signal: the command never started (ENOENT, EACCES, …).
    if (result.exitCode === undefined && result.signal === undefined)
      throw new Error(`cannot spawn ${command}`, { cause: result });
    return new Run(
      bytes(result.stdout),
      bytes(result.stderr),
      result.exitCode ?? null,
      (result.signal as NodeJS.Signals | undefined) ?? null,
    );
  } finally {
    clearTimeout(guard);
    if (poll) clearInterval(poll);
  }
}

function bytes(view: Uint8Array): Buffer {
  return Buffer.from(view.buffer, view.byteOffset, view.byteLength);
}
