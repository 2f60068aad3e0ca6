/** Where and why JSON text is invalid, computed here because V8's messages omit positions in Node 20. */
export interface JsonSyntaxError {
  readonly line: number;
  readonly column: number;
  readonly reason: string;
}

/** Returns the first syntax error of RFC 8259 JSON text (1-based line/column), or null when the text parses. */
export function findJsonSyntaxError(text: string): JsonSyntaxError | null {
  let i = 0;
  const fail = (reason: string, at: number = i): never => {
    throw new SyntaxErrorAt(at, reason);
  };
  const describe = (at: number): string =>
    at >= text.length ? "unexpected end of input" : `unexpected character ${JSON.stringify(text[at])}`;
  const ws = (): void => {
    while (i < text.length && (text[i] === " " || text[i] === "\t" || text[i] === "\n" || text[i] === "\r")) i++;
  };
  const literal = (word: string): void => {
    for (const ch of word) {
      if (text[i] !== ch) fail(describe(i));
      i++;
    }
  };
  const string = (): void => {
    i++; // opening quote
    for (;;) {
      if (i >= text.length) fail("unterminated string");
      const ch = text.charCodeAt(i);
      if (ch === 0x22) {
        i++;
        return;
      }
      if (ch < 0x20) fail("control character in string");
      if (ch === 0x5c) {
        const esc = text[i + 1];
        if (esc === "u") {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) fail("invalid unicode escape");
          i += 6;
        } else if (esc !== undefined && '"\\/bfnrt'.includes(esc)) i += 2;
        else fail("invalid escape", i + 1);
      } else i++;
    }
  };
  const number = (): void => {
    const m = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (!m || m[0] === "-") fail(describe(i));
    i += m![0].length;
  };
  const value = (): void => {
    ws();
    const ch = text[i];
    if (ch === "{") {
      i++;
      ws();
      if (text[i] === "}") {
        i++;
        return;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail(i >= text.length ? "unexpected end of input" : "expected a property name");
        string();
        ws();
        if (text[i] !== ":") fail(i >= text.length ? "unexpected end of input" : "expected ':' after property name");
        i++;
        value();
        ws();
        if (text[i] === ",") {
          i++;
          continue;
        }
        if (text[i] === "}") {
          i++;
          return;
        }
        fail(i >= text.length ? "unexpected end of input" : "expected ',' or '}' after property value");
      }
    }
    if (ch === "[") {
      i++;
      ws();
      if (text[i] === "]") {
        i++;
        return;
      }
      for (;;) {
        value();
        ws();
        if (text[i] === ",") {
          i++;
          continue;
        }
        if (text[i] === "]") {
          i++;
          return;
        }
        fail(i >= text.length ? "unexpected end of input" : "expected ',' or ']' after array element");
      }
    }
    if (ch === '"') return string();
    if (ch === "t") return literal("true");
    if (ch === "f") return literal("false");
    if (ch === "n") return literal("null");
    return number();
  };
  try {
    if (text.charCodeAt(0) === 0xfeff) fail("byte order mark is not allowed");
    value();
    ws();
    if (i < text.length) fail(`unexpected ${JSON.stringify(text[i])} after the JSON value`);
    return null;
  } catch (error) {
    if (!(error instanceof SyntaxErrorAt)) throw error;
    const before = text.slice(0, error.at);
    const line = before.split("\n").length;
    const column = error.at - before.lastIndexOf("\n");
    return { line, column, reason: error.reason };
  }
}

class SyntaxErrorAt extends Error {
  constructor(
    readonly at: number,
    readonly reason: string,
  ) {
    super(reason);
  }
}
