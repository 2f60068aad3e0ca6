import { join } from "node:path";
import { builtOrSource, packageRoot } from "../paths.ts";

export const REPO_ROOT = packageRoot();
export const SIM_BIN = join(REPO_ROOT, "simulator", "bin");
export const SIM_GENTLE_AI = join(SIM_BIN, "gentle-ai");
export const SIM_PI = join(SIM_BIN, "pi");
export const REPRO_DIR = join(REPO_ROOT, "golden", "repro");
/** Launcher that runs the simulator with the relay handshake removed or replaced (see handshake.txtar). */
export const HANDSHAKE_TAMPER = join(REPO_ROOT, "conformance", "repro", "bin", "gentle-ai-handshake-tamper");
/** The module a repro relay or client step runs in its relay host (built, or its source). */
export const reproWorker = (): string => builtOrSource(REPO_ROOT, "repro-worker", "conformance/repro/worker.ts");
