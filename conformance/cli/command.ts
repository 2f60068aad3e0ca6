/** Where a command writes (injectable for tests). */
export interface CommandIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly cwd: string;
  /**
   * Live progress of long commands on stderr (cli/progress.ts): `tty` one line rewritten in place (stderr is a
   * terminal), `lines` a plain line every 10% or 10 s (a CI log); unset, none (in-process callers, tests).
   */
  readonly progress?: "tty" | "lines";
  /** The terminal's width when `progress` is `tty` (the live line is cut to it). */
  readonly columns?: number;
}

/**
 * One `relay-conformance <name>` subcommand's module: its name and summary are in commands/index.ts, which loads it.
 */
export interface Command {
  /** Full `--help` text (cli/usage.ts renders it from the command's option table). */
  readonly usage: string;
  /** How this command's bad-input lines begin (default `relay-conformance`; `repro`'s have always named it). */
  readonly errorPrefix?: string;
  /** Returns the exit code: 0 ok, 1 conformance failures, 2 bad input (throw UsageError for that). */
  run(args: readonly string[], io: CommandIo): Promise<number>;
}

/**
 * Bad input: the CLI prints `relay-conformance: <message>`, then the pointer to `--help` unless `hint` is false, and
 * exits 2.
 */
export class UsageError extends Error {
  override readonly name = "UsageError";
  readonly hint: boolean;
  constructor(message: string, options: { readonly hint?: boolean } = {}) {
    super(message);
    this.hint = options.hint ?? true;
  }
}
