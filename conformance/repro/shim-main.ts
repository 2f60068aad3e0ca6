// Recording shim: bundled into a temp dir and launched as `gentle-ai` or `pi`. It passes one call through to the
// real program untouched (argv, env, cwd, stdin, stdout, stderr, exit code, signal) and appends what it saw to a
// transcript. Its configuration sits in a file beside it, never in the environment, so the callee's env is unchanged.
// node:child_process, not execa: this code runs inside the child (it is the `gentle-ai`/`pi` the relay launches), a
// standalone bundle that must start fast and stream stdin/stdout live with signals forwarded, not collect a result.
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, readdirSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { transcriptEntry } from "./shim-capture.ts";
import { capturedInputFiles } from "../../simulator/output/captured-files.ts";
import { appendTranscript } from "../../simulator/output/transcript.ts";

interface ShimConfig {
  readonly program: "gentle-ai" | "pi";
  readonly target: string;
  readonly transcript: string;
}

const FORWARDED = ["SIGTERM", "SIGINT", "SIGHUP", "SIGQUIT", "SIGUSR1", "SIGUSR2"] as const;

/** Next start number across every shim of this run (mkdir is atomic): orders calls by when they began. */
function nextStartSeq(dir: string): number {
  mkdirSync(join(dir, "seq"), { recursive: true });
  for (let n = 0; ; n += 1) {
    try {
      mkdirSync(join(dir, "seq", String(n)));
      return n;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
  }
}

function main(): void {
  // The module URL is the real file even when the shim is reached through a symlink (the PATH entry for pi).
  const self = fileURLToPath(import.meta.url);
  const config = JSON.parse(readFileSync(`${self}.shim.json`, "utf8")) as ShimConfig;
  const argv = process.argv.slice(2);
  const cwd = process.cwd();
  const startSeq = nextStartSeq(dirname(self));
  const startedAt = new Date();
  const started = performance.now();
  const cwdListing = config.program === "pi" ? readdirSync(cwd).sort() : undefined;
  // Read before the callee runs: the caller may delete a staged file right after the call.
  const files = capturedInputFiles(argv, cwd);
  const stdin: Buffer[] = [];
  const stdout: Buffer[] = [];
  const stderr: Buffer[] = [];
  const child = spawn(config.target, argv, { cwd, env: process.env, stdio: ["pipe", "pipe", "pipe"], shell: false });
  const forward = (signal: NodeJS.Signals) => () => child.kill(signal);
  for (const s of FORWARDED) process.on(s, forward(s));
  process.stdin.on("data", (chunk: Buffer) => {
    stdin.push(chunk);
    child.stdin.write(chunk);
  });
  process.stdin.on("end", () => child.stdin.end());
  process.stdin.on("error", () => child.stdin.end());
  child.stdin.on("error", () => undefined);
  child.stdout.on("data", (chunk: Buffer) => {
    stdout.push(chunk);
    process.stdout.write(chunk);
  });
  child.stderr.on("data", (chunk: Buffer) => {
    stderr.push(chunk);
    process.stderr.write(chunk);
  });
  child.on("error", (error) => {
    process.stderr.write(`${basename(self)}: recording shim could not start ${config.target}: ${error.message}\n`);
    process.exit(127);
  });
  child.on("close", (code, signal) => {
    process.stdin.destroy();
    // callIndex carries the start number; the line order of the transcript is the end order.
    appendTranscript(
      config.transcript,
      transcriptEntry({
        callIndex: startSeq,
        program: config.program,
        pid: child.pid ?? 0,
        argv,
        cwd,
        ...(cwdListing === undefined ? {} : { cwdListing }),
        env: process.env,
        stdin: Buffer.concat(stdin),
        files,
        stdout: Buffer.concat(stdout),
        stderr: Buffer.concat(stderr),
        exit: { code, signal, completed: true },
        startedAt,
        durationMs: performance.now() - started,
      }),
    );
    const finish = (): void => {
      if (signal !== null) {
        for (const s of FORWARDED) process.removeAllListeners(s);
        process.kill(process.pid, signal);
      }
      process.exit(code ?? 1);
    };
    // Let both pipes drain so the caller sees every byte before the exit status.
    process.stdout.write("", () => process.stderr.write("", finish));
  });
}

main();
