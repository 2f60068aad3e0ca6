// pi argv against the real pi CLI: each row's bytes are what npm @earendil-works/pi-coding-agent 1.6.0 printed (Node
// 22.23.5, fresh HOME whose one model sits on a closed loopback port, PI_OFFLINE=1, stdin closed), recorded 2026-12-04.
// test/simulator/pi/argv.unit.test.ts holds the fake pi to them; test/simulator/pi/real-pi.test.ts checks them against
// the real pi again and runs the fake pi beside it.
import { PI_ARGV } from "../../conformance/contract/provider.ts";

/** The real pi version the rows were recorded from (and the one the real-pi test installs). */
export const REAL_PI_VERSION = "1.6.0";

/** One argv and the real pi's answer. */
export interface PiArgvRow {
  readonly name: string;
  readonly argv: readonly string[];
  readonly exit: 0 | 1;
  readonly stdout: string;
  readonly stderr: string;
}

const L: readonly string[] = PI_ARGV;
const without = (i: number, n = 1): string[] => [...L.slice(0, i), ...L.slice(i + n)];
const replace = (i: number, n: number, ...w: string[]): string[] => [...L.slice(0, i), ...w, ...L.slice(i + n)];
const version = (name: string, argv: string[]): PiArgvRow => ({
  name,
  argv,
  exit: 0,
  stdout: `${REAL_PI_VERSION}\n`,
  stderr: "",
});
const refused = (name: string, argv: string[], stderr: string): PiArgvRow => ({
  name,
  argv,
  exit: 1,
  stdout: "",
  stderr,
});
const unknown = (flag: string): string => `Error: Unknown option: ${flag}\n`;

/**
 * The table: the relay's locked argv, each flag removed or renamed (as in gentle-ai #4041), unknown flags, missing
 * values.
 */
export const PI_ARGV_TABLE: readonly PiArgvRow[] = [
  version("locked argv, --version", [...L, "--version"]),
  version("locked argv, -v", [...L, "-v"]),
  // An unknown flag is named alone: every locked flag is known (an unknown one would be listed with it).
  refused("locked argv + an unknown flag: only that flag is named", [...L, "--bogus"], unknown("--bogus")),
  refused("--print removed", [...without(0), "--bogus"], unknown("--bogus")),
  refused("--no-session removed", [...without(3), "--bogus"], unknown("--bogus")),
  refused("--no-approve removed", [...without(10), "--bogus"], unknown("--bogus")),
  refused(
    "--mode text renamed --output-format text (#4041)",
    replace(1, 2, "--output-format", "text"),
    unknown("--output-format"),
  ),
  refused(
    "--no-session renamed --no-session-persistence (#4041)",
    replace(3, 1, "--no-session-persistence"),
    unknown("--no-session-persistence"),
  ),
  refused("--no-tools renamed --no-tool", replace(4, 1, "--no-tool"), unknown("--no-tool")),
  refused("--no-extensions renamed --no-extension", replace(5, 1, "--no-extension"), unknown("--no-extension")),
  refused("--no-skills renamed --no-skill", replace(6, 1, "--no-skill"), unknown("--no-skill")),
  refused("--no-prompt-templates renamed --no-templates", replace(7, 1, "--no-templates"), unknown("--no-templates")),
  refused("--no-themes renamed --no-theme", replace(8, 1, "--no-theme"), unknown("--no-theme")),
  refused("--no-context-files renamed --no-context", replace(9, 1, "--no-context"), unknown("--no-context")),
  refused("--no-approve renamed --no-approval", replace(10, 1, "--no-approval"), unknown("--no-approval")),
  refused("--print renamed --non-interactive", replace(0, 1, "--non-interactive"), unknown("--non-interactive")),
  refused(
    "two renamed flags, named in one line",
    replace(3, 2, "--no-session-persistence", "--no-tool"),
    "Error: Unknown options: --no-session-persistence, --no-tool\n",
  ),
  refused("an unknown flag twice is named once", [...L, "--bogus", "--bogus"], unknown("--bogus")),
  refused("an unknown flag with =value", [...L, "--bogus=1"], unknown("--bogus")),
  refused("--mode=text is an unknown flag", ["--print", "--mode=text", ...L.slice(3)], unknown("--mode")),
  refused("an unknown short flag", [...L, "-x"], unknown("-x")),
  refused("an unknown short flag is refused before an unknown long one", [...L, "--bogus", "-x"], unknown("-x")),
  refused(
    "--mode without its value",
    ["--print", ...L.slice(3), "--mode"],
    "Error: --mode requires text, json, or rpc\n",
  ),
  refused(
    "--mode followed by a flag",
    ["--print", "--mode", ...L.slice(3)],
    "Error: --mode requires text, json, or rpc\n",
  ),
  refused(
    "--mode with an unknown value",
    replace(1, 2, "--mode", "markdown"),
    'Error: Invalid mode "markdown". Valid values: text, json, rpc\n',
  ),
  refused(
    "--mode with an empty value",
    replace(1, 2, "--mode", ""),
    'Error: Invalid mode "". Valid values: text, json, rpc\n',
  ),
  refused(
    "--mode and --name both without values",
    ["--mode", "--name"],
    "Error: --mode requires text, json, or rpc\nError: --name requires a value\n",
  ),
  refused("--model without its value is an unknown flag", [...L, "--model"], unknown("--model")),
  refused("--use-theme without its value", [...L, "--use-theme"], "Error: --use-theme requires a theme name\n"),
  refused(
    "--tui-mode with a bad value",
    [...L, "--tui-mode", "wide"],
    'Error: Invalid TUI mode "wide". Valid values: regular, fullscreen\n',
  ),
  version("--version after an unknown long flag still answers", [...L, "--bogus", "--version"]),
  refused("--version after an unknown short flag is refused", [...L, "-x", "--version"], unknown("-x")),
  {
    name: "a bad --thinking level warns and --version still answers",
    argv: ["--thinking", "huge", "--version"],
    exit: 0,
    stdout: `${REAL_PI_VERSION}\n`,
    stderr: 'Warning: Invalid thinking level "huge". Valid values: off, minimal, low, medium, high, xhigh, max\n',
  },
  version("after -- every token is a message", ["--version", "--", "-x", "--bogus"]),
  refused("--print does not take a flag as its message", ["--print", "-x"], unknown("-x")),
  version("--print takes a word as its message", ["--print", "bogus", "--version"]),
];
