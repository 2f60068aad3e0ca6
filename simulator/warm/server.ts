// Entry of the warm simulator server (`node dist/warm-server.cjs <spool dir>`): one resident process that has
// already loaded the simulator, answering the launchers' calls one at a time in arrival order. Started and stopped
// by startWarmSimulator (start.ts); it also exits when its parent goes away, so it never outlives a run.
import { readdirSync, readFileSync, rmSync, unlinkSync, watch } from "node:fs";
import { join } from "node:path";
import { failureLine, SIMULATOR_FAILURE_EXIT } from "../runtime/simulator-failure.ts";
import { sha256Hex } from "../runtime/sha256.ts";
import { decodeRequest, SERVER_FILE, spoolFiles, writeAtomic } from "./protocol.ts";
import { exitWith, serveCall } from "./serve-call.ts";

const SWEEP_MS = 100;

/** Loads now what a cold process loads per call (verb modules, zod validation, node:crypto). */
async function preload(): Promise<void> {
  await Promise.all([
    import("../gentle-ai/verbs/status.ts"),
    import("../gentle-ai/verbs/capture-result.ts"),
    import("../gentle-ai/verbs/capture-evidence.ts"),
    import("../gentle-ai/verbs/finalize.ts"),
    import("../gentle-ai/verbs/capabilities.ts"),
    import("../gentle-ai/verbs/lens-context.ts"),
    import("../scenario/load.ts"),
  ]);
  sha256Hex("");
}

async function main(dir: string | undefined): Promise<void> {
  if (!dir) {
    process.stderr.write("usage: warm-server <spool dir>\n");
    process.exit(2);
  }
  await preload();
  const queue: string[] = [];
  let busy = false;

  const handle = async (name: string): Promise<void> => {
    const path = join(dir, name);
    let bytes: Buffer;
    try {
      bytes = readFileSync(path);
    } catch {
      return; // already handled (a watch event and a sweep can both name a file)
    }
    unlinkSync(path);
    const response = spoolFiles(dir, name.slice(0, -".req".length)).res;
    try {
      const { request, stdin } = decodeRequest(bytes);
      writeAtomic(response, ...(await serveCall(request, stdin)));
    } catch (error) {
      const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
      writeAtomic(response, ...exitWith(Buffer.alloc(0), failureLine(`warm simulator internal error: ${text}`), SIMULATOR_FAILURE_EXIT));
    }
  };

  const drain = async (): Promise<void> => {
    if (busy) return;
    busy = true;
    try {
      for (let name = queue.shift(); name !== undefined; name = queue.shift()) await handle(name);
    } finally {
      busy = false;
    }
  };
  const offer = (name: string): void => {
    if (!name.endsWith(".req")) return;
    queue.push(name);
    void drain();
  };

  watch(dir, (_event, name) => {
    if (name) offer(String(name));
  });
  // A safety net: a request whose watch event was missed is still found.
  setInterval(() => {
    for (const name of readdirSync(dir)) offer(name);
  }, SWEEP_MS);
  writeAtomic(join(dir, SERVER_FILE), Buffer.from(JSON.stringify({ pid: process.pid }), "utf8"));
  process.send?.("ready");
  // The parent (startWarmSimulator) holds the IPC channel: when it goes, so does the server, and its folder with it.
  process.on("disconnect", () => {
    rmSync(dir, { recursive: true, force: true });
    process.exit(0);
  });
}

void main(process.argv[2]);
