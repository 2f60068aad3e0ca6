// --help is generated from each command's option table; the help blocks of README.md (the top level) and docs/cli.md
// (the commands) are that output, byte for byte.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { COMMANDS } from "../../../conformance/commands.ts";
import { cli, type CliRun } from "../../support/cli.ts";
import { optionLines, usageText, wrap } from "../../../conformance/cli/usage.ts";
import { packageRoot } from "../../../conformance/paths.ts";

const root = packageRoot();

const help = (args: string[]): Promise<CliRun> => cli([...args, "--help"]);

/**
 * A document's ```console blocks that start with `$ relay-conformance [<command>] --help`: the command and the text.
 */
function helpBlocks(doc: string): { command: string | null; text: string }[] {
  const text = readFileSync(join(root, doc), "utf8");
  return [...text.matchAll(/^```console\n\$ relay-conformance (?:([a-z-]+) )?--help\n([\s\S]*?)^```$/gm)].map((m) => ({
    command: m[1] ?? null,
    text: m[2] ?? "",
  }));
}

/** Where each help block lives: the front door shows the command list, the CLI reference each command's options. */
const HOMES = [
  { doc: "README.md", commands: [null] },
  { doc: "docs/cli.md", commands: ["run", "mutate", "record", "repro"] },
] as const;

describe.each(HOMES)("$doc's help blocks are the commands' --help output", ({ doc, commands }) => {
  const blocks = helpBlocks(doc);

  it(`${doc} shows ${commands.map((c) => c ?? "the top-level help").join(", ")}`, () => {
    expect(blocks.map((b) => b.command)).toEqual(commands);
  });

  it.each(blocks.map((b) => [b.command ?? "(top level)", b] as const))("%s", async (_name, block) => {
    const r = await help(block.command === null ? [] : [block.command]);
    expect(r).toEqual({ code: 0, stdout: block.text, stderr: "" });
  });
});

describe("every command's --help", () => {
  it.each(COMMANDS.map((c) => [c.name]))("%s: exit 0, the usage on stdout, the shared layout", async (name) => {
    const r = await help([name]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe((await COMMANDS.find((c) => c.name === name)?.load())?.usage);
    expect(r.stdout.startsWith(`Usage: relay-conformance ${name} `)).toBe(true);
    expect(r.stdout).toMatch(/\n\nOptions:\n(?: {2}-.*\n(?: {4,}\S.*\n)*)+/);
    expect(r.stdout).toContain("\n  -h, --help  ");
    for (const line of r.stdout.split("\n"))
      if (line.startsWith("  --") || line.startsWith("  -h")) expect(line.length, line).toBeLessThanOrEqual(118);
  });
});

describe("the help renderer", () => {
  it("writes flags with their value names in one column, defaults after the description, wrapped under it", () => {
    const table = {
      relay: { type: "string", valueName: "path", description: "the relay module" },
      runs: { type: "string", valueName: "n", description: "runs per property", default: "4" },
      keep: { type: "boolean", description: "keep the temp folders, also when interrupted, for debugging" },
      help: { type: "boolean", short: "h", description: "this help" },
    } as const;
    expect(optionLines(table, 50)).toBe(
      [
        "  --relay <path>  the relay module",
        "  --runs <n>      runs per property (default 4)",
        "  --keep          keep the temp folders, also when",
        "                  interrupted, for debugging",
        "  -h, --help      this help",
        "",
      ].join("\n"),
    );
  });

  it("lays out synopsis, about, option tables and footer, separated by blank lines", () => {
    const text = usageText({
      synopsis: ["x a", "x b"],
      about: "About.",
      options: { help: { type: "boolean", short: "h", description: "this help" } },
      more: [{ heading: "More:", options: { cwd: { type: "string", description: "where" } } }],
      footer: "Exit 0.",
    });
    expect(text).toBe(
      "Usage: x a\n       x b\n\nAbout.\n\nOptions:\n  -h, --help  this help\n\nMore:\n  --cwd <value>  where\n\nExit 0.\n",
    );
  });

  it("wraps words at the width, never inside a word", () => {
    expect(wrap("aaa bbb ccc", 9, 2)).toBe("aaa bbb\n  ccc");
    expect(wrap("aaa bbb ccc", 8, 2)).toBe("aaa\n  bbb\n  ccc");
    expect(wrap("a-very-long-word b", 5, 0)).toBe("a-very-long-word\nb");
  });
});
