// The launcher side of the warm simulator: hands this process's call to the server and plays back its answer.
// Synchronous fs calls only (no event loop, no zod, no crypto), so a served call costs little more than `node -e 0`.
import { existsSync, readFileSync, unlinkSync } from "node:fs";
import { join, resolve } from "node:path";
import { HANDED_STDIN } from "../runtime/call-io.ts";
import { writeUnlessClosed } from "../runtime/emit.ts";
import { processAlive } from "../runtime/process-alive.ts";
import { readAllSync } from "../runtime/read-stdin.ts";
import { simulatorFailure } from "../runtime/simulator-failure.ts";
import { sleepSync } from "../runtime/sleep.ts";
import { decodeResponse, ENV_WARM, headerLine, readsStdin, SERVER_FILE, spoolFiles, writeAtomic, type WarmRequest } from "./protocol.ts";

const POLL_MS = 0.1;
const LIVENESS_EVERY_MS = 100;

/**
 * Serves this process's call through the warm simulator named by GENTLE_AI_SIM_WARM: exits the process with the
 * call's streams and code, or returns false when the call must run in this process (no server configured, replay
 * mode, gentle-ai reading stdin, or the server handing it back).
 */
export function serveWarm(program: "gentle-ai" | "pi"): boolean {
  const configured = process.env[ENV_WARM];
  if (!configured || process.env.GENTLE_AI_SIM_REPLAY) return false;
  const dir = resolve(configured);
  const argv = process.argv.slice(2);
  // The server never waits on a pipe it does not hold: a gentle-ai call that reads stdin runs here.
  if (program === "gentle-ai" && argv.some(readsStdin)) return false;
  // pi always reads its whole prompt; it travels with the call, and stays here if the call is handed back.
  const stdin = program === "pi" ? readAllSync(0) : null;
  const id = `${process.pid}-${process.hrtime.bigint()}`;
  const files = spoolFiles(dir, id);
  const request: WarmRequest = {
    v: 1,
    program,
    argv,
    env: process.env,
    cwd: process.cwd(),
    pid: process.pid,
    executablePath: resolve(process.argv[1] ?? ""),
    stdin: stdin === null ? null : stdin.length,
  };
  try {
    writeAtomic(files.req, headerLine(request), stdin ?? Buffer.alloc(0));
  } catch (error) {
    return fail(dir, `cannot send the call: ${(error as Error).message}`);
  }
  const response = awaitResponse(dir, files.res);
  if (response.header.kind === "local") {
    if (stdin !== null) (globalThis as { [HANDED_STDIN]?: Buffer })[HANDED_STDIN] = stdin;
    return false;
  }
  writeUnlessClosed(1, response.stdout);
  writeUnlessClosed(2, response.stderr);
  return process.exit(response.header.code);
}

/** The server's pid, from the file it writes once it listens (read only when an answer is slow: most never are). */
function readServerPid(dir: string): number {
  let text: string;
  try {
    text = readFileSync(join(dir, SERVER_FILE), "utf8");
  } catch {
    return fail(dir, `no server is running (${SERVER_FILE} is missing)`);
  }
  const pid = (JSON.parse(text) as { pid?: unknown }).pid;
  return typeof pid === "number" ? pid : fail(dir, `${SERVER_FILE} names no pid`);
}

/** Polls for the answer file (the server renames it into place whole), checking now and then that the server lives. */
function awaitResponse(dir: string, path: string): ReturnType<typeof decodeResponse> {
  let serverPid: number | undefined;
  let waited = 0;
  for (;;) {
    // existsSync, not a failing read: an ENOENT exception per poll costs more than the poll.
    if (existsSync(path)) {
      const bytes = readFileSync(path);
      unlinkSync(path);
      try {
        return decodeResponse(bytes);
      } catch (error) {
        return fail(dir, `malformed answer: ${(error as Error).message}`);
      }
    }
    sleepSync(POLL_MS);
    waited += POLL_MS;
    if (waited >= LIVENESS_EVERY_MS) {
      waited = 0;
      serverPid ??= readServerPid(dir);
      if (!processAlive(serverPid)) return fail(dir, `the server (pid ${serverPid}) exited before answering`);
    }
  }
}

function fail(dir: string, reason: string): never {
  return simulatorFailure(`warm simulator ${dir}: ${reason}`);
}
