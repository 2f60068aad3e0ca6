// The differential fuzzer's calls, composed from small arbitraries: a modelled verb, flags near the real ones in
// every spelling Go's flag package reads, values that stress its parsing, the handshake, and stdin.
import * as fc from "fast-check";

/** The `review` verbs the simulator models, and `version`. */
export const MODELLED_VERBS = [
  "status",
  "capabilities",
  "lens-context",
  "capture-result",
  "capture-evidence",
  "finalize",
  "capture-refuter",
  "capture-validation",
  "start",
  "validate",
  "mode",
  "version",
] as const;
export type ModelledVerb = (typeof MODELLED_VERBS)[number];

/** One generated call: argv words (`$WORK` expands to the world's repository), the handshake and stdin. */
export interface GeneratedCall {
  readonly argv: readonly string[];
  /** undefined: unset; otherwise the value exported as GENTLE_PI_REVIEW_RELAY_CONTRACT. */
  readonly handshake: string | undefined;
  readonly stdin: string;
}

/** A flag defined by the binary: its name and whether it takes a value. */
export interface KnownFlag {
  readonly name: string;
  readonly takesValue: boolean;
}

/** Values that stress flag parsing and the verbs' checks. */
const value = (): fc.Arbitrary<string> =>
  fc.oneof(
    fc.constantFrom(
      "",
      " ",
      "=",
      "a b",
      "x=y",
      "ünï",
      "$WORK",
      "$WORK/missing",
      ".",
      "-",
      "true",
      "false",
      "0",
      "1",
      "-1",
      "pi",
      "claude-code",
    ),
    fc.constantFrom(
      "gentle-ai.review-integration/v2",
      "gentle-ai.review-integration/v1",
      "gentle-ai.review-integration/v9",
      "workspace",
      "review-risk",
      "review-reliability",
      "granted",
      "declined",
      "relay",
      "global",
      "clone",
      `sha256:${"0".repeat(64)}`,
      "rctx1_" + "a".repeat(64),
      "review-0123456789abcdef",
    ),
    fc.string({ unit: "grapheme-ascii", maxLength: 8 }).filter((s) => !s.includes("\n") && !s.includes("'")),
  );

/** A name near a real one: itself, a typo, another case, an underscore, or a word no verb defines. */
function nearName(flags: readonly KnownFlag[]): fc.Arbitrary<string> {
  const real = flags.length > 0 ? fc.constantFrom(...flags.map((f) => f.name)) : fc.constant("cwd");
  return fc.oneof(
    { weight: 6, arbitrary: real },
    { weight: 1, arbitrary: real.map((n) => n.slice(0, -1)) },
    { weight: 1, arbitrary: real.map((n) => n.toUpperCase()) },
    { weight: 1, arbitrary: real.map((n) => n.replaceAll("-", "_")) },
    { weight: 1, arbitrary: fc.constantFrom("verbose", "json", "force", "h", "help") },
  );
}

/** One flag in one of Go's spellings: `-f`, `--f`, `-f=v`, `--f=v`, `--f v`, or a bare word. */
function flagTokens(flags: readonly KnownFlag[]): fc.Arbitrary<string[]> {
  return fc
    .tuple(nearName(flags), fc.constantFrom("-", "--"), fc.constantFrom("eq", "space", "bare"), value())
    .map(([name, dashes, form, v]) =>
      form === "eq" ? [`${dashes}${name}=${v}`] : form === "space" ? [`${dashes}${name}`, v] : [`${dashes}${name}`],
    );
}

/** A call of one verb: its flags in any order, repeated or not, sometimes a stray positional or `--`. */
function verbCall(verb: ModelledVerb, flags: readonly KnownFlag[]): fc.Arbitrary<string[]> {
  const tokens = fc.array(
    fc.oneof(
      { weight: 8, arbitrary: flagTokens(flags) },
      { weight: 1, arbitrary: fc.constantFrom(["--"], ["extra"], ["-"]) },
    ),
    { maxLength: 4 },
  );
  const head =
    verb === "version"
      ? fc.constantFrom(["version"], ["--version"], ["-v"])
      : verb === "mode"
        ? fc.constantFrom("enable", "disable", "status", "bogus").map((a) => ["review", "mode", a])
        : fc.constant(["review", verb]);
  return fc
    .tuple(head, fc.constantFrom(true, false), tokens)
    .map(([h, cwd, t]) => [...h, ...(cwd && verb !== "version" ? ["--cwd", "$WORK"] : []), ...t.flat()]);
}

/** A whole generated call; `flagsOf` gives each verb's flags as the binary's own `--help` lists them. */
export function generatedCall(flagsOf: (verb: ModelledVerb) => readonly KnownFlag[]): fc.Arbitrary<GeneratedCall> {
  return fc.record({
    argv: fc.constantFrom(...MODELLED_VERBS).chain((verb) => verbCall(verb, flagsOf(verb))),
    handshake: fc.option(fc.constantFrom("gentle-ai.review-integration/v2", "wrong", ""), { nil: undefined }),
    stdin: fc.constantFrom("", "{}\n", "not json\n"),
  });
}

/** The flags a `--help` text lists under `Flags:` (`  --name <value>` takes a value, `  --name` does not). */
export function flagsOfHelp(help: string): KnownFlag[] {
  const flags: KnownFlag[] = [];
  for (const m of help.matchAll(/^ {2}(?:-\w, )?--?([A-Za-z0-9][A-Za-z0-9_-]*)( <[^>]*>)?$/gm))
    flags.push({ name: m[1] as string, takesValue: m[2] !== undefined });
  return flags;
}
