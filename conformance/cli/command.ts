/** Where a command writes (injectable for tests). */
export interface CommandIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly cwd: string;
  /**
   * Live progress of long commands on stderr (report/progress.ts): `tty` one line rewritten in place (stderr is a
   * terminal), `lines` a plain line every 10% or 10 s (a CI log); unset, none (in-process callers, tests).
   */
  readonly progress?: "tty" | "lines";
  /** The terminal's width when `progress` is `tty` (the live line is cut to it). */
  readonly columns?: number;
}

/** One `relay-conformance <name>` subcommand. Register it in commands/index.ts. */
export interface Command {
  readonly name: string;
  /** One line for the top-level help. */
  readonly summary: string;
  /** Full `--help` text. */
  readonly usage: string;
  /** Returns the exit code: 0 ok, 1 conformance failures, 2 bad input (throw UsageError for that). */
  run(args: readonly string[], io: CommandIo): Promise<number>;
}

/** Bad input: the CLI prints `relay-conformance: <message>` and exits 2. */
export class UsageError extends Error {
  override readonly name = "UsageError";
}
