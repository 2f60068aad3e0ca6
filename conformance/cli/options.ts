import { existsSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { PROFILES, type Profile } from "../../simulator/scenario/schema.ts";
import { STDOUT_TARGET } from "./write-report.ts";
import { UsageError } from "./command.ts";

/**
 * One option of a command: util.parseArgs's `type`, `short` and `multiple`, and what `--help` says about it
 * (cli/usage.ts renders the table). A `boolean` option never takes a value, so it never consumes the next token.
 */
export interface OptionSpec {
  readonly type: "string" | "boolean";
  readonly short?: string;
  readonly multiple?: boolean;
  /** The value's name in --help: `--relay <module>`. */
  readonly valueName?: string;
  /** What the option does; one sentence or more, wrapped by the help renderer. */
  readonly description: string;
  /** How the default reads in --help (`4`, `random, printed`). Shown only: the command applies it. */
  readonly default?: string;
}

/** A command's options by long name. */
export type OptionTable = Readonly<Record<string, OptionSpec>>;

/** `-h, --help`, in every command's table. */
export const HELP_OPTION = { type: "boolean", short: "h", description: "this help" } as const satisfies OptionSpec;

/** The part of a table util.parseArgs reads (the help fields stripped, so `default` is never applied). */
export type ParserTable<T extends OptionTable> = {
  -readonly [K in keyof T]: Omit<T[K], "valueName" | "description" | "default">;
};

function parserTable<T extends OptionTable>(options: T): ParserTable<T> {
  return Object.fromEntries(
    Object.entries(options).map(([name, o]) => [
      name,
      {
        type: o.type,
        ...(o.short === undefined ? {} : { short: o.short }),
        ...(o.multiple === undefined ? {} : { multiple: o.multiple }),
      },
    ]),
  ) as ParserTable<T>;
}

/** What was wrong with an argv's option syntax, as util.parseArgs found it. */
export type OptionProblem =
  | { readonly kind: "unknown"; readonly option: string }
  | { readonly kind: "needs-value"; readonly option: string; readonly next?: string }
  | { readonly kind: "takes-no-value"; readonly option: string }
  | { readonly kind: "other"; readonly text: string };

/** Bad option syntax (parseOptions, splitPositionals); the message is the shared wording, `problem` the facts. */
export class OptionSyntaxError extends UsageError {
  constructor(readonly problem: OptionProblem) {
    super(optionProblemText(problem));
  }
}

/** The shared one-line wording of an option problem. */
function optionProblemText(p: OptionProblem): string {
  switch (p.kind) {
    case "unknown":
      return `Unknown option '${p.option}'`;
    case "needs-value":
      return `option ${p.option} needs a value${p.next === undefined ? "" : ` (got the option ${JSON.stringify(p.next)}; write ${p.option}=${p.next} if that is the value)`}`;
    case "takes-no-value":
      return `option ${p.option} takes no value`;
    case "other":
      return p.text;
  }
}

/** util.parseArgs's messages, read back into an OptionProblem. */
function optionProblem(error: unknown, args: readonly string[]): OptionProblem {
  const message = error instanceof Error ? error.message : String(error);
  const unknown = /^Unknown option '(-[^']+)'/.exec(message);
  if (unknown) return { kind: "unknown", option: unknown[1] ?? "" };
  const missing = /^Option '(-[^' ]+)(?: <value>)?' argument missing/.exec(message);
  if (missing) return { kind: "needs-value", option: missing[1] ?? "" };
  const ambiguous = /^Option '(-[^' ]+)(?: <value>)?' argument is ambiguous/.exec(message);
  if (ambiguous) {
    const flag = ambiguous[1] ?? "";
    const next = args[args.indexOf(flag) + 1];
    return next === undefined ? { kind: "needs-value", option: flag } : { kind: "needs-value", option: flag, next };
  }
  const noValue = /^Option '(-[^' ]+)' does not take an argument/.exec(message);
  if (noValue) return { kind: "takes-no-value", option: noValue[1] ?? "" };
  return {
    kind: "other",
    text: message.replace(/\. To specify a positional argument.*$/s, "").split("\n")[0] ?? message,
  };
}

/** util.parseArgs in strict mode over the table's parser part, its errors turned into OptionSyntaxError. */
export function parseOptions<T extends OptionTable>(
  args: readonly string[],
  options: T,
  allowPositionals = false,
  // Spelled out so declaration emit (dist/types) can name util.parseArgs's result type.
): ReturnType<typeof parseArgs<{ args: string[]; options: ParserTable<T>; strict: true; allowPositionals: boolean }>> {
  try {
    return parseArgs({ args: [...args], options: parserTable(options), strict: true, allowPositionals });
  } catch (error) {
    throw new OptionSyntaxError(optionProblem(error, args));
  }
}

/**
 * Splits argv into positionals and option tokens by an option table (strict: unknown options are bad input), so
 * a command can hand the option tokens on unchanged (`replay <file>… --update`: --update is boolean and the file
 * stays a file whatever the order).
 */
export function splitPositionals(
  args: readonly string[],
  options: OptionTable,
): { positionals: string[]; optionArgs: string[]; names: string[] } {
  let tokens;
  try {
    tokens = parseArgs({
      args: [...args],
      options: parserTable(options),
      strict: true,
      allowPositionals: true,
      tokens: true,
    }).tokens;
  } catch (error) {
    throw new OptionSyntaxError(optionProblem(error, args));
  }
  const positionalAt = new Set<number>();
  for (const t of tokens) if (t.kind === "positional" || t.kind === "option-terminator") positionalAt.add(t.index);
  return {
    positionals: tokens.flatMap((t) => (t.kind === "positional" ? [t.value] : [])),
    optionArgs: args.filter((_, i) => !positionalAt.has(i)),
    names: [...new Set(tokens.flatMap((t) => (t.kind === "option" ? [t.name] : [])))],
  };
}

/** `--profile 2.3.0|2.4.0|2.5.0|all` (repeatable, comma lists allowed); default all. */
export function parseProfiles(values: readonly string[] | undefined): Profile[] {
  if (!values || values.length === 0) return [...PROFILES];
  const out = new Set<Profile>();
  for (const value of values.flatMap((v) => v.split(","))) {
    if (value === "all") PROFILES.forEach((p) => out.add(p));
    else if ((PROFILES as readonly string[]).includes(value)) out.add(value as Profile);
    else throw new UsageError(`unknown profile ${JSON.stringify(value)} (expected ${PROFILES.join(", ")} or all)`);
  }
  return PROFILES.filter((p) => out.has(p));
}

/** A non-negative integer option (seed, runs, timeouts). */
export function parseCount(name: string, value: string | undefined, fallback: number, min = 0): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(Number(value)) || Number(value) < min)
    throw new UsageError(`--${name} must be an integer ≥ ${min}, got ${JSON.stringify(value)}`);
  return Number(value);
}

/** Resolves a relay module path; it must be an existing file. */
export function resolveRelayPath(cwd: string, value: string): string {
  const path = resolve(cwd, value);
  if (!existsSync(path)) throw new UsageError(`relay module not found: ${value}`);
  if (!statSync(path).isFile()) throw new UsageError(`relay module is not a file: ${value}`);
  return path;
}

/** An output file option (--json, --junit, --markdown): resolved against cwd; an existing folder there is bad input. */
export function outputFileOption(cwd: string, name: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const path = resolve(cwd, value);
  if (existsSync(path) && statSync(path).isDirectory())
    throw new UsageError(`--${name} ${value} is a folder, not a file`);
  return path;
}

/** An output file option that also takes `-`, stdout: STDOUT_TARGET, else as outputFileOption. */
export function outputTarget(cwd: string, name: string, value: string | undefined): string | undefined {
  return value === STDOUT_TARGET ? STDOUT_TARGET : outputFileOption(cwd, name, value);
}

/** A --grep pattern must compile. */
export function parseGrep(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  try {
    new RegExp(value, "i");
  } catch (error) {
    throw new UsageError(
      `--grep is not a valid regular expression: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  return value;
}

const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 } as const;

/** A duration option: a positive integer with a unit ms, s, m or h (a bare number is seconds): `90s`, `10m`, `1h`. */
export function parseDuration(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const match = /^(\d+)(ms|s|m|h)?$/.exec(value);
  const ms = match ? Number(match[1]) * UNIT_MS[(match[2] ?? "s") as keyof typeof UNIT_MS] : Number.NaN;
  if (!Number.isSafeInteger(ms) || ms < 1)
    throw new UsageError(`--${name} must be a positive duration like 90s, 10m or 1h, got ${JSON.stringify(value)}`);
  return ms;
}
