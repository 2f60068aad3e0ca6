// Just enough of GitHub-flavoured Markdown to check the repository's documents: prose lines (fenced code left out),
// relative links, heading anchors as GitHub derives them, and table rows split into cells as GFM splits them.

/** The lines outside fenced code blocks, each with its 1-based line number. */
export function proseLines(text: string): { line: number; text: string }[] {
  const out: { line: number; text: string }[] = [];
  let fenced = false;
  text.split("\n").forEach((t, i) => {
    if (/^\s*```/.test(t)) fenced = !fenced;
    else if (!fenced) out.push({ line: i + 1, text: t });
  });
  return out;
}

/** A line with its code spans blanked, so a `[x](y)` inside backticks is not read as a link. */
function withoutCodeSpans(line: string): string {
  return line.replace(/`[^`]*`/g, (m) => " ".repeat(m.length));
}

/** Every link target that is not a URL: `[label](target)`, outside code. */
export function relativeLinks(text: string): { line: number; target: string }[] {
  const out: { line: number; target: string }[] = [];
  for (const { line, text: t } of proseLines(text)) {
    for (const m of withoutCodeSpans(t).matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = m[1]!;
      if (!/^[a-z][a-z0-9+.-]*:/i.test(target)) out.push({ line, target });
    }
  }
  return out;
}

/** GitHub's anchor of a heading: lowercase, punctuation dropped, spaces to hyphens. */
export function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

/** The anchors a document's headings define, with GitHub's `-1`, `-2` suffixes for repeats. */
export function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const { text: t } of proseLines(text)) {
    const m = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(t);
    if (m === null) continue;
    const base = slug(m[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** A table row's cells as GFM splits them: on every `|` not escaped with a backslash, code spans included. */
export function tableCells(row: string): string[] {
  const cells = row.trim().split(/(?<!\\)\|/);
  if (cells[0]?.trim() === "") cells.shift();
  if (cells.at(-1)?.trim() === "") cells.pop();
  return cells.map((c) => c.trim());
}

/** Every table: its header line number and each row's line number and cell count (the delimiter row included). */
export function tables(text: string): { line: number; header: number; rows: { line: number; cells: number }[] }[] {
  const out: { line: number; header: number; rows: { line: number; cells: number }[] }[] = [];
  let current: (typeof out)[number] | undefined;
  for (const { line, text: t } of proseLines(text)) {
    if (!t.trimStart().startsWith("|")) {
      current = undefined;
      continue;
    }
    const cells = tableCells(t).length;
    if (current === undefined) {
      current = { line, header: cells, rows: [] };
      out.push(current);
    } else current.rows.push({ line, cells });
  }
  return out;
}
