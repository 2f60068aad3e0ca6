// Generators for byte-exactness properties: hostile submission forms and hostile prompt/result bytes.
import fc from "fast-check";

const BOM = [0xef, 0xbb, 0xbf];
const INVALID_UTF8 = [[0xff], [0xc3, 0x28], [0xed, 0xa0, 0x80], [0xf8, 0x88, 0x80, 0x80, 0x80], [0x80], [0xe2, 0x82]];

/** Byte fragments that break decoders, trimmers and line-ending normalisers. */
const fragment: fc.Arbitrary<readonly number[]> = fc.oneof<fc.Arbitrary<readonly number[]>[]>(
  fc.constant(BOM),
  fc.constant([0x0d, 0x0a]),
  fc.constant([0x00]),
  fc.constant([0x20, 0x0a, 0x09]),
  fc.constantFrom(...INVALID_UTF8),
  fc.uint8Array({ maxLength: 48 }).map((a) => [...a]),
  fc.string({ unit: "grapheme", maxLength: 12 }).map((s) => [...Buffer.from(s, "utf8")]),
);

/** Small hostile byte strings (the common case), occasionally empty. */
export const smallBytes: fc.Arbitrary<Buffer> = fc
  .array(fragment, { maxLength: 16 })
  .map((parts) => Buffer.from(parts.flat()));

/** A few large inputs (1–3 MiB): a random chunk repeated, with hostile bytes at both ends. */
export const largeBytes: fc.Arbitrary<Buffer> = fc
  .record({ chunk: fc.uint8Array({ minLength: 1, maxLength: 64 }), size: fc.integer({ min: 1 << 20, max: 3 << 20 }) })
  .map(({ chunk, size }) => {
    const out = Buffer.alloc(size);
    for (let i = 0; i < size; i += chunk.length) Buffer.from(chunk).copy(out, i);
    Buffer.from([...BOM, 0x0d, 0x0a, 0x00]).copy(out, 0);
    Buffer.from([0xff, 0x0d, 0x0a]).copy(out, Math.max(0, size - 3));
    return out;
  });

/** Mostly small, rarely large: keeps the default run fast while still crossing MiB boundaries. */
export const hostileBytes: fc.Arbitrary<Buffer> = fc.oneof(
  { weight: 12, arbitrary: smallBytes },
  { weight: 1, arbitrary: largeBytes },
);

/** Token text: unicode, spaces, `=`, quotes, shell metacharacters, leading dashes, braces. */
const tokenText: fc.Arbitrary<string> = fc
  .array(
    fc.oneof(
      fc.string({ unit: "grapheme", minLength: 1, maxLength: 6 }),
      fc.constantFrom(
        " ",
        "=",
        "'",
        '"',
        "$(rm -rf /)",
        "`x`",
        ";",
        "|",
        "&&",
        "*",
        "\\",
        "--",
        "-",
        "{",
        "}",
        "{{",
        "}}",
        "{{valu}}",
        "\n",
        "\t",
        "é",
        "日本",
        "🙂",
      ),
    ),
    { minLength: 1, maxLength: 6 },
  )
  .map((parts) => parts.join(""))
  // argv cannot carry NUL (spawn refuses it), so no provider could issue such a token.
  .filter((t) => !t.includes("\u0000"));

/** A valid form: tokens around a location token holding 1–3 {{value}} slots, decoys elsewhere, any location. */
export interface GeneratedForm {
  readonly operationToken: string;
  readonly argumentTokens: string[];
  readonly substitutionLocation: number;
}

const RESERVED_OPERATIONS = new Set(["capture-result", "status"]);

export const validForm: fc.Arbitrary<GeneratedForm> = fc
  .record({
    operationToken: tokenText.filter(
      (t) => !RESERVED_OPERATIONS.has(t) && t !== "" && !t.startsWith("-") && t !== "help" && t !== "review",
    ),
    before: fc.array(
      fc.oneof(
        tokenText,
        tokenText.map((t) => `${t}{{value}}`),
      ),
      { maxLength: 4 },
    ),
    after: fc.array(
      fc.oneof(
        tokenText,
        tokenText.map((t) => `--decoy={{value}}${t}`),
      ),
      { maxLength: 4 },
    ),
    pieces: fc.array(fc.oneof(fc.constant(""), tokenText), { minLength: 2, maxLength: 4 }),
  })
  .map(({ operationToken, before, after, pieces }) => {
    const location = pieces.join("{{value}}");
    return { operationToken, argumentTokens: [...before, location, ...after], substitutionLocation: before.length };
  });

/** An invalid form and the exact binding message a faithful relay gives (relay reference §10.1, in order). */
export interface InvalidForm {
  readonly submission: unknown;
  readonly message: string;
}

export const invalidForm: fc.Arbitrary<InvalidForm> = fc.oneof(
  validForm.map((f) => ({
    submission: {
      operationToken: "",
      argumentTokens: f.argumentTokens,
      values: [{ slot: "s", domain: "d", substitutionLocation: f.substitutionLocation }],
    },
    message: "provider contract mismatch: the submission form carries an empty operation or argument token",
  })),
  validForm.map((f) => ({
    submission: {
      operationToken: f.operationToken,
      argumentTokens: [],
      values: [{ slot: "s", domain: "d", substitutionLocation: 0 }],
    },
    message: "provider contract mismatch: the submission form carries an empty operation or argument token",
  })),
  fc.tuple(validForm, fc.nat()).map(([f, i]) => {
    const tokens = [...f.argumentTokens];
    tokens.splice(i % (tokens.length + 1), 0, "");
    return {
      submission: {
        operationToken: f.operationToken,
        argumentTokens: tokens,
        values: [{ slot: "s", domain: "d", substitutionLocation: 0 }],
      },
      message: "provider contract mismatch: the submission form carries an empty operation or argument token",
    };
  }),
  fc.tuple(validForm, fc.constantFrom(0, 2, 3)).map(([f, n]) => ({
    submission: {
      operationToken: f.operationToken,
      argumentTokens: f.argumentTokens,
      values: Array.from({ length: n }, () => ({
        slot: "s",
        domain: "d",
        substitutionLocation: f.substitutionLocation,
      })),
    },
    message: `provider contract mismatch: the submission form must bind exactly one artifact value, received ${n}`,
  })),
  fc
    .tuple(validForm, fc.oneof(fc.integer({ max: -1 }), fc.constantFrom(0.5, 1e300), fc.integer({ min: 0, max: 5 })))
    .map(([f, offset]) => {
      const loc = Number.isInteger(offset) && offset >= 0 ? f.argumentTokens.length + offset : offset;
      return {
        submission: {
          operationToken: f.operationToken,
          argumentTokens: f.argumentTokens,
          values: [{ slot: "s", domain: "d", substitutionLocation: loc }],
        },
        message: "provider contract mismatch: the submission substitution location is outside its argument tokens",
      };
    }),
  fc
    .tuple(
      validForm,
      tokenText.filter((t) => !t.includes("{{value}}")),
    )
    .map(([f, plain]) => {
      const tokens = [...f.argumentTokens];
      tokens[f.substitutionLocation] = plain;
      return {
        submission: {
          operationToken: f.operationToken,
          argumentTokens: tokens,
          values: [{ slot: "s", domain: "d", substitutionLocation: f.substitutionLocation }],
        },
        message: `provider contract mismatch: the submission token at location ${f.substitutionLocation} carries no {{value}} slot`,
      };
    }),
);
