import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import type { Readable } from "node:stream";
import { AdapterReplySchema, type AdapterJob, type AdapterReply } from "./protocol.ts";
import { trackProcessGroup } from "./teardown.ts";

/** How one job ended: a reply, the per-job timeout (the child's tree is killed), or the child dying without a reply. */
export type JobOutcome =
  | { readonly status: "reply"; readonly reply: AdapterReply }
  | { readonly status: "timeout"; readonly timeoutMs: number; readonly output: string }
  | { readonly status: "exited"; readonly code: number | null; readonly signal: string | null; readonly output: string };

export interface AdapterWorkerOptions {
  readonly tsxLoader: string;
  readonly adapterChild: string;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
}

const OUTPUT_TAIL = 16 * 1024;

/** One adapter child (its own process group, so a timeout kills the relay and everything it launched). */
export class AdapterWorker {
  readonly #child: ChildProcess;
  #output = "";
  #pending: ((outcome: JobOutcome) => void) | null = null;
  #exited = false;
  readonly #exit: Promise<void>;
  readonly #untrack: () => void;

  constructor(options: AdapterWorkerOptions) {
    this.#child = spawn(process.execPath, ["--import", options.tsxLoader, options.adapterChild], {
      cwd: options.cwd,
      env: { ...options.env },
      stdio: ["pipe", "pipe", "pipe", "pipe"],
      detached: true,
      shell: false,
    });
    // An interrupted command kills this group even if the child itself is gone and left the relay's processes behind.
    this.#untrack = trackProcessGroup(this.#child.pid);
    const keep = (chunk: Buffer): void => {
      this.#output = (this.#output + chunk.toString("utf8")).slice(-OUTPUT_TAIL);
    };
    this.#child.stdout?.on("data", keep);
    this.#child.stderr?.on("data", keep);
    this.#child.stdin?.on("error", () => {}); // a dead child must surface as "exited", not as an EPIPE crash here
    const replies = createInterface({ input: this.#child.stdio[3] as Readable, crlfDelay: Number.POSITIVE_INFINITY });
    replies.on("line", (line) => {
      const parsed = AdapterReplySchema.safeParse(safeJson(line));
      const settle = this.#pending;
      this.#pending = null;
      if (!settle) return;
      settle(parsed.success ? { status: "reply", reply: parsed.data } : { status: "exited", code: null, signal: null, output: `malformed adapter reply: ${line.slice(0, 500)}` });
    });
    this.#exit = new Promise((resolve) => {
      this.#child.on("error", (error) => keep(Buffer.from(`adapter spawn error: ${error.message}\n`)));
      this.#child.on("close", (code, signal) => {
        this.#exited = true;
        const settle = this.#pending;
        this.#pending = null;
        settle?.({ status: "exited", code, signal, output: this.#output });
        resolve();
      });
    });
  }

  get alive(): boolean {
    return !this.#exited;
  }

  /** Sends one job and waits for its reply, at most timeoutMs; on timeout the whole process group is SIGKILLed. */
  run(job: AdapterJob, timeoutMs: number): Promise<JobOutcome> {
    if (this.#pending) throw new Error("adapter worker is busy");
    this.#output = "";
    return new Promise<JobOutcome>((resolve) => {
      const timer = setTimeout(() => {
        this.#pending = null;
        const output = this.#output;
        void this.kill().then(() => resolve({ status: "timeout", timeoutMs, output }));
      }, timeoutMs);
      this.#pending = (outcome) => {
        clearTimeout(timer);
        resolve(outcome);
      };
      if (this.#exited) {
        this.#pending = null;
        clearTimeout(timer);
        resolve({ status: "exited", code: this.#child.exitCode, signal: this.#child.signalCode, output: this.#output });
        return;
      }
      this.#child.stdin?.write(`${JSON.stringify(job)}\n`);
    });
  }

  /** Kills the child's whole process group and waits for the child to be reaped. */
  async kill(): Promise<void> {
    if (!this.#exited && this.#child.pid !== undefined) {
      try {
        process.kill(-this.#child.pid, "SIGKILL");
      } catch {
        // already gone
      }
    }
    await this.#exit;
    this.#untrack();
  }

  /** Closes stdin so the child exits on its own; kills the group if it lingers. */
  async close(graceMs = 2000): Promise<void> {
    this.#child.stdin?.end();
    const timer = setTimeout(() => void this.kill(), graceMs);
    await this.#exit;
    clearTimeout(timer);
    // Anything the relay left running in the group goes too.
    if (this.#child.pid !== undefined) {
      try {
        process.kill(-this.#child.pid, "SIGKILL");
      } catch {
        // group already empty
      }
    }
    this.#untrack();
  }
}

function safeJson(line: string): unknown {
  try {
    return JSON.parse(line) as unknown;
  } catch {
    return null;
  }
}
