import { spawn, type ChildProcess } from "node:child_process";
import { accessSync, constants, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { ENV_WARM } from "./protocol.ts";

/** A running warm simulator: the environment that routes simulator calls to it, and how to stop it. */
export interface WarmSimulator {
  /** Its spool folder. */
  readonly dir: string;
  readonly pid: number;
  /** Add to the environment of the relay (and so of every simulator launcher it spawns). */
  readonly env: { readonly [ENV_WARM]: string };
  /** Stops the server and removes its folder; safe to call twice. */
  stop(): Promise<void>;
}

/** Options of startWarmSimulator. */
export interface WarmSimulatorOptions {
  /** Folder to create the spool folder in (default: /dev/shm where it exists, else os.tmpdir()). */
  readonly parentDir?: string;
  /** How long the server may take to load (default 10 s). */
  readonly readyTimeoutMs?: number;
}

/** dist/warm-server.cjs, found from this module whether it runs from sources or from a dist/ bundle. */
export function warmServerScript(): string {
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    const candidate = join(dir, "dist", "warm-server.cjs");
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) throw new Error("warm simulator: dist/warm-server.cjs not found (run `npm run build`)");
  }
}

/** Every call creates, renames and removes spool files: in memory (tmpfs) that costs far less than on a disk. */
function spoolParent(): string {
  try {
    accessSync(SHM, constants.W_OK);
    return SHM;
  } catch {
    return tmpdir();
  }
}
const SHM = "/dev/shm";

/** Starts a warm simulator server and resolves once it answers calls. */
export async function startWarmSimulator(options: WarmSimulatorOptions = {}): Promise<WarmSimulator> {
  const dir = mkdtempSync(join(options.parentDir ?? spoolParent(), "gentle-ai-sim-warm-"));
  let child: ChildProcess;
  try {
    // Its own process group, so an interrupted harness can kill it as a group (it also exits when this process goes).
    child = spawn(process.execPath, [warmServerScript(), dir], { stdio: ["ignore", "ignore", "inherit", "ipc"], shell: false, detached: true });
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  let stopped: Promise<void> | undefined;
  const stop = (): Promise<void> =>
    (stopped ??= new Promise<void>((resolve) => {
      const done = (): void => {
        rmSync(dir, { recursive: true, force: true });
        resolve();
      };
      if (child.exitCode !== null || child.signalCode !== null) return done();
      child.ref(); // unref'd once ready: hold the loop until it is gone
      child.once("exit", done);
      child.kill("SIGKILL");
    }));
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`warm simulator: not ready after ${options.readyTimeoutMs ?? 10_000} ms`)), options.readyTimeoutMs ?? 10_000);
      child.once("message", () => {
        clearTimeout(timer);
        resolve();
      });
      child.once("error", (error) => {
        clearTimeout(timer);
        reject(error);
      });
      child.once("exit", (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`warm simulator: server exited (${signal ?? code}) before it was ready`));
      });
    });
  } catch (error) {
    await stop();
    throw error;
  }
  // The server must not keep the caller's event loop alive, nor be waited on at exit.
  child.unref();
  child.channel?.unref();
  return { dir, pid: child.pid ?? -1, env: { [ENV_WARM]: dir }, stop };
}
