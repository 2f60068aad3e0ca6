/** Where and why JSON text is invalid, computed here because V8's messages omit positions in Node 20. */
export interface JsonSyntaxError {
  readonly line: number;
  readonly column: number;
  readonly reason: string;
}

/** Returns the first syntax error of RFC 8259 JSON text (1-based line/column), or null when the text parses. */
export function findJsonSyntaxError(text: string): JsonSyntaxError | null {
  const checker = new JsonChecker(text);
  try {
    // The value is parsed from this frame, not a helper's, so nesting runs as deep as before the checker was split.
    if (text.charCodeAt(0) === 0xfeff) throw new SyntaxErrorAt(0, "byte order mark is not allowed");
    checker.value();
    checker.end();
    return null;
  } catch (error) {
    if (!(error instanceof SyntaxErrorAt)) throw error;
    const before = text.slice(0, error.at);
    const line = before.split("\n").length;
    const column = error.at - before.lastIndexOf("\n");
    return { line, column, reason: error.reason };
  }
}

// What a container's next token should have been, by the bracket that closes it.
const EXPECTED_AFTER = {
  "}": "expected ',' or '}' after property value",
  "]": "expected ',' or ']' after array element",
} as const;

// A cursor over the text: each method consumes one grammar production or throws SyntaxErrorAt where it breaks.
class JsonChecker {
  private i = 0;

  constructor(private readonly text: string) {}

  /** After the value: nothing but white space. */
  end(): void {
    this.ws();
    if (this.i < this.text.length) this.fail(`unexpected ${JSON.stringify(this.text[this.i])} after the JSON value`);
  }

  private fail(reason: string, at: number = this.i): never {
    throw new SyntaxErrorAt(at, reason);
  }

  private describe(at: number): string {
    return at >= this.text.length ? "unexpected end of input" : `unexpected character ${JSON.stringify(this.text[at])}`;
  }

  /** Fails with `expected` unless the input ended, which is reported as such. */
  private failExpecting(expected: string): never {
    this.fail(this.i >= this.text.length ? "unexpected end of input" : expected);
  }

  private ws(): void {
    const text = this.text;
    while (
      this.i < text.length &&
      (text[this.i] === " " || text[this.i] === "\t" || text[this.i] === "\n" || text[this.i] === "\r")
    )
      this.i++;
  }

  /** The next character after white space, if any. */
  private peek(): string | undefined {
    this.ws();
    return this.text[this.i];
  }

  private literal(word: string): void {
    for (const ch of word) {
      if (this.text[this.i] !== ch) this.fail(this.describe(this.i));
      this.i++;
    }
  }

  private string(): void {
    const text = this.text;
    this.i++; // opening quote
    for (;;) {
      if (this.i >= text.length) this.fail("unterminated string");
      const ch = text.charCodeAt(this.i);
      if (ch === 0x22) {
        this.i++;
        return;
      }
      if (ch < 0x20) this.fail("control character in string");
      if (ch === 0x5c) this.escape();
      else this.i++;
    }
  }

  /** A backslash escape inside a string, from its backslash. */
  private escape(): void {
    const text = this.text;
    const esc = text[this.i + 1];
    if (esc === "u") {
      if (!/^[0-9a-fA-F]{4}$/.test(text.slice(this.i + 2, this.i + 6))) this.fail("invalid unicode escape");
      this.i += 6;
    } else if (esc !== undefined && '"\\/bfnrt'.includes(esc)) this.i += 2;
    else this.fail("invalid escape", this.i + 1);
  }

  private number(): void {
    const m = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(this.text.slice(this.i, this.i + 400));
    if (!m || m[0] === "-") this.fail(this.describe(this.i));
    this.i += m![0].length;
  }

  /** Past an opening bracket: true when `close` follows at once, consumed, leaving the container empty. */
  private empty(close: string): boolean {
    this.i++; // the opening bracket
    this.ws();
    if (this.text[this.i] !== close) return false;
    this.i++;
    return true;
  }

  /** An object's property name and its colon. */
  private key(): void {
    this.ws();
    if (this.text[this.i] !== '"') this.failExpecting("expected a property name");
    this.string();
    this.ws();
    if (this.text[this.i] !== ":") this.failExpecting("expected ':' after property name");
    this.i++;
  }

  /** After a member or element: true on a comma (another follows), false on `close`, else fails. */
  private another(close: "}" | "]"): boolean {
    this.ws();
    const after = this.text[this.i];
    if (after !== "," && after !== close) this.failExpecting(EXPECTED_AFTER[close]);
    this.i++;
    return after === ",";
  }

  // Containers are parsed here rather than in their own methods so that nesting costs one stack frame a level, as
  // before: a deeper stack would overflow on shallower documents.
  /** One value after optional white space. */
  value(): void {
    const ch = this.peek();
    if (ch === "{") {
      if (this.empty("}")) return;
      do {
        this.key();
        this.value();
      } while (this.another("}"));
      return;
    }
    if (ch === "[") {
      if (this.empty("]")) return;
      do this.value();
      while (this.another("]"));
      return;
    }
    if (ch === '"') return this.string();
    if (ch === "t") return this.literal("true");
    if (ch === "f") return this.literal("false");
    if (ch === "n") return this.literal("null");
    return this.number();
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
