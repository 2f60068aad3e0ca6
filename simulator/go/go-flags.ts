// A faithful port of Go's `flag` package parse loop (FlagSet with ContinueOnError, output = stdout), §5.

// gentle-ai prints its own usage block (gentle-ai/argv/usage.ts), so the caller passes it in, as Go sets FlagSet.Usage.
import type { FlagKind, FlagSetSpec } from "./flag-spec.ts";
import { goQuoteStr } from "./go-quote.ts";

export type FlagValue = string | boolean | number;

/** One accepted flag occurrence in argument order. */
export interface FlagOccurrence {
  readonly name: string;
  readonly value: FlagValue;
  /** Index in argv of the flag token. */
  readonly index: number;
  /** True when the value was bound with `=` (or the flag is a bare bool). */
  readonly inline: boolean;
}

/** Result of a parse that did not fail (ErrHelp included: `help` is then true and parsing stopped there). */
export class ParsedFlags {
  constructor(
    readonly spec: FlagSetSpec,
    readonly occurrences: readonly FlagOccurrence[],
    readonly positionals: readonly string[],
    /** argv index of the first positional (argv.length when none). */
    readonly positionalIndex: number,
    readonly help: boolean,
    /** Bytes the FlagSet wrote to its output (the usage block on ErrHelp). */
    readonly output: string,
  ) {}

  /** Whether the flag was set on the command line (Go flag.Visit). */
  has(name: string): boolean {
    return this.occurrences.some((o) => o.name === name);
  }

  /** Every value given for a repeatable flag, in order. */
  all(name: string): FlagValue[] {
    return this.occurrences.filter((o) => o.name === name).map((o) => o.value);
  }

  /** Number of times the flag was given. */
  count(name: string): number {
    return this.occurrences.filter((o) => o.name === name).length;
  }

  private last(name: string): FlagValue {
    for (let i = this.occurrences.length - 1; i >= 0; i--)
      if (this.occurrences[i]!.name === name) return this.occurrences[i]!.value;
    const def = this.spec.flags.find((f) => f.name === name);
    if (!def) throw new Error(`flag -${name} is not defined in ${this.spec.name}`);
    return def.default ?? (def.kind === "bool" ? false : def.kind === "int" ? 0 : "");
  }

  /** Last value of a string flag, or its default. */
  str(name: string): string {
    return String(this.last(name));
  }

  /** Last value of a bool flag, or its default. */
  bool(name: string): boolean {
    return this.last(name) === true;
  }

  /** Last value of an int flag, or its default. */
  int(name: string): number {
    return Number(this.last(name));
  }
}

/** A parse error: `message` is the returned error text; `output` is what Go printed (message line + usage). */
export interface FlagError {
  readonly message: string;
  readonly output: string;
}

export type ParseOutcome =
  { readonly ok: true; readonly flags: ParsedFlags } | { readonly ok: false; readonly error: FlagError };

const BOOL_TRUE = new Set(["1", "t", "T", "TRUE", "true", "True"]);
const BOOL_FALSE = new Set(["0", "f", "F", "FALSE", "false", "False"]);

/** strconv.ParseBool. */
export function parseGoBool(v: string): boolean | undefined {
  return BOOL_TRUE.has(v) ? true : BOOL_FALSE.has(v) ? false : undefined;
}

function lower(c: string): string {
  return c.toLowerCase();
}

function underscoreOK(s0: string): boolean {
  let s = s0;
  let saw = "^";
  let i = 0;
  if (s.length >= 1 && (s[0] === "-" || s[0] === "+")) s = s.slice(1);
  let hex = false;
  if (s.length >= 2 && s[0] === "0" && "box".includes(lower(s[1]!))) {
    i = 2;
    saw = "0";
    hex = lower(s[1]!) === "x";
  }
  for (; i < s.length; i++) {
    const c = s[i]!;
    if ((c >= "0" && c <= "9") || (hex && lower(c) >= "a" && lower(c) <= "f")) {
      saw = "0";
      continue;
    }
    if (c === "_") {
      if (saw !== "0") return false;
      saw = "_";
      continue;
    }
    if (saw === "_") return false;
    saw = "!";
  }
  return saw !== "_";
}

type NumResult = { ok: true; value: bigint } | { ok: false; err: "parse error" | "value out of range" };

function parseUint(s0: string, bitSize: number): NumResult {
  if (s0 === "") return { ok: false, err: "parse error" };
  let s = s0;
  let base = 10n;
  if (s[0] === "0") {
    if (s.length >= 3 && lower(s[1]!) === "b") [base, s] = [2n, s.slice(2)];
    else if (s.length >= 3 && lower(s[1]!) === "o") [base, s] = [8n, s.slice(2)];
    else if (s.length >= 3 && lower(s[1]!) === "x") [base, s] = [16n, s.slice(2)];
    else [base, s] = [8n, s.slice(1)];
  }
  const maxVal = (1n << BigInt(bitSize)) - 1n;
  const cutoff = ((1n << 64n) - 1n) / base + 1n; // Go: maxUint64/base + 1
  let n = 0n;
  let underscores = false;
  for (const c of s) {
    let d: bigint;
    if (c === "_") {
      underscores = true;
      continue;
    } else if (c >= "0" && c <= "9") d = BigInt(c.charCodeAt(0) - 48);
    else if (lower(c) >= "a" && lower(c) <= "z") d = BigInt(lower(c).charCodeAt(0) - 97 + 10);
    else return { ok: false, err: "parse error" };
    if (d >= base) return { ok: false, err: "parse error" };
    if (n >= cutoff) return { ok: false, err: "value out of range" };
    n *= base;
    const n1 = n + d;
    if (n1 < n || n1 > maxVal) return { ok: false, err: "value out of range" };
    n = n1;
  }
  if (underscores && !underscoreOK(s0)) return { ok: false, err: "parse error" };
  return { ok: true, value: n };
}

/** strconv.ParseInt(s, 0, 64) reduced to flag's errParse / errRange. */
export function parseGoInt(s: string): NumResult {
  if (s === "") return { ok: false, err: "parse error" };
  let body = s;
  let neg = false;
  if (s[0] === "+") body = s.slice(1);
  else if (s[0] === "-") [neg, body] = [true, s.slice(1)];
  const u = parseUint(body, 64);
  if (!u.ok) return u;
  const cutoff = 1n << 63n;
  if (!neg && u.value >= cutoff) return { ok: false, err: "value out of range" };
  if (neg && u.value > cutoff) return { ok: false, err: "value out of range" };
  return { ok: true, value: neg ? -u.value : u.value };
}

/** The flag set's usage block (Go's `FlagSet.Usage`), written after a parse error and on -h. */
export type UsageText = (spec: FlagSetSpec) => string;

/** FlagSet.Parse with ContinueOnError. Errors carry Go's exact text and the bytes Go wrote to the output. */
export function parseFlags(spec: FlagSetSpec, argv: readonly string[], usageText: UsageText): ParseOutcome {
  const formal = new Map(spec.flags.map((f) => [f.name, f] as const));
  const occurrences: FlagOccurrence[] = [];
  const fail = (message: string): ParseOutcome => ({
    ok: false,
    error: { message, output: message + "\n" + usageText(spec) },
  });
  let i = 0;
  let help = false;
  while (i < argv.length) {
    const s = argv[i]!;
    if (s.length < 2 || s[0] !== "-") break;
    let minuses = 1;
    if (s[1] === "-") {
      minuses = 2;
      if (s.length === 2) {
        i++; // "--" terminates the flags and is consumed
        break;
      }
    }
    let name = s.slice(minuses);
    if (name.length === 0 || name[0] === "-" || name[0] === "=") return fail(`bad flag syntax: ${s}`);
    const index = i;
    i++;
    let hasValue = false;
    let value = "";
    const eq = name.indexOf("=", 1);
    if (eq >= 1) {
      value = name.slice(eq + 1);
      hasValue = true;
      name = name.slice(0, eq);
    }
    const flag = formal.get(name);
    if (!flag) {
      if (name === "help" || name === "h") {
        help = true;
        break;
      }
      return fail(`flag provided but not defined: -${name}`);
    }
    if (flag.kind === "bool") {
      if (hasValue) {
        const b = parseGoBool(value);
        if (b === undefined) return fail(`invalid boolean value ${goQuoteStr(value)} for -${name}: parse error`);
        occurrences.push({ name, value: b, index, inline: true });
      } else occurrences.push({ name, value: true, index, inline: true });
      continue;
    }
    let inline = hasValue;
    if (!hasValue && i < argv.length) {
      hasValue = true;
      value = argv[i]!;
      i++;
      inline = false;
    }
    if (!hasValue) return fail(`flag needs an argument: -${name}`);
    if (flag.kind === "int") {
      const n = parseGoInt(value);
      if (!n.ok) return fail(`invalid value ${goQuoteStr(value)} for flag -${name}: ${n.err}`);
      occurrences.push({ name, value: Number(n.value), index, inline });
    } else if (flag.setError !== undefined && occurrences.some((o) => o.name === name)) {
      return fail(`invalid value ${goQuoteStr(value)} for flag -${name}: ${flag.setError}`);
    } else occurrences.push({ name, value, index, inline });
  }
  // On ErrHelp Go has already consumed the help token: FlagSet.Args() is everything after it, unparsed.
  return { ok: true, flags: new ParsedFlags(spec, occurrences, argv.slice(i), i, help, help ? usageText(spec) : "") };
}

/** `reviewHelpRequested` (review.go:131-138): some argument is exactly `-h` or `--help`, wherever it stands. */
export function helpRequested(argv: readonly string[]): boolean {
  return argv.some((a) => a === "-h" || a === "--help");
}

/** The detached-bool refusal (`--materialize true`): first positional true/false after a bare bool flag token. */
export function detachedBoolRefusal(parsed: ParsedFlags, argv: readonly string[]): string | undefined {
  const first = parsed.positionals[0];
  if (first !== "true" && first !== "false") return undefined;
  const prev = argv[parsed.positionalIndex - 1];
  if (prev === undefined || prev === "--" || prev.includes("=")) return undefined;
  const m = /^--?([^-=].*)$/.exec(prev);
  if (!m) return undefined;
  const def = parsed.spec.flags.find((f) => f.name === m[1]);
  if (!def || def.kind !== "bool") return undefined;
  return `boolean flag --${def.name} takes --${def.name} or --${def.name}=${first}, not a separate value; got ${goQuoteStr(first)}`;
}

/** The flags of a set as the lineage safe scan needs them. */
export function scanFlagsOf(spec: FlagSetSpec): { name: string; kind: FlagKind }[] {
  return spec.flags.map((f) => ({ name: f.name, kind: f.kind }));
}
