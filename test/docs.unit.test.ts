// The repository's Markdown holds together: every relative link names a file that exists (and, with a #fragment, a
// heading of that file), and every table row has as many cells as its header, as GitHub splits them.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { packageRoot } from "../conformance/paths.ts";
import { anchors, relativeLinks, slug, tableCells, tables } from "./support/markdown.ts";

const ROOT = packageRoot();

/** The documents a reader is sent to: the front door, docs/, and the READMEs and format beside the code. */
const DOCS = [
  "README.md",
  ...readdirSync(join(ROOT, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
  "bench/README.md",
  "relay/README.md",
  "golden/FORMAT.md",
];

function brokenLinks(doc: string): string[] {
  const text = readFileSync(join(ROOT, doc), "utf8");
  const broken: string[] = [];
  for (const { line, target } of relativeLinks(text)) {
    const [path = "", fragment] = target.split("#", 2);
    const file = path === "" ? join(ROOT, doc) : join(ROOT, dirname(doc), path);
    if (!existsSync(file)) broken.push(`${doc}:${line}: ${target}: no such file ${relative(ROOT, file)}`);
    else if (fragment !== undefined && file.endsWith(".md") && !anchors(readFileSync(file, "utf8")).has(fragment)) {
      broken.push(`${doc}:${line}: ${target}: no heading #${fragment} in ${relative(ROOT, file)}`);
    }
  }
  return broken;
}

function ragged(doc: string): string[] {
  const out: string[] = [];
  for (const t of tables(readFileSync(join(ROOT, doc), "utf8"))) {
    for (const r of t.rows)
      if (r.cells !== t.header) out.push(`${doc}:${r.line}: ${r.cells} cells, header (line ${t.line}) has ${t.header}`);
  }
  return out;
}

describe("the repository's Markdown", () => {
  it("covers the front door and the manual", () => {
    expect(DOCS).toEqual(
      expect.arrayContaining([
        "README.md",
        "docs/cli.md",
        "docs/fidelity.md",
        "docs/repro.md",
        "docs/simulator-runtime.md",
      ]),
    );
  });

  it.each(DOCS)("%s: every relative link resolves", (doc) => {
    expect(brokenLinks(doc)).toEqual([]);
  });

  it.each(DOCS)("%s: every table row has its header's cell count", (doc) => {
    expect(ragged(doc)).toEqual([]);
  });

  it("README.md stays a front door: 200 lines or fewer", () => {
    expect(readFileSync(join(ROOT, "README.md"), "utf8").split("\n").length - 1).toBeLessThanOrEqual(200);
  });
});

describe("the Markdown reader", () => {
  it("derives GitHub's anchors", () => {
    expect(slug("Does the simulator still print what gentle-ai prints? `relay-conformance fidelity`")).toBe(
      "does-the-simulator-still-print-what-gentle-ai-prints-relay-conformance-fidelity",
    );
    expect(slug("Run gentle-pi's devbinary and maintainer lanes, with or without a real binary")).toBe(
      "run-gentle-pis-devbinary-and-maintainer-lanes-with-or-without-a-real-binary",
    );
    expect([...anchors("# A\n## A\n```\n# not a heading\n```\n### B: c\n")]).toEqual(["a", "a-1", "b-c"]);
  });

  it("finds relative links outside code, and no URLs", () => {
    const text =
      "See [a](docs/a.md#x) and [w](https://x.invalid/y).\n`[no](code.md)`\n```\n[no](fenced.md)\n```\n[b](../b.md)\n";
    expect(relativeLinks(text)).toEqual([
      { line: 1, target: "docs/a.md#x" },
      { line: 6, target: "../b.md" },
    ]);
  });

  it("splits cells as GFM does: a pipe in a code span splits, an escaped one does not", () => {
    expect(tableCells("| `a | b` | c |")).toHaveLength(3);
    expect(tableCells("| `a \\| b` | c |")).toHaveLength(2);
    expect(tables("| h | h |\n|---|---|\n| 1 |\n\n| x |\n")).toEqual([
      {
        line: 1,
        header: 2,
        rows: [
          { line: 2, cells: 2 },
          { line: 3, cells: 1 },
        ],
      },
      { line: 5, header: 1, rows: [] },
    ]);
  });
});
