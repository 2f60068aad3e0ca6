import { resolve } from "node:path";
import { readAllSync } from "./read-stdin.ts";

/** The process one simulated call runs as: argv, environment, cwd, pid, launch path and stdin. */
export interface CallIo {
  /** Arguments after the program name, exactly as spawned. */
  readonly argv: readonly string[];
  /** The call's own environment (absolutizeSimEnv rewrites it, so it must not be shared between calls). */
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
  readonly pid: number;
  /** Absolute path the program was started as (simulator/bin/<name>). */
  readonly executablePath: string;
  /** The whole of stdin; called at most once, and only when the program reads it. */
  readStdin(): Buffer;
}

/** Where a launcher that already read stdin (the warm client, before a call was handed back) leaves its bytes. */
export const HANDED_STDIN: unique symbol = Symbol.for("gentle-ai-sim.handed-stdin") as typeof HANDED_STDIN;

/** This process's own argv, environment, cwd, pid and stdin. */
export function nativeCallIo(): CallIo {
  return {
    argv: process.argv.slice(2),
    env: process.env,
    cwd: process.cwd(),
    pid: process.pid,
    executablePath: resolve(process.argv[1] ?? ""),
    readStdin: () => {
      const handed: unknown = (globalThis as { [HANDED_STDIN]?: unknown })[HANDED_STDIN];
      return Buffer.isBuffer(handed) ? handed : readAllSync(0);
    },
  };
}
