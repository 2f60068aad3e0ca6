import { dirname, join } from "node:path";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

// The repo root, found from this file whether it runs as TypeScript or inside dist/relay-conformance.mjs.
function findRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    if (existsSync(join(dir, "package.json")) && existsSync(join(dir, "simulator"))) return dir;
    dir = dirname(dir);
  }
  throw new Error("relay-conformance: cannot locate the repository root");
}

export const REPO_ROOT = findRoot();
export const SIM_BIN = join(REPO_ROOT, "simulator", "bin");
export const SIM_GENTLE_AI = join(SIM_BIN, "gentle-ai");
export const SIM_PI = join(SIM_BIN, "pi");
export const REPRO_DIR = join(REPO_ROOT, "golden", "repro");
/** Launcher that runs the simulator with the relay handshake removed or replaced (see handshake.txtar). */
export const HANDSHAKE_TAMPER = join(REPO_ROOT, "conformance", "repro", "bin", "gentle-ai-handshake-tamper");
