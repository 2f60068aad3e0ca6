// `relay-conformance` called in-process (conformance/main.ts's main), its output captured as text: the one helper the
// CLI's tests share. Tests that need the real process (signals, exit, EPIPE) spawn the bin instead (cli-process.ts).
import type { CommandIo } from "../../conformance/cli/command.ts";
import { main } from "../../conformance/main.ts";
import { packageRoot } from "../../conformance/paths.ts";

/** How to call the CLI: its cwd (default the package root), live progress, and variables set for the call only. */
export interface CliOptions {
  readonly cwd?: string;
  readonly progress?: CommandIo["progress"];
  /** Set in process.env for the call and restored after it (commands read some variables, e.g. the simulator's). */
  readonly env?: Readonly<Record<string, string>>;
}

/** One call's exit code and what it wrote to stdout and stderr. */
export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** The same, with stdout kept as the chunks the command wrote one call at a time (to see what it streams). */
export interface CliChunkedRun {
  readonly code: number;
  readonly chunks: string[];
  readonly stderr: string;
}

async function withEnv<T>(env: Readonly<Record<string, string>>, run: () => Promise<T>): Promise<T> {
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  try {
    return await run();
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

/** Runs `relay-conformance <args>` in-process; every stdout write is one chunk. */
export async function cliChunks(args: readonly string[], options: CliOptions = {}): Promise<CliChunkedRun> {
  const chunks: string[] = [];
  let stderr = "";
  const io: CommandIo = {
    stdout: (t) => chunks.push(t),
    stderr: (t) => (stderr += t),
    cwd: options.cwd ?? packageRoot(),
    ...(options.progress === undefined ? {} : { progress: options.progress }),
  };
  const code = await withEnv(options.env ?? {}, () => main([...args], io));
  return { code, chunks, stderr };
}

/** Runs `relay-conformance <args>` in-process: its exit code, stdout and stderr. */
export async function cli(args: readonly string[], options: CliOptions = {}): Promise<CliRun> {
  const { code, chunks, stderr } = await cliChunks(args, options);
  return { code, stdout: chunks.join(""), stderr };
}
