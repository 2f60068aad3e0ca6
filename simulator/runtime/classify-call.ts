/** The fault-matching identity of one call: verb (gentle-ai only) and capture leg. */
export interface CallClass {
  readonly verb?: string;
  readonly leg?: "materialize" | "submit";
}

const VERSION_ALIASES = new Set(["version", "--version", "-v"]);
const MATERIALIZE = /^--?materialize(?:=.*)?$/s;
const INPUT = /^--?input(?:=.*)?$/s;

/**
 * Verb: `version` for version/--version/-v, the review sub-command for `review <verb>` (`review` alone or with a flag
 * first), otherwise the first token. Leg: materialize if any `-materialize`/`--materialize[=…]` token is present,
 * else submit if an `-input`/`--input[=…]` token is present.
 */
export function classifyCall(program: "gentle-ai" | "pi", argv: readonly string[]): CallClass {
  if (program === "pi") return {};
  const first = argv[0];
  let verb: string | undefined;
  if (first === undefined) verb = undefined;
  else if (VERSION_ALIASES.has(first)) verb = "version";
  else if (first === "review") {
    const sub = argv[1];
    verb = sub === undefined || sub.startsWith("-") || sub === "help" ? "review" : sub;
  } else verb = first;
  const leg = argv.some((t) => MATERIALIZE.test(t))
    ? "materialize"
    : argv.some((t) => INPUT.test(t))
      ? "submit"
      : undefined;
  return { ...(verb === undefined ? {} : { verb }), ...(leg === undefined ? {} : { leg }) };
}

/** Counter key for one call class; the call index counts calls per program, verb and leg. */
export function callKey(program: string, call: CallClass): string {
  return `${program} ${call.verb ?? "-"} ${call.leg ?? "-"}`;
}
