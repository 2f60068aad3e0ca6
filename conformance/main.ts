// relay-conformance: entry point (bundled to dist/relay-conformance.mjs, each command's code in its own chunk under
// dist/cli-chunks/; conformance/bin/relay-conformance calls runAsProcess).
import { COMMANDS } from "./commands.ts";
import { UsageError, type Command, type CommandIo } from "./cli/command.ts";
import { installProcessGuards, watchExit } from "./cli/process-guards.ts";

/** Top-level help listing every registered subcommand. */
export function topUsage(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return `Usage: relay-conformance <command> [options]

Byte-exact conformance harness for gentle-pi's Pi host relay against the gentle-ai simulator.

Commands:
${COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`).join("\n")}

Run \`relay-conformance <command> --help\` for a command's options.

Exit codes: 0 pass, 1 conformance failure or drift, 2 bad input (one line on stderr), 3 harness error (a
clause the harness could not decide, and none failed); 130 / 143 interrupted by
SIGINT / SIGTERM and 141 output closed (\`… | head\`): the command's child processes are killed and its temp
folders removed first.
`;
}

/** Optimal string alignment distance (a swap of two neighbours counts 1). */
function editDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const row = d[i]!;
      const up = d[i - 1]!;
      row[j] = Math.min(up[j]! + 1, row[j - 1]! + 1, up[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        row[j] = Math.min(row[j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}

/** The registered command closest to a mistyped one (at most 2 edits, and fewer than its length), if any. */
export function nearestCommand(typed: string): string | undefined {
  const t = typed.toLowerCase();
  let best: { name: string; distance: number } | undefined;
  for (const c of COMMANDS) {
    const distance = editDistance(t, c.name);
    if (distance <= 2 && distance < c.name.length - 1 && (best === undefined || distance < best.distance))
      best = { name: c.name, distance };
  }
  return best?.name;
}

/** Runs the CLI on argv (without node and script); returns the exit code. */
export async function main(argv: readonly string[], io: CommandIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    io.stdout(topUsage());
    return name === undefined ? 2 : 0;
  }
  const entry = COMMANDS.find((c) => c.name === name);
  let command: Command | undefined;
  try {
    if (!entry) {
      const near = nearestCommand(name);
      throw new UsageError(
        `unknown command ${JSON.stringify(name)}${near === undefined ? "" : ` (did you mean ${JSON.stringify(near)}?)`}`,
      );
    }
    command = await entry.load();
    return await command.run(rest, io);
  } catch (error) {
    if (error instanceof UsageError) {
      const hint = error.hint ? `Run \`relay-conformance ${entry ? `${entry.name} ` : ""}--help\` for usage.\n` : "";
      io.stderr(`${command?.errorPrefix ?? "relay-conformance"}: ${error.message}\n${hint}`);
      return 2;
    }
    throw error;
  }
}

/**
 * Runs the CLI as this process (the bin calls it): the process guards (cli/process-guards.ts) for EPIPE and
 * SIGINT/SIGTERM, the command's exit code, and the watchdog that ends a process something still holds open.
 */
export async function runAsProcess(argv: readonly string[]): Promise<void> {
  installProcessGuards(COMMANDS.find((c) => c.name === argv[0])?.name);
  const io: CommandIo = {
    stdout: (t) => process.stdout.write(t),
    stderr: (t) => process.stderr.write(t),
    cwd: process.cwd(),
    progress: process.stderr.isTTY ? "tty" : "lines",
    ...(process.stderr.isTTY && process.stderr.columns > 0 ? { columns: process.stderr.columns } : {}),
  };
  try {
    const code = await main(argv, io);
    process.exitCode = code;
    watchExit(code);
  } catch (error) {
    process.stderr.write(
      `relay-conformance: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exitCode = 70;
  }
}
