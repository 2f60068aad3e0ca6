// The fake pi's argv handling, as the real pi CLI's (npm @earendil-works/pi-coding-agent 1.6.0: dist/cli/args.js
// parseArgs, then dist/main.js and dist/core/agent-session-services.js applyExtensionFlagValues): which argv it
// refuses, with which bytes and exit code, before any model is involved. The fake stands for a pi with a model
// configured and no extension flags, so none of pi's startup warnings about models or extensions apply.
// Not modelled: `--help` text, `--list-models`, `--export`, and the subcommands (install, mcp, …) pi routes first.

/** The pi version whose argv handling this file reproduces; `--version` prints it. */
export const PI_VERSION = "1.6.0";

/** What pi does with an argv before any prompt is read. */
export type PiArgvOutcome =
  | { readonly kind: "refuse"; readonly stderr: Buffer; readonly exitCode: 1 }
  | { readonly kind: "version"; readonly stdout: Buffer; readonly stderr: Buffer; readonly exitCode: 0 }
  | { readonly kind: "run"; readonly stderr: Buffer };

interface Diagnostic {
  readonly type: "error" | "warning";
  readonly message: string;
}

interface Parsed {
  version: boolean;
  readonly diagnostics: Diagnostic[];
  /** Long flags pi does not know, by name in first-seen order: an extension may claim them, none here does. */
  readonly unknownFlags: Set<string>;
}

const BOOLEAN_FLAGS = new Set([
  ...["--help", "-h", "--continue", "-c", "--resume", "-r", "--no-session", "--no-tools", "-nt"],
  ...[
    "--no-builtin-tools",
    "-nbt",
    "--no-extensions",
    "-ne",
    "--no-mcp",
    "--no-skills",
    "-ns",
    "--no-prompt-templates",
  ],
  ...[
    "-np",
    "--no-themes",
    "--no-context-files",
    "-nc",
    "--verbose",
    "--approve",
    "-a",
    "--no-approve",
    "-na",
    "--offline",
  ],
]);

// Flags that take the next token whatever it is, when there is one; without one pi falls through to its
// unknown-flag branch (`--model` alone is "Unknown option: --model", `-e` alone "Unknown option: -e").
const VALUE_FLAGS = new Set([
  ...["--provider", "--model", "--api-key", "--system-prompt", "--append-system-prompt", "--session", "--session-id"],
  ...["--fork", "--session-dir", "--models", "--tools", "-t", "--exclude-tools", "-xt", "--thinking", "--export"],
  ...["--extension", "-e", "--skill", "--prompt-template", "--theme"],
]);

const THINKING_LEVELS = ["off", "minimal", "low", "medium", "high", "xhigh", "max"];

/** pi's answer to an argv: refused (exit 1), `--version`, or on to the prompt with any warnings on stderr. */
export function piArgvOutcome(argv: readonly string[]): PiArgvOutcome {
  const parsed = parsePiArgv(argv);
  const printed = parsed.diagnostics.map((d) => `${d.type === "error" ? "Error" : "Warning"}: ${d.message}\n`).join("");
  if (parsed.diagnostics.some((d) => d.type === "error"))
    return { kind: "refuse", stderr: Buffer.from(printed, "utf8"), exitCode: 1 };
  if (parsed.version)
    return {
      kind: "version",
      stdout: Buffer.from(`${PI_VERSION}\n`),
      stderr: Buffer.from(printed, "utf8"),
      exitCode: 0,
    };
  if (parsed.unknownFlags.size > 0) {
    const names = [...parsed.unknownFlags].map((name) => `--${name}`);
    const line = `Error: Unknown option${names.length === 1 ? "" : "s"}: ${names.join(", ")}\n`;
    return { kind: "refuse", stderr: Buffer.from(printed + line, "utf8"), exitCode: 1 };
  }
  return { kind: "run", stderr: Buffer.from(printed, "utf8") };
}

function parsePiArgv(args: readonly string[]): Parsed {
  const parsed: Parsed = { version: false, diagnostics: [], unknownFlags: new Set() };
  for (let i = 0; i < args.length; i++) i = parseOne(args, i, parsed);
  return parsed;
}

/** Reads the token at i (and any value it takes); returns the index of the last token consumed. */
function parseOne(args: readonly string[], i: number, parsed: Parsed): number {
  const arg = args[i] as string;
  const next = args[i + 1];
  const error = (message: string): void => void parsed.diagnostics.push({ type: "error", message });
  if (arg === "--") return args.length;
  if (arg === "--version" || arg === "-v") parsed.version = true;
  else if (arg === "--mode") return parseMode(next, i, error);
  else if (arg === "--name" || arg === "-n") return next === undefined ? (error("--name requires a value"), i) : i + 1;
  else if (arg === "--use-theme")
    return next === undefined || next.startsWith("-") ? (error("--use-theme requires a theme name"), i) : i + 1;
  else if (arg === "--tui-mode") return parseTuiMode(next, i, error);
  else if (arg === "--thinking" && next !== undefined) {
    if (!THINKING_LEVELS.includes(next)) {
      parsed.diagnostics.push({
        type: "warning",
        message: `Invalid thinking level "${next}". Valid values: ${THINKING_LEVELS.join(", ")}`,
      });
    }
    return i + 1;
  } else if (VALUE_FLAGS.has(arg) && next !== undefined) return i + 1;
  else if (BOOLEAN_FLAGS.has(arg) || arg.startsWith("@")) return i;
  else if (arg === "--print" || arg === "-p") {
    // pi takes the next token as the message unless it looks like a flag or a file argument.
    return next !== undefined && !next.startsWith("@") && (!next.startsWith("-") || next.startsWith("---")) ? i + 1 : i;
  } else if (arg === "--list-models")
    return next !== undefined && !next.startsWith("-") && !next.startsWith("@") ? i + 1 : i;
  else if (arg.startsWith("--")) return parseUnknownLong(arg, next, i, parsed);
  else if (arg.startsWith("-")) error(`Unknown option: ${arg}`);
  return i;
}

function parseMode(mode: string | undefined, i: number, error: (message: string) => void): number {
  if (mode === undefined || mode.startsWith("-")) return (error("--mode requires text, json, or rpc"), i);
  if (mode !== "text" && mode !== "json" && mode !== "rpc")
    error(`Invalid mode "${mode}". Valid values: text, json, rpc`);
  return i + 1;
}

function parseTuiMode(mode: string | undefined, i: number, error: (message: string) => void): number {
  if (mode === "regular" || mode === "fullscreen") return i + 1;
  if (mode === undefined || mode.startsWith("-")) return (error("--tui-mode requires regular or fullscreen"), i);
  error(`Invalid TUI mode "${mode}". Valid values: regular, fullscreen`);
  return i + 1;
}

/** `--name=value`, `--name value` (a value that is no flag nor file argument) or `--name`: kept for extensions. */
function parseUnknownLong(arg: string, next: string | undefined, i: number, parsed: Parsed): number {
  const eq = arg.indexOf("=");
  parsed.unknownFlags.add(eq === -1 ? arg.slice(2) : arg.slice(2, eq));
  return eq === -1 && next !== undefined && !next.startsWith("-") && !next.startsWith("@") ? i + 1 : i;
}
