// Bad input on every command: exit 2, one error line (file, JSON path and reason where there is a file), then the
// pointer to the command's --help; nothing on stdout.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { nearestCommand } from "../../../conformance/main.ts";
import { packageRoot } from "../../../conformance/paths.ts";
import { COUNTEREXAMPLE_SCHEMA_ID } from "../../../conformance/clauses/counterexample-schema.ts";
import { GOLDEN_SCHEMA_ID } from "../../../conformance/goldens/golden-schema.ts";
import { cli as runCli, type CliRun } from "../../support/cli.ts";

const root = packageRoot();
const sim = join(root, "simulator/bin/gentle-ai");
const dir = mkdtempSync(join(tmpdir(), "rc-bad-input-test-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

writeFileSync(join(dir, "syntax.json"), '{"schema": "x",\n  "a": 1,,\n}');
writeFileSync(join(dir, "bad.golden.json"), JSON.stringify({ schema: GOLDEN_SCHEMA_ID, name: 3 }));
writeFileSync(join(dir, "bad-cx.json"), JSON.stringify({ schema: COUNTEREXAMPLE_SCHEMA_ID, clause: 1 }));
writeFileSync(
  join(dir, "unknown-property.json"),
  JSON.stringify({
    schema: COUNTEREXAMPLE_SCHEMA_ID,
    clause: "X",
    property: "nope",
    profile: "2.4.0",
    seed: 1,
    path: "0",
    relay: "/x",
    message: "m",
    value: 1,
  }),
);
writeFileSync(join(dir, "bad-scenario.json"), JSON.stringify({ name: 3 }));
writeFileSync(join(dir, "bad.txtar"), "title bad\nfrob\n");
mkdirSync(join(dir, "a-folder"));

const cli = (args: string[]): Promise<CliRun> => runCli(args, { cwd: dir });

const hint = (command: string | null): string =>
  `Run \`relay-conformance ${command === null ? "" : `${command} `}--help\` for usage.\n`;

describe("unknown subcommands suggest the nearest command", () => {
  it.each([
    ["runn", "run"],
    ["repaly", "replay"],
    ["lsit", "list"],
    ["verfy", "verify"],
    ["matirx", "matrix"],
    ["reccord", "record"],
  ])("%s → %s", async (typed, meant) => {
    expect(await cli([typed])).toEqual({
      code: 2,
      stdout: "",
      stderr: `relay-conformance: unknown command "${typed}" (did you mean "${meant}"?)\n${hint(null)}`,
    });
  });

  it("no suggestion when nothing is close", () => {
    expect(nearestCommand("frob")).toBeUndefined();
    expect(nearestCommand("x")).toBeUndefined();
    expect(nearestCommand("RUN")).toBe("run");
  });
});

describe("every command: one error line and exit 2", () => {
  it.each([
    // unknown options
    [["matrix", "--frob"], "Unknown option '--frob'"],
    [["replay", "--frob"], "Unknown option '--frob'"],
    [["list", "--frob"], "Unknown option '--frob'"],
    [["record", "--frob"], "Unknown option '--frob'"],
    [["verify", "--frob"], "Unknown option '--frob'"],
    [["release", "--frob"], "Unknown option '--frob'"],
    [["run", "--quiet=yes"], "option --quiet takes no value"],
    // missing option values
    [["run", "--relay"], "option --relay needs a value"],
    [["run", "--json"], "option --json needs a value"],
    [["matrix", "--relay"], "option --relay needs a value"],
    [["replay", "--relay"], "option --relay needs a value"],
    [["list", "--grep"], "option --grep needs a value"],
    [["record", "--binary"], "option --binary needs a value"],
    [["verify", "--binary"], "option --binary needs a value"],
    [["release", "--os"], "option --os needs a value"],
    [
      ["verify", "--binary", "--no-goldens"],
      'option --binary needs a value (got the option "--no-goldens"; write --binary=--no-goldens if that is the value)',
    ],
    [
      ["run", "--relay", "--quiet"],
      'option --relay needs a value (got the option "--quiet"; write --relay=--quiet if that is the value)',
    ],
    // missing files, named
    [["replay", "no/such.json"], "no/such.json: no such file"],
    [["replay", "a-folder"], "a-folder: is a directory, not a file"],
    [["matrix", "--relay", "no/such.ts"], "relay module not found: no/such.ts"],
    [["record", "--script", "no/such.txtar"], "--script no/such.txtar: no such file"],
    [["diff", "--binary", "no/such-binary"], `--binary no/such-binary: not an executable file (ENOENT)`],
    [["diff", "--binary", sim, "--script", "no/such.txtar"], "--script no/such.txtar: no such file"],
    [["run", "--json", "a-folder"], "--json a-folder is a folder, not a file"],
    [["run", "--deadline", "0"], '--deadline must be a positive duration like 90s, 10m or 1h, got "0"'],
    [["run", "--deadline", "5x"], '--deadline must be a positive duration like 90s, 10m or 1h, got "5x"'],
    [["run", "--deadline", "1.5m"], '--deadline must be a positive duration like 90s, 10m or 1h, got "1.5m"'],
    [["verify", "--binary", sim, "--json", "a-folder"], "--json a-folder is a folder, not a file"],
    // malformed files: the file, the JSON path (or line and column) and the reason
    [["replay", "syntax.json"], "syntax.json: invalid JSON at line 2, column 10: expected a property name"],
    [
      ["replay", "bad.golden.json"],
      "bad.golden.json: not a golden: $.name: Invalid input: expected string, received number",
    ],
    [
      ["replay", "bad-cx.json"],
      "bad-cx.json: not a counterexample: $.clause: Invalid input: expected string, received number",
    ],
    [
      ["replay", "unknown-property.json"],
      'unknown-property.json: $.property: unknown property "nope" (known: generated-submission-forms, generated-prompt-and-result-bytes, generated-invalid-forms)',
    ],
    [["record", "--script", "bad.txtar"], `${join(dir, "bad.txtar")}:2: unknown command "frob"`],
    [["diff", "--binary", sim, "--script", "bad.txtar"], `${join(dir, "bad.txtar")}:2: unknown command "frob"`],
    [
      ["diff", "--binary", sim, "--profile", "9.9.9"],
      '--profile: unknown profile "9.9.9" (expected 2.3.0, 2.4.0, 2.5.0)',
    ],
    // options that do not apply to the file's kind
    [
      ["replay", "bad.golden.json", "--timeout-ms", "5"],
      `--timeout-ms does not apply to bad.golden.json (schema "${GOLDEN_SCHEMA_ID}")`,
    ],
    [["replay", "--timeout-ms", "5"], "--timeout-ms does not apply to replaying every golden"],
  ])("%j", async (args, message) => {
    expect(await cli(args)).toEqual({
      code: 2,
      stdout: "",
      stderr: `relay-conformance: ${message}\n${hint(args[0]!)}`,
    });
  });

  it("replay checks every file before replaying any", async () => {
    const shipped = join(root, "golden/lens-capture-2.4.0.golden.json");
    expect(await cli(["replay", shipped, "syntax.json"])).toEqual({
      code: 2,
      stdout: "",
      stderr: `relay-conformance: syntax.json: invalid JSON at line 2, column 10: expected a property name\n${hint("replay")}`,
    });
  });

  it.each([
    [["repro", "--frob"], "unknown flag --frob"],
    [["repro", "--against"], "--against needs a value"],
    [["repro"], "name a reproduction (id or file), or --list"],
  ])("repro %j", async (args, message) => {
    expect(await cli(args)).toEqual({
      code: 2,
      stdout: "",
      stderr: `relay-conformance repro: ${message}\n${hint("repro")}`,
    });
  });
});
