// Go encoding/json Decoder semantics for strict documents: DisallowUnknownFields, one value only, Go's error texts.
import { goQuoteStr } from "./go-quote.ts";

// Reusable by every verb that reads a strict JSON input (reviewer results, --validation documents).

/**
 * A Go type the decoder fills. Struct fields use their JSON names; `name` is the Go type name for errors and `pkg`
 * its package when it differs from the decoder's default. A named string type (`reviewtransaction.EvidenceClass`)
 * carries its qualified name in `named`, which is how Go prints it in a type error.
 */
export type GoType =
  | { readonly kind: "string"; readonly named?: string }
  | { readonly kind: "bool" }
  | { readonly kind: "int" }
  | { readonly kind: "slice"; readonly elem: GoType }
  | {
      readonly kind: "struct";
      readonly name: string;
      readonly pkg?: string;
      readonly fields: readonly { readonly json: string; readonly type: GoType }[];
    };

/** Decoded values: structs become records keyed by JSON name; nil slices and absent fields are `null`. */
export type Decoded = string | boolean | number | null | Decoded[] | { [field: string]: Decoded };

type Node =
  | { t: "obj"; members: [string, Node][] }
  | { t: "arr"; items: Node[] }
  | { t: "str"; v: string }
  | { t: "num"; raw: string }
  | { t: "bool"; v: boolean }
  | { t: "null" };

class SyntaxError_ extends Error {}

// Go's scanner reads bytes: a non-ASCII character is reported as its first UTF-8 byte, printed as that rune (U+0080
// to U+00FF), so "ü" (C3 BC) is 'Ã'. A lone high surrogate stands for its code point's lead byte.
function firstUtf8Byte(c: string): number {
  const u = c.charCodeAt(0);
  if (u < 0x80) return u;
  if (u < 0x800) return 0xc0 | (u >> 6);
  if (u >= 0xd800 && u <= 0xdbff) return 0xf0 | ((((u - 0xd800) << 10) + 0x10000) >> 18);
  return 0xe0 | (u >> 12);
}

/** decode.go quoteChar: the offending byte as a quoted rune. */
function quoteChar(c: string): string {
  if (c === "'") return "'\\''";
  if (c === '"') return "'\"'";
  const q = goQuoteStr(String.fromCharCode(firstUtf8Byte(c))); // strconv.Quote(string(c)), outer quotes replaced
  return "'" + q.slice(1, -1) + "'";
}

const WS = new Set([" ", "\t", "\n", "\r"]);

// The one-character escapes Go's scanner accepts after a backslash, and what each stands for.
const SIMPLE_ESCAPES: Record<string, string> = {
  '"': '"',
  "\\": "\\",
  "/": "/",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
};

/** Parses one JSON value at `pos` with Go's scanner messages; returns the node and the end offset. */
function parseValue(s: string, start: number): { node: Node; end: number } {
  const scanner = new GoScanner(s, start);
  const node = scanner.value();
  return { node, end: scanner.i };
}

// A cursor over the text: each method consumes one grammar production or throws Go's message for it.
class GoScanner {
  i: number;

  constructor(
    private readonly s: string,
    start: number,
  ) {
    this.i = start;
  }

  private eof(): never {
    throw new SyntaxError_("unexpected EOF");
  }

  /** Throws io.ErrUnexpectedEOF when the input ends here. */
  private more(): void {
    if (this.i >= this.s.length) this.eof();
  }

  private skip(): void {
    while (this.i < this.s.length && WS.has(this.s[this.i]!)) this.i++;
  }

  /** A string literal from its opening quote; returns its decoded text. */
  private str(): string {
    const s = this.s;
    this.i++; // opening quote
    let out = "";
    for (;;) {
      this.more();
      const c = s[this.i]!;
      if (c === '"') {
        this.i++;
        return out;
      }
      if (c < " ") throw new SyntaxError_(`invalid character ${quoteChar(c)} in string literal`);
      if (c === "\\") {
        this.i++;
        out += this.escape();
        continue;
      }
      out += c;
      this.i++;
    }
  }

  /** The escape after a backslash: a simple one or \uXXXX. */
  private escape(): string {
    this.more();
    const e = this.s[this.i]!;
    if (e in SIMPLE_ESCAPES) {
      this.i++;
      return SIMPLE_ESCAPES[e]!;
    }
    if (e !== "u") throw new SyntaxError_(`invalid character ${quoteChar(e)} in string escape code`);
    this.i++;
    let hex = "";
    for (let k = 0; k < 4; k++) {
      this.more();
      const h = this.s[this.i]!;
      if (!/[0-9a-fA-F]/.test(h))
        throw new SyntaxError_(`invalid character ${quoteChar(h)} in \\u hexadecimal character escape`);
      hex += h;
      this.i++;
    }
    return String.fromCharCode(parseInt(hex, 16));
  }

  private literal(word: string, node: Node): Node {
    const s = this.s;
    const i = this.i;
    for (let k = 1; k < word.length; k++) {
      if (i + k >= s.length) this.eof();
      if (s[i + k] !== word[k])
        throw new SyntaxError_(
          `invalid character ${quoteChar(s[i + k]!)} in literal ${word} (expecting ${quoteChar(word[k]!)})`,
        );
    }
    this.i += word.length;
    return node;
  }

  private digits(): void {
    while (this.i < this.s.length && /[0-9]/.test(this.s[this.i]!)) this.i++;
  }

  /** At least one digit must come next, or Go names the offending character and `where` it stood. */
  private firstDigit(where: string): void {
    this.more();
    const c = this.s[this.i]!;
    if (!/[0-9]/.test(c)) throw new SyntaxError_(`invalid character ${quoteChar(c)} ${where}`);
  }

  private num(): Node {
    const s = this.s;
    const from = this.i;
    if (s[this.i] === "-") {
      this.i++;
      this.firstDigit("in numeric literal");
    }
    if (s[this.i] === "0") this.i++;
    else this.digits();
    if (s[this.i] === ".") {
      this.i++;
      this.firstDigit("after decimal point in numeric literal");
      this.digits();
    }
    if (s[this.i] === "e" || s[this.i] === "E") {
      this.i++;
      if (s[this.i] === "+" || s[this.i] === "-") this.i++;
      this.firstDigit("in exponent of numeric literal");
      this.digits();
    }
    // A number ending the input is incomplete for a stream Decoder only if more digits could follow; Go reads on.
    return { t: "num", raw: s.slice(from, this.i) };
  }

  /** The next non-space character, which must exist. */
  private next(): string {
    this.skip();
    this.more();
    return this.s[this.i]!;
  }

  /** Past an opening bracket: true when `close` follows at once, consumed, leaving the container empty. */
  private empty(close: string): boolean {
    this.i++; // the opening bracket
    if (this.next() !== close) return false;
    this.i++;
    return true;
  }

  /** An object key and its colon; returns the key. */
  private key(): string {
    const open = this.next();
    if (open !== '"')
      throw new SyntaxError_(`invalid character ${quoteChar(open)} looking for beginning of object key string`);
    const key = this.str();
    const colon = this.next();
    if (colon !== ":") throw new SyntaxError_(`invalid character ${quoteChar(colon)} after object key`);
    this.i++;
    return key;
  }

  /** After a member or element: true on a comma (another follows), false on `close`; anything else is Go's `error`. */
  private another(close: string, error: string): boolean {
    const after = this.next();
    if (after !== "," && after !== close) throw new SyntaxError_(`invalid character ${quoteChar(after)} ${error}`);
    this.i++;
    return after === ",";
  }

  // Containers are parsed here rather than in their own methods so that nesting costs one stack frame a level, as
  // before: a deeper stack would overflow on shallower documents.
  /** One value after optional white space. */
  value(): Node {
    const c = this.next();
    if (c === "{") {
      const members: [string, Node][] = [];
      if (this.empty("}")) return { t: "obj", members };
      do {
        const key = this.key();
        members.push([key, this.value()]);
      } while (this.another("}", "after object key:value pair"));
      return { t: "obj", members };
    }
    if (c === "[") {
      const items: Node[] = [];
      if (this.empty("]")) return { t: "arr", items };
      do items.push(this.value());
      while (this.another("]", "after array element"));
      return { t: "arr", items };
    }
    if (c === '"') return { t: "str", v: this.str() };
    if (c === "t") return this.literal("true", { t: "bool", v: true });
    if (c === "f") return this.literal("false", { t: "bool", v: false });
    if (c === "n") return this.literal("null", { t: "null" });
    if (c === "-" || (c >= "0" && c <= "9")) return this.num();
    throw new SyntaxError_(`invalid character ${quoteChar(c)} looking for beginning of value`);
  }
}

function nodeKind(n: Node): string {
  switch (n.t) {
    case "obj":
      return "object";
    case "arr":
      return "array";
    case "str":
      return "string";
    case "bool":
      return "bool";
    case "num":
      return "number";
    default:
      return "null";
  }
}

function typeName(t: GoType, pkg: string): string {
  switch (t.kind) {
    case "slice":
      return "[]" + typeName(t.elem, pkg);
    case "struct":
      return `${t.pkg ?? pkg}.${t.name}`;
    case "string":
      return t.named ?? "string";
    default:
      return t.kind;
  }
}

/** Decoder options: `pkg` qualifies struct type names in type errors (Go prints e.g. `[]cli.finding`). */
export interface DecodeOptions {
  readonly pkg: string;
}

/**
 * json.NewDecoder(text) + DisallowUnknownFields + Decode(&v) + "input contains multiple JSON values" when any
 * non-space byte follows the first value. Errors are Go's texts without any caller prefix.
 */
export function decodeStrict(
  text: string,
  type: GoType,
  opts: DecodeOptions,
): { ok: true; value: Decoded } | { ok: false; error: string } {
  let parsed: { node: Node; end: number };
  try {
    parsed = parseValue(text, 0);
  } catch (e) {
    // A Decoder on an all-space input reports io.EOF; elsewhere a truncated value is io.ErrUnexpectedEOF.
    if (e instanceof SyntaxError_)
      return { ok: false, error: e.message === "unexpected EOF" && /^[ \t\n\r]*$/.test(text) ? "EOF" : e.message };
    throw e;
  }
  let firstError: string | undefined;
  const save = (msg: string) => {
    if (firstError === undefined) firstError = msg;
  };
  // Go's errorContext: Struct is the innermost struct holding the field, Field the dotted path from the root.
  const fill = (n: Node, t: GoType, path: string, holder: string): Decoded => {
    if (n.t === "null") return zero(t); // null leaves the Go zero value (nil slice, zero struct)
    const mismatch = (): Decoded => {
      const value = n.t === "num" && t.kind === "int" ? `number ${n.raw}` : nodeKind(n);
      const into = path === "" ? "Go value" : `Go struct field ${holder}.${path}`;
      save(`json: cannot unmarshal ${value} into ${into} of type ${typeName(t, opts.pkg)}`);
      return zero(t);
    };
    switch (t.kind) {
      case "string":
        return n.t === "str" ? n.v : mismatch();
      case "bool":
        return n.t === "bool" ? n.v : mismatch();
      case "int":
        return n.t === "num" && /^-?[0-9]+$/.test(n.raw) ? Number(n.raw) : mismatch();
      case "slice":
        return n.t === "arr" ? n.items.map((item) => fill(item, t.elem, path, holder)) : mismatch();
      case "struct": {
        if (n.t !== "obj") return mismatch();
        const out: { [k: string]: Decoded } = {};
        for (const f of t.fields) out[f.json] = zero(f.type);
        for (const [key, child] of n.members) {
          // Go matches an exact name first, then a case-insensitive one.
          const field =
            t.fields.find((f) => f.json === key) ?? t.fields.find((f) => f.json.toLowerCase() === key.toLowerCase());
          if (!field) {
            save(`json: unknown field ${goQuoteStr(key)}`);
            continue;
          }
          out[field.json] = fill(child, field.type, path === "" ? field.json : `${path}.${field.json}`, t.name);
        }
        return out;
      }
    }
  };
  const value = fill(parsed.node, type, "", "");
  if (firstError !== undefined) return { ok: false, error: firstError };
  if (!/^[ \t\n\r]*$/.test(text.slice(parsed.end))) return { ok: false, error: "input contains multiple JSON values" };
  return { ok: true, value };
}

function zero(t: GoType): Decoded {
  if (t.kind === "struct") return Object.fromEntries(t.fields.map((f) => [f.json, zero(f.type)]));
  return t.kind === "string" ? "" : t.kind === "bool" ? false : t.kind === "int" ? 0 : null;
}
