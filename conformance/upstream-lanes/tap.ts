// Reads the top-level results of Node's test runner from its TAP output (`--test-reporter=tap`).

/** One top-level test and how it ended. */
export interface TapResult {
  readonly name: string;
  readonly status: "pass" | "fail" | "skip";
  readonly durationMs: number | null;
  /** The first lines of a failure's `error:` block (empty for a pass). */
  readonly detail: string;
}

const DETAIL_LINES = 6;

/** The top-level `ok` / `not ok` lines (subtests are indented and belong to their parent). */
export function parseTap(tap: string): TapResult[] {
  const lines = tap.split("\n");
  const results: TapResult[] = [];
  for (let i = 0; i < lines.length; i++) {
    const m = /^(not ok|ok) \d+ - (.*?)(?: # (SKIP|TODO)\b.*)?$/.exec(lines[i]!);
    if (!m) continue;
    let durationMs: number | null = null;
    const detail: string[] = [];
    // The YAML block that follows, up to its `...` terminator.
    for (let j = i + 1; j < lines.length && lines[j] !== "  ..."; j++) {
      const line = lines[j]!;
      const duration = /^ {2}duration_ms: ([\d.]+)/.exec(line);
      if (duration) durationMs = Math.round(Number(duration[1]));
      if (/^ {2}error: /.test(line)) {
        const inline = line.replace(/^ {2}error: (\|-)?/, "").trim();
        if (inline !== "") detail.push(inline.replace(/^'|'$/g, ""));
        for (let k = j + 1; k < lines.length && /^ {4}/.test(lines[k]!) && detail.length < DETAIL_LINES; k++) {
          const text = lines[k]!.trim();
          if (text !== "") detail.push(text);
        }
      }
      if (/^(not ok|ok) \d+ - /.test(line)) break;
    }
    const status = m[3] !== undefined ? "skip" : m[1] === "ok" ? "pass" : "fail";
    results.push({ name: m[2]!, status, durationMs, detail: status === "fail" ? detail.join(" ") : "" });
  }
  return results;
}
