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

/** This process's own argv, environment, cwd, pid and stdin. */
export function nativeCallIo(): CallIo {
  return {
    argv: process.argv.slice(2),
    env: process.env,
    cwd: process.cwd(),
    pid: process.pid,
    executablePath: resolve(process.argv[1] ?? ""),
    readStdin: () => readAllSync(0),
  };
}
