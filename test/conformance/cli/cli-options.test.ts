// Boolean options never take a value: the token after them is a file, a tag or a stray argument, never swallowed.
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cli } from "../../support/cli.ts";
import { splitPositionals } from "../../../conformance/cli/options.ts";
import { packageRoot } from "../../../conformance/paths.ts";

const root = packageRoot();
const dir = mkdtempSync(join(tmpdir(), "rc-options-test-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("boolean options never consume the next token", () => {
  it("splitPositionals keeps a file after a boolean flag a file, and a string option's value its value", () => {
    const table = {
      update: { type: "boolean", description: "u" },
      quiet: { type: "boolean", description: "q" },
      relay: { type: "string", description: "r" },
    } as const;
    expect(splitPositionals(["--update", "golden/x.golden.json"], table)).toEqual({
      positionals: ["golden/x.golden.json"],
      optionArgs: ["--update"],
      names: ["update"],
    });
    expect(splitPositionals(["a.json", "--relay", "r.ts", "--quiet", "b.json"], table)).toEqual({
      positionals: ["a.json", "b.json"],
      optionArgs: ["--relay", "r.ts", "--quiet"],
      names: ["relay", "quiet"],
    });
    expect(splitPositionals(["--relay=r.ts", "--", "--odd.json"], table)).toEqual({
      positionals: ["--odd.json"],
      optionArgs: ["--relay=r.ts"],
      names: ["relay"],
    });
  });

  // The token after each boolean flag must reach the command as an argument (here: one it rejects by name).
  it.each([
    [["replay", "--update", "no/such.golden.json"], "relay-conformance: no/such.golden.json: "],
    [["run", "--keep", "stray"], 'relay-conformance: unexpected argument "stray"'],
    [["run", "--quiet", "stray"], 'relay-conformance: unexpected argument "stray"'],
    [["run", "--isolate", "stray"], 'relay-conformance: unexpected argument "stray"'],
    [
      ["list", "--markdown", "stray"],
      "relay-conformance: Unexpected argument 'stray'. This command does not take positional arguments",
    ],
    [
      ["verify", "--no-goldens", "stray"],
      "relay-conformance: Unexpected argument 'stray'. This command does not take positional arguments",
    ],
    [
      ["release", "--no-goldens", "v2.4.0", "stray"],
      "relay-conformance: release needs exactly one tag, e.g. `release v2.4.0`",
    ],
  ])("%j", async (args, first) => {
    const r = await cli(args);
    expect(r.code).toBe(2);
    expect(r.stderr.startsWith(first)).toBe(true);
    expect(r.stderr.endsWith(`Run \`relay-conformance ${args[0]} --help\` for usage.\n`)).toBe(true);
  });

  it("repro --list is boolean; a value option never takes the next option as its value", async () => {
    expect(await cli(["repro", "--list", "279"])).toEqual({
      code: 2,
      stdout: "",
      stderr: "relay-conformance repro: --list takes no reproduction\n",
    });
    const r = await cli(["repro", "--against", "--list"]);
    expect(r.code).toBe(2);
    expect(r.stderr.split("\n")[0]).toBe('relay-conformance repro: --against needs a value (got the option "--list")');
  });

  it("replay --update <golden> replays that golden (flag first), and so does <golden> --update", async () => {
    // One copy per order, each in its own folder under the same name: the two replays (each one a replay and a
    // re-record) run side by side, and neither reads a file the other's --update may be rewriting.
    const copies = ["flag-first", "flag-last"].map((sub) => {
      mkdirSync(join(dir, sub));
      copyFileSync(
        join(root, "golden/lens-capture-2.4.0.golden.json"),
        join(dir, sub, "lens-capture-2.4.0.golden.json"),
      );
      return join(dir, sub);
    });
    // With CI set, --update also prints a notice on stderr; this test is about argument parsing only.
    const ci = process.env.CI;
    delete process.env.CI;
    try {
      const [before, after] = await Promise.all([
        cli(["replay", "--update", "lens-capture-2.4.0.golden.json"], { cwd: copies[0] }),
        cli(["replay", "lens-capture-2.4.0.golden.json", "--update"], { cwd: copies[1] }),
      ]);
      expect(before).toEqual({ code: 0, stdout: "PASS golden lens-capture-2.4.0\n", stderr: "" });
      expect(after).toEqual({ code: 0, stdout: "PASS golden lens-capture-2.4.0\n", stderr: "" });
    } finally {
      if (ci !== undefined) process.env.CI = ci;
    }
  }, 240_000);
});
