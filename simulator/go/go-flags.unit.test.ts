import { describe, expect, it } from "vitest";
import { detachedBoolRefusal, helpRequested, parseFlags, parseGoInt } from "./go-flags.ts";
import { goQuoteStr } from "./go-quote.ts";
import type { FlagSetSpec } from "./flag-spec.ts";

const SPEC: FlagSetSpec = {
  name: "review demo",
  details: "Demo details.",
  flags: [
    { name: "lens", kind: "string", usage: "exact selected lens" },
    { name: "cwd", kind: "string", default: ".", usage: "repository path" },
    { name: "order", kind: "int", default: -1, usage: "zero-based selected lens order" },
    { name: "lines", kind: "int", usage: "positive predicted correction changed lines" },
    { name: "materialize", kind: "bool", usage: "print the task" },
    { name: "file", kind: "string", usage: "repeatable file" },
  ],
};

// gentle-ai's own block is tested beside it (gentle-ai/argv/usage.unit.test.ts); here any FlagSet.Usage will do.
const usageText = (spec: FlagSetSpec): string => `Usage of ${spec.name}:\n`;
const USAGE = usageText(SPEC);

function ok(argv: string[]) {
  const r = parseFlags(SPEC, argv, usageText);
  if (!r.ok) throw new Error(`unexpected parse error: ${r.error.message}`);
  return r.flags;
}

function err(argv: string[]): string {
  const r = parseFlags(SPEC, argv, usageText);
  if (r.ok) throw new Error("expected a parse error");
  expect(r.error.output).toBe(r.error.message + "\n" + USAGE);
  return r.error.message;
}

describe("Go flag token grammar", () => {
  it("treats -x and --x alike and binds --x=v inline", () => {
    const f = ok(["-lens", "a", "--cwd=/r", "--order=2"]);
    expect([f.str("lens"), f.str("cwd"), f.int("order")]).toEqual(["a", "/r", 2]);
    expect(f.has("cwd")).toBe(true);
    expect(ok([]).has("cwd")).toBe(false);
    expect(ok([]).str("cwd")).toBe(".");
    expect(ok([]).int("order")).toBe(-1);
    expect(ok([]).int("lines")).toBe(0);
  });

  it("lets a non-bool flag consume the next token even if it starts with '-'", () => {
    const f = ok(["--lens", "--materialize", "rest"]);
    expect(f.str("lens")).toBe("--materialize");
    expect(f.bool("materialize")).toBe(false);
    expect(f.positionals).toEqual(["rest"]);
  });

  it("reports a missing argument with one dash", () => {
    expect(err(["--lens"])).toBe("flag needs an argument: -lens");
  });

  it("parses bool =value with strconv.ParseBool and refuses others", () => {
    for (const v of ["1", "t", "T", "TRUE", "true", "True"])
      expect(ok([`--materialize=${v}`]).bool("materialize")).toBe(true);
    for (const v of ["0", "f", "F", "FALSE", "false", "False"])
      expect(ok([`--materialize=${v}`]).bool("materialize")).toBe(false);
    expect(err(["--materialize=yes"])).toBe('invalid boolean value "yes" for -materialize: parse error');
    expect(err(["--materialize="])).toBe('invalid boolean value "" for -materialize: parse error');
  });

  it("parses ints with base 0, underscores and range errors", () => {
    expect(ok(["--order", "0x1F"]).int("order")).toBe(31);
    expect(ok(["--order", "0o17"]).int("order")).toBe(15);
    expect(ok(["--order", "017"]).int("order")).toBe(15);
    expect(ok(["--order", "0b101"]).int("order")).toBe(5);
    expect(ok(["--order", "1_000"]).int("order")).toBe(1000);
    expect(ok(["--order", "-3"]).int("order")).toBe(-3);
    expect(err(["--order", "1__0"])).toBe('invalid value "1__0" for flag -order: parse error');
    expect(err(["--order", "_1"])).toBe('invalid value "_1" for flag -order: parse error');
    expect(err(["--order", "08"])).toBe('invalid value "08" for flag -order: parse error');
    expect(err(["--order", "abc"])).toBe('invalid value "abc" for flag -order: parse error');
    expect(err(["--order="])).toBe('invalid value "" for flag -order: parse error');
    expect(err(["--order", "9223372036854775808"])).toBe(
      'invalid value "9223372036854775808" for flag -order: value out of range',
    );
    expect(ok(["--order", "-9223372036854775808"]).has("order")).toBe(true);
    expect(err(["--order", "99999999999999999999999"])).toBe(
      'invalid value "99999999999999999999999" for flag -order: value out of range',
    );
  });

  it("stops at the first non-flag or '-', consumes '--'", () => {
    expect(ok(["--lens", "a", "pos", "--cwd", "x"]).positionals).toEqual(["pos", "--cwd", "x"]);
    expect(ok(["-", "--cwd", "x"]).positionals).toEqual(["-", "--cwd", "x"]);
    const f = ok(["--lens=a", "--", "--cwd", "x"]);
    expect(f.positionals).toEqual(["--cwd", "x"]);
    expect(f.has("cwd")).toBe(false);
  });

  it("keeps every occurrence and lets the last one win", () => {
    const f = ok(["--file", "a", "--file=b", "--lens", "x", "--lens", "y"]);
    expect(f.all("file")).toEqual(["a", "b"]);
    expect(f.str("lens")).toBe("y");
    expect(f.count("lens")).toBe(2);
  });

  it("refuses a second value of a set-once flag.Var at that occurrence, before later flags", () => {
    const once: FlagSetSpec = {
      ...SPEC,
      flags: [...SPEC.flags, { name: "scope", kind: "string", usage: "once", setError: "only once" }],
    };
    const r = parseFlags(once, ["--scope=a", "--lens", "x", "--scope", "b", "--bogus"], usageText);
    expect(r.ok ? undefined : r.error.message).toBe('invalid value "b" for flag -scope: only once');
    const single = parseFlags(once, ["--scope", "a", "--file", "x", "--file", "y"], usageText);
    expect(single.ok && single.flags.str("scope")).toBe("a");
  });

  it("refuses malformed tokens", () => {
    expect(err(["---x"])).toBe("bad flag syntax: ---x");
    expect(err(["-=x"])).toBe("bad flag syntax: -=x");
    expect(err(["--=x"])).toBe("bad flag syntax: --=x");
  });

  it("reports only the first undefined flag, with one dash and without =value", () => {
    expect(err(["--agent=pi", "--materialize=true", "--bogus"])).toBe("flag provided but not defined: -agent");
    expect(err(["-x", "--y"])).toBe("flag provided but not defined: -x");
  });

  it("treats -h/-help/--h/--help as ErrHelp and stops there", () => {
    for (const h of ["-h", "-help", "--h", "--help"]) {
      const f = ok(["--lens", "a", h, "--bogus"]);
      expect(f.help).toBe(true);
      expect(f.output).toBe(USAGE);
      expect(helpRequested(["--lens", "a", h])).toBe(h === "-h" || h === "--help");
      expect(f.positionals).toEqual(["--bogus"]); // FlagSet.Args(): the unparsed rest after the help token
    }
  });

  it("detects a detached bool value", () => {
    const argv = ["--lens", "a", "--materialize", "true"];
    expect(detachedBoolRefusal(ok(argv), argv)).toBe(
      'boolean flag --materialize takes --materialize or --materialize=true, not a separate value; got "true"',
    );
    const argv2 = ["-materialize", "false"];
    expect(detachedBoolRefusal(ok(argv2), argv2)).toBe(
      'boolean flag --materialize takes --materialize or --materialize=false, not a separate value; got "false"',
    );
    const argv3 = ["--materialize=true", "true"];
    expect(detachedBoolRefusal(ok(argv3), argv3)).toBeUndefined();
    const argv4 = ["--materialize", "yes"];
    expect(detachedBoolRefusal(ok(argv4), argv4)).toBeUndefined();
  });

  it("quotes like Go %q", () => {
    expect(goQuoteStr('a"b\\c\n\u0001é')).toBe('"a\\"b\\\\c\\n\\x01é"');
    expect(parseGoInt("+0x_1")).toEqual({ ok: true, value: 1n });
  });
});
