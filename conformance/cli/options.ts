import { existsSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { parseArgs, type ParseArgsConfig } from "node:util";
import { PROFILES, type Profile } from "../../simulator/scenario/schema.ts";
import { STDOUT_TARGET } from "../report/write.ts";
import { UsageError } from "./command.ts";

/** An option table (util.parseArgs): a `boolean` option never takes a value, so it never consumes the next token. */
export type OptionTable = NonNullable<ParseArgsConfig["options"]>;

/** util.parseArgs's messages, reworded to one line each. */
function optionError(error: unknown, args: readonly string[]): string {
  const message = error instanceof Error ? error.message : String(error);
  const missing = /^Option '(-[^' ]+)(?: <value>)?' argument missing/.exec(message);
  if (missing) return `option ${missing[1]} needs a value`;
  const ambiguous = /^Option '(-[^' ]+)(?: <value>)?' argument is ambiguous/.exec(message);
  if (ambiguous) {
    const flag = ambiguous[1] ?? "";
    const next = args[args.indexOf(flag) + 1];
    return `option ${flag} needs a value${next === undefined ? "" : ` (got the option ${JSON.stringify(next)}; write ${flag}=${next} if that is the value)`}`;
  }
  const noValue = /^Option '(-[^' ]+)' does not take an argument/.exec(message);
  if (noValue) return `option ${noValue[1]} takes no value`;
  return message.replace(/\. To specify a positional argument.*$/s, "").split("\n")[0] ?? message;
}

/** util.parseArgs in strict mode, its errors turned into UsageError. */
export function parseOptions<T extends OptionTable>(
  args: readonly string[],
  options: T,
  allowPositionals = false,
  // Spelled out so declaration emit (dist/types) can name util.parseArgs's result type.
): ReturnType<typeof parseArgs<{ args: string[]; options: T; strict: true; allowPositionals: boolean }>> {
  try {
    return parseArgs({ args: [...args], options, strict: true, allowPositionals });
  } catch (error) {
    throw new UsageError(optionError(error, args));
  }
}

/**
 * Splits argv into positionals and option tokens by an option table (strict: unknown options are bad input), so
 * a command can hand the option tokens on unchanged (`replay <file>… --update`: --update is boolean and the file
 * stays a file whatever the order).
 */
export function splitPositionals(args: readonly string[], options: OptionTable): { positionals: string[]; optionArgs: string[]; names: string[] } {
  let tokens;
  try {
    tokens = parseArgs({ args: [...args], options, strict: true, allowPositionals: true, tokens: true }).tokens;
  } catch (error) {
    throw new UsageError(optionError(error, args));
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
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(Number(value)) || Number(value) < min) throw new UsageError(`--${name} must be an integer ≥ ${min}, got ${JSON.stringify(value)}`);
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
  if (existsSync(path) && statSync(path).isDirectory()) throw new UsageError(`--${name} ${value} is a folder, not a file`);
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
    throw new UsageError(`--grep is not a valid regular expression: ${error instanceof Error ? error.message : String(error)}`);
  }
  return value;
}

const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 } as const;

/** A duration option: a positive integer with a unit ms, s, m or h (a bare number is seconds): `90s`, `10m`, `1h`. */
export function parseDuration(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const match = /^(\d+)(ms|s|m|h)?$/.exec(value);
  const ms = match ? Number(match[1]) * UNIT_MS[(match[2] ?? "s") as keyof typeof UNIT_MS] : Number.NaN;
  if (!Number.isSafeInteger(ms) || ms < 1) throw new UsageError(`--${name} must be a positive duration like 90s, 10m or 1h, got ${JSON.stringify(value)}`);
  return ms;
}
