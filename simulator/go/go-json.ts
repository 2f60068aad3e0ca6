// Go encoding/json Marshal (HTML-escaping, struct field order) followed by json.Indent, as gentle-ai's encodeReviewJSON
// does.

/** A JSON value in emission order. Object keys keep insertion order; `undefined` members are omitted (Go omitempty). */
export type GoJson =
  null | boolean | number | string | readonly GoJson[] | { readonly [key: string]: GoJson | undefined };

const HEX = "0123456789abcdef";

// What Go's encoder rewrites: a surrogate pair first (kept: one valid character), then the quote, the backslash,
// control characters, <, > and &, U+2028/U+2029, and any surrogate left alone (invalid UTF-8 to Go).
// eslint-disable-next-line no-control-regex -- control characters are exactly what Go escapes
const ESCAPED = /[\ud800-\udbff][\udc00-\udfff]|["\\\u0000-\u001f<>&\u2028\u2029\ud800-\udfff]/g;
const SHORT: Readonly<Record<string, string>> = {
  '"': '\\"',
  "\\": "\\\\",
  "\n": "\\n",
  "\r": "\\r",
  "\t": "\\t",
  "\b": "\\b",
  "\f": "\\f",
};

function escapeOne(match: string): string {
  if (match.length === 2) return match;
  const short = SHORT[match];
  if (short !== undefined) return short;
  const c = match.charCodeAt(0);
  if (c === 0x2028 || c === 0x2029) return c === 0x2028 ? "\\u2028" : "\\u2029";
  if (c >= 0xd800) return "\\ufffd"; // Go replaces invalid UTF-8 (a lone surrogate here) with U+FFFD
  return "\\u00" + HEX[c >> 4]! + HEX[c & 15]!;
}

/** Encodes one string the way Go's encodeState.string does with escapeHTML=true. */
export function goQuote(s: string): string {
  // A native scan, not a loop over characters: STATUS documents are ~20 KB and a loop left most of its time in GC.
  return '"' + s.replace(ESCAPED, escapeOne) + '"';
}

function goNumber(n: number): string {
  if (!Number.isFinite(n)) throw new Error(`json: unsupported value: ${n}`);
  // Only integers appear in gentle-ai's review documents; Go prints them without exponent.
  if (Number.isInteger(n)) return Object.is(n, -0) ? "-0" : BigInt(n).toString();
  return String(n);
}

/** Go json.Marshal: compact, HTML-escaped, members in given order, `undefined` members skipped. */
export function goMarshal(value: GoJson): string {
  if (value === null) return "null";
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "number") return goNumber(value);
  if (typeof value === "string") return goQuote(value);
  if (Array.isArray(value)) return "[" + (value as readonly GoJson[]).map(goMarshal).join(",") + "]";
  const parts: string[] = [];
  for (const [k, v] of Object.entries(value as Record<string, GoJson | undefined>)) {
    if (v === undefined) continue;
    parts.push(goQuote(k) + ":" + goMarshal(v));
  }
  return "{" + parts.join(",") + "}";
}

const MANIFEST_KEY = "changed_path_manifest";

function indentValue(value: GoJson, depth: number, key: string | undefined): string {
  const pad = "  ".repeat(depth);
  const inner = "  ".repeat(depth + 1);
  if (value === null || typeof value !== "object") return goMarshal(value);
  if (Array.isArray(value)) {
    const items = value as readonly GoJson[];
    if (items.length === 0) return "[]";
    // encodeReviewJSON re-renders every changed_path_manifest array as one compact entry per line.
    const render =
      key === MANIFEST_KEY ? (v: GoJson) => goMarshal(v) : (v: GoJson) => indentValue(v, depth + 1, undefined);
    return "[\n" + items.map((v) => inner + render(v)).join(",\n") + "\n" + pad + "]";
  }
  const entries = Object.entries(value as Record<string, GoJson | undefined>).filter(([, v]) => v !== undefined);
  if (entries.length === 0) return "{}";
  return (
    "{\n" +
    entries.map(([k, v]) => inner + goQuote(k) + ": " + indentValue(v as GoJson, depth + 1, k)).join(",\n") +
    "\n" +
    pad +
    "}"
  );
}

/** encodeReviewJSON: Marshal, json.Indent("", "  "), manifest re-rendering, one trailing newline. */
export function encodeReviewJson(value: GoJson): Buffer {
  return Buffer.from(indentValue(value, 0, undefined) + "\n", "utf8");
}
