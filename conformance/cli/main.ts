// relay-conformance: entry point (bundled to dist/relay-conformance.mjs).
import { COMMANDS } from "./commands/index.ts";
import { UsageError, type CommandIo } from "./command.ts";
import { installProcessGuards } from "./process-guards.ts";

/** Top-level help listing every registered subcommand. */
export function topUsage(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return `Usage: relay-conformance <command> [options]

Byte-exact conformance harness for gentle-pi's Pi host relay against the gentle-ai simulator.

Commands:
${COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`).join("\n")}

Run \`relay-conformance <command> --help\` for a command's options.
`;
}

/** Runs the CLI on argv (without node and script); returns the exit code. */
export async function main(argv: readonly string[], io: CommandIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    io.stdout(topUsage());
    return name === undefined ? 2 : 0;
  }
  const command = COMMANDS.find((c) => c.name === name);
  try {
    if (!command) throw new UsageError(`unknown command ${JSON.stringify(name)}`);
    return await command.run(rest, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`relay-conformance: ${error.message}\nRun \`relay-conformance ${command ? `${command.name} ` : ""}--help\` for usage.\n`);
      return 2;
    }
    throw error;
  }
}

const isEntry = process.argv[1] !== undefined && /relay-conformance(\.mjs)?$|cli[\\/]main\.ts$/.test(process.argv[1]);
if (isEntry) {
  installProcessGuards(COMMANDS.find((c) => c.name === process.argv[2])?.name);
  const io: CommandIo = { stdout: (t) => process.stdout.write(t), stderr: (t) => process.stderr.write(t), cwd: process.cwd() };
  main(process.argv.slice(2), io).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`relay-conformance: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exitCode = 70;
    },
  );
}
