// The assertion lines of a reproduction script (`exit`, `stdout`, `stderr`, `cmp`, `expect`, `calls`, some negated
// with `!`), each read into the Assertion it stands for; the step line above it is the parser's business.
import type { Assertion, Check } from "./format.ts";
import type { ParseContext } from "./parse-context.ts";

const ASSERTION_VERBS: ReadonlySet<string> = new Set(["exit", "stdout", "stderr", "cmp", "expect", "calls"]);

const CHECK_KEY = /^[A-Za-z][A-Za-z0-9_.:-]*$/;
const CHECK = /^([A-Za-z][A-Za-z0-9_.:-]*)(!=|>=|<=|=|~)(.*)$/s;

/** Whether `verb` starts an assertion line (after an optional `!`). */
export function isAssertionVerb(verb: string | undefined): boolean {
  return verb !== undefined && ASSERTION_VERBS.has(verb);
}

/** Reads an assertion line's words (`!` already taken off into `negate`); reports a bad one and returns undefined. */
export function parseAssertion(
  ctx: ParseContext,
  line: number,
  negate: boolean,
  words: readonly string[],
): Assertion | undefined {
  const [verb, ...args] = words as [string, ...string[]];
  switch (verb) {
    case "exit":
      return parseExit(ctx, line, negate, args);
    case "stdout":
    case "stderr":
      return parseMatch(ctx, line, negate, verb, args);
    case "cmp":
      if (negate) return ctx.fail(line, `"!" negates only exit, stdout and stderr`);
      if (args.length !== 2 || (args[0] !== "stdout" && args[0] !== "stderr"))
        return ctx.fail(line, "cmp takes stdout|stderr and a section name");
      ctx.needSection(line, args[1] as string);
      return { kind: "cmp", line, stream: args[0], section: args[1] as string };
    case "expect": {
      if (negate) return ctx.fail(line, `"!" negates only exit, stdout and stderr; use key!=value`);
      if (args.length === 0) return ctx.fail(line, "expect needs at least one check");
      const checks = parseChecks(ctx, line, args);
      return checks && { kind: "expect", line, checks };
    }
    case "calls":
      if (negate) return ctx.fail(line, `"!" negates only exit, stdout and stderr`);
      return parseCalls(ctx, line, args);
    default:
      return ctx.fail(line, `unknown assertion "${verb}"`);
  }
}

/** `exit N`, or `! exit` for any non-zero exit. */
function parseExit(ctx: ParseContext, line: number, negate: boolean, args: readonly string[]): Assertion | undefined {
  if (negate) {
    if (args.length !== 0) return ctx.fail(line, "`! exit` takes no code (it means any non-zero exit)");
    return { kind: "exit", line, code: "nonzero" };
  }
  if (args.length !== 1 || !/^\d{1,3}$/.test(args[0] as string)) return ctx.fail(line, "exit takes one exit code");
  return { kind: "exit", line, code: Number(args[0]) };
}

/** `stdout REGEX` / `stderr REGEX`, maybe negated: the regex must compile (a `$$` is a literal dollar). */
function parseMatch(
  ctx: ParseContext,
  line: number,
  negate: boolean,
  stream: "stdout" | "stderr",
  args: readonly string[],
): Assertion | undefined {
  if (args.length !== 1) return ctx.fail(line, `${stream} takes one regex (quote it with '...')`);
  const pattern = args[0] as string;
  try {
    new RegExp(pattern.replaceAll("$$", "$"), "m");
  } catch (e) {
    return ctx.fail(line, `${stream}: bad regex: ${(e as Error).message}`);
  }
  return { kind: "match", line, stream, pattern, negate };
}

/** `calls [phase] name=N …`: counts only (`=`, `>=`, `<=` a number). */
function parseCalls(ctx: ParseContext, line: number, args: readonly string[]): Assertion | undefined {
  const scope = args[0] === "phase" ? "phase" : "step";
  const rest = scope === "phase" ? args.slice(1) : args;
  if (rest.length === 0) return ctx.fail(line, "calls needs at least one name=count");
  const checks = parseChecks(ctx, line, rest);
  if (!checks) return undefined;
  for (const c of checks) {
    if (c.op === "~" || c.op === "!=" || !/^\d+$/.test(c.value))
      return ctx.fail(line, `calls: ${c.key} needs =N, >=N or <=N`);
  }
  return { kind: "calls", line, scope, checks };
}

/** Reads `key=value`-style checks (a bare key means `key=true`); reports the first bad one and returns undefined. */
function parseChecks(ctx: ParseContext, line: number, words: readonly string[]): Check[] | undefined {
  const checks: Check[] = [];
  for (const w of words) {
    if (CHECK_KEY.test(w)) {
      checks.push({ key: w, op: "=", value: "true" });
      continue;
    }
    const m = CHECK.exec(w);
    if (!m) return ctx.fail(line, `expected key=value, key~regex, key>=n or key<=n, got ${JSON.stringify(w)}`);
    const [, key, op, value] = m as unknown as [string, string, Check["op"], string];
    // A value holding `$VAR` is known only when the step runs, and checked then.
    if ((op === ">=" || op === "<=") && !/^-?\d+$/.test(value) && !value.includes("$"))
      return ctx.fail(line, `${key}${op} needs a number`);
    if (op === "~" && !value.includes("$")) {
      try {
        new RegExp(value);
      } catch (e) {
        return ctx.fail(line, `${key}: bad regex: ${(e as Error).message}`);
      }
    }
    if (op === "=" && value.startsWith("@")) {
      ctx.needSection(line, value.slice(1));
      checks.push({ key, op, value: "", section: value.slice(1) });
    } else checks.push({ key, op, value });
  }
  return checks;
}
