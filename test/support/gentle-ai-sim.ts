// Shared by the simulator test suites: the built gentle-ai launcher, spawning it against one scenario and state
// dir, and reading the persisted lineage state back.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
export const GENTLE_AI = join(ROOT, "simulator/bin/gentle-ai");

/** One finished process (or in-process dispatch). */
export interface Run {
  readonly stdout: string;
  readonly stderr: string;
  readonly stdoutBytes: Buffer;
  readonly code: number | null;
}

export interface RunOptions {
  readonly env?: Record<string, string>;
  readonly stdin?: Buffer | string;
  readonly cwd?: string;
}

/** Where one simulated gentle-ai finds its scenario and keeps its state (cwd defaults to `dir`). */
export interface SimPaths {
  readonly dir: string;
  readonly scenarioPath: string;
  readonly stateDir: string;
}

/** Spawns the built simulator binary (shell: false) with only PATH, the sim variables and the given extras. */
export function spawnGentleAi(paths: SimPaths, argv: readonly string[], opts: RunOptions = {}): Promise<Run> {
  return new Promise((done, fail) => {
    const env: Record<string, string> = {
      PATH: process.env["PATH"] ?? "",
      GENTLE_AI_SIM_SCENARIO: paths.scenarioPath,
      GENTLE_AI_SIM_STATE: paths.stateDir,
      ...opts.env,
    };
    const child = spawn(GENTLE_AI, argv, { shell: false, env, cwd: opts.cwd ?? paths.dir, stdio: ["pipe", "pipe", "pipe"] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (c: Buffer) => out.push(c));
    child.stderr.on("data", (c: Buffer) => err.push(c));
    child.on("error", fail);
    child.stdin.on("error", () => undefined);
    child.stdin.end(opts.stdin ?? "");
    child.on("close", (code) => {
      const stdoutBytes = Buffer.concat(out);
      done({ stdout: stdoutBytes.toString("utf8"), stderr: Buffer.concat(err).toString("utf8"), stdoutBytes, code });
    });
  });
}

/** The lineage state file of a state dir as JSON (undefined before the first write). */
export function readLineageState(stateDir: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(readFileSync(join(stateDir, "lineage.json"), "utf8")) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}
