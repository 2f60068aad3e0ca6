/** Why a script line could not be split into words. */
export class WordError extends Error {}

/**
 * Splits a script line into words, testscript style: blanks separate words, single quotes keep
 * everything literal (`''` inside them is one quote). A dollar from quoted text is stored as `$$`
 * so that variable expansion can run later, at step time, without touching quoted text.
 */
export function splitWords(line: string): string[] {
  const words: string[] = [];
  let word = "";
  let inWord = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i] as string;
    if (c === "'") {
      inWord = true;
      let closed = false;
      for (i++; i < line.length; i++) {
        const q = line[i] as string;
        if (q === "'") {
          if (line[i + 1] === "'") {
            word += "'";
            i++;
            continue;
          }
          closed = true;
          break;
        }
        word += q === "$" ? "$$" : q;
      }
      if (!closed) throw new WordError("unterminated single quote");
    } else if (c === " " || c === "\t") {
      if (inWord) words.push(word);
      word = "";
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (inWord) words.push(word);
  return words;
}

/** Thrown when a word names a variable that is not set. */
export class UnsetVariableError extends Error {
  constructor(readonly variable: string) {
    super(`variable $${variable} is not set`);
  }
}

/** Expands `$NAME`, `${NAME}` and `$$` in a stored word; a `$` not followed by a name stays literal. */
export function expandWord(word: string, vars: Readonly<Record<string, string>>): string {
  return word.replace(
    /\$(\$|\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))/g,
    (_m, all: string, braced?: string, bare?: string) => {
      if (all === "$") return "$";
      const name = (braced ?? bare) as string;
      const value = vars[name];
      if (value === undefined) throw new UnsetVariableError(name);
      return value;
    },
  );
}

/** The variable names a stored word refers to (for parse-time checks). */
export function wordVariables(word: string): string[] {
  const names: string[] = [];
  for (const m of word.matchAll(/\$(\$|\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))/g)) {
    const name = m[2] ?? m[3];
    if (name !== undefined) names.push(name);
  }
  return names;
}
