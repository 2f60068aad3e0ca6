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

/** Parses one JSON value at `pos` with Go's scanner messages; returns the node and the end offset. */
function parseValue(s: string, start: number): { node: Node; end: number } {
  let i = start;
  const eof = (): never => {
    throw new SyntaxError_("unexpected EOF");
  };
  const skip = () => {
    while (i < s.length && WS.has(s[i]!)) i++;
  };
  const str = (): string => {
    i++; // opening quote
    let out = "";
    for (;;) {
      if (i >= s.length) eof();
      const c = s[i]!;
      if (c === '"') {
        i++;
        return out;
      }
      if (c < " ") throw new SyntaxError_(`invalid character ${quoteChar(c)} in string literal`);
      if (c === "\\") {
        i++;
        if (i >= s.length) eof();
        const e = s[i]!;
        const simple: Record<string, string> = {
          '"': '"',
          "\\": "\\",
          "/": "/",
          b: "\b",
          f: "\f",
          n: "\n",
          r: "\r",
          t: "\t",
        };
        if (e in simple) {
          out += simple[e];
          i++;
          continue;
        }
        if (e !== "u") throw new SyntaxError_(`invalid character ${quoteChar(e)} in string escape code`);
        i++;
        let hex = "";
        for (let k = 0; k < 4; k++) {
          if (i >= s.length) eof();
          const h = s[i]!;
          if (!/[0-9a-fA-F]/.test(h))
            throw new SyntaxError_(`invalid character ${quoteChar(h)} in \\u hexadecimal character escape`);
          hex += h;
          i++;
        }
        out += String.fromCharCode(parseInt(hex, 16));
        continue;
      }
      out += c;
      i++;
    }
  };
  const literal = (word: string, node: Node): Node => {
    for (let k = 1; k < word.length; k++) {
      if (i + k >= s.length) eof();
      if (s[i + k] !== word[k])
        throw new SyntaxError_(
          `invalid character ${quoteChar(s[i + k]!)} in literal ${word} (expecting ${quoteChar(word[k]!)})`,
        );
    }
    i += word.length;
    return node;
  };
  const num = (): Node => {
    const from = i;
    if (s[i] === "-") {
      i++;
      if (i >= s.length) eof();
      if (!/[0-9]/.test(s[i]!)) throw new SyntaxError_(`invalid character ${quoteChar(s[i]!)} in numeric literal`);
    }
    if (s[i] === "0") i++;
    else while (i < s.length && /[0-9]/.test(s[i]!)) i++;
    if (s[i] === ".") {
      i++;
      if (i >= s.length) eof();
      if (!/[0-9]/.test(s[i]!))
        throw new SyntaxError_(`invalid character ${quoteChar(s[i]!)} after decimal point in numeric literal`);
      while (i < s.length && /[0-9]/.test(s[i]!)) i++;
    }
    if (s[i] === "e" || s[i] === "E") {
      i++;
      if (s[i] === "+" || s[i] === "-") i++;
      if (i >= s.length) eof();
      if (!/[0-9]/.test(s[i]!))
        throw new SyntaxError_(`invalid character ${quoteChar(s[i]!)} in exponent of numeric literal`);
      while (i < s.length && /[0-9]/.test(s[i]!)) i++;
    }
    // A number ending the input is incomplete for a stream Decoder only if more digits could follow; Go reads on.
    return { t: "num", raw: s.slice(from, i) };
  };
  const value = (): Node => {
    skip();
    if (i >= s.length) eof();
    const c = s[i]!;
    if (c === "{") {
      i++;
      const members: [string, Node][] = [];
      skip();
      if (i >= s.length) eof();
      if (s[i] === "}") {
        i++;
        return { t: "obj", members };
      }
      for (;;) {
        skip();
        if (i >= s.length) eof();
        if (s[i] !== '"')
          throw new SyntaxError_(`invalid character ${quoteChar(s[i]!)} looking for beginning of object key string`);
        const key = str();
        skip();
        if (i >= s.length) eof();
        if (s[i] !== ":") throw new SyntaxError_(`invalid character ${quoteChar(s[i]!)} after object key`);
        i++;
        members.push([key, value()]);
        skip();
        if (i >= s.length) eof();
        if (s[i] === ",") {
          i++;
          continue;
        }
        if (s[i] === "}") {
          i++;
          return { t: "obj", members };
        }
        throw new SyntaxError_(`invalid character ${quoteChar(s[i]!)} after object key:value pair`);
      }
    }
    if (c === "[") {
      i++;
      const items: Node[] = [];
      skip();
      if (i >= s.length) eof();
      if (s[i] === "]") {
        i++;
        return { t: "arr", items };
      }
      for (;;) {
        items.push(value());
        skip();
        if (i >= s.length) eof();
        if (s[i] === ",") {
          i++;
          continue;
        }
        if (s[i] === "]") {
          i++;
          return { t: "arr", items };
        }
        throw new SyntaxError_(`invalid character ${quoteChar(s[i]!)} after array element`);
      }
    }
    if (c === '"') return { t: "str", v: str() };
    if (c === "t") return literal("true", { t: "bool", v: true });
    if (c === "f") return literal("false", { t: "bool", v: false });
    if (c === "n") return literal("null", { t: "null" });
    if (c === "-" || (c >= "0" && c <= "9")) return num();
    throw new SyntaxError_(`invalid character ${quoteChar(c)} looking for beginning of value`);
  };
  const node = value();
  return { node, end: i };
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
