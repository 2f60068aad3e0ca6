import { spawn, type ChildProcess } from "node:child_process";
import type { Readable } from "node:stream";
import { loadScaledTimeout } from "./load-clock.ts";
import { killGroup, killTree } from "./process-tree.ts";
import { AdapterReplySchema, MAX_REPLY_LINE_BYTES, type AdapterJob, type AdapterReply } from "./protocol.ts";
import { trackProcessGroup } from "./teardown.ts";

/** The relay's own evidence when its child had to go: exit, signal and the tail of what it printed. */
export interface ChildEvidence {
  readonly code: number | null;
  readonly signal: string | null;
  /** The last OUTPUT_TAIL bytes of the child's stdout and stderr, interleaved as they arrived. */
  readonly output: string;
}

/**
 * How one job ended. Every ending but `reply` leaves the child killed with its whole process tree:
 * - timeout: no reply within the job's load-scaled bound (a relay that never settles, or wedges the child);
 * - exited: the child died mid-job (the relay exited, crashed or ran out of heap);
 * - protocol: the relay broke the reply channel (garbage, a foreign or oversized line, fd 3 closed);
 * - harness: the harness's own fault (the child could not start, was busy, or the run was cancelled).
 */
export type JobOutcome =
  | { readonly status: "reply"; readonly reply: AdapterReply }
  | { readonly status: "timeout"; readonly timeoutMs: number; readonly wallMs: number; readonly evidence: ChildEvidence }
  | { readonly status: "exited"; readonly evidence: ChildEvidence }
  | { readonly status: "protocol"; readonly detail: string; readonly evidence: ChildEvidence }
  | { readonly status: "harness"; readonly detail: string };

export interface AdapterWorkerOptions {
  readonly tsxLoader: string;
  readonly adapterChild: string;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
}

/** Per-job options: the bound, folders whose processes die with the child, and a run-wide cancellation. */
export interface JobOptions {
  readonly timeoutMs: number;
  /** Folders a relay's escaped processes carry (the case folder): killed with the child's tree. */
  readonly markers?: readonly string[];
  readonly signal?: AbortSignal;
}

const OUTPUT_TAIL = 16 * 1024;
/** The adapter child's V8 heap cap: a relay that allocates without end dies here, not the machine. */
const HEAP_MB = 2048;

type Settle = (outcome: JobOutcome) => void;

/** One adapter child (its own process group, so a kill takes the relay and everything it launched). */
export class AdapterWorker {
  readonly #child: ChildProcess;
  #output = "";
  #pending: { readonly id: number; readonly settle: Settle; readonly markers: readonly string[] } | null = null;
  #exited = false;
  #ready = false;
  #broken: string | null = null;
  #channelEnded = false;
  readonly #exit: Promise<void>;
  readonly #started: Promise<boolean>;
  readonly #untrack: () => void;

  constructor(options: AdapterWorkerOptions) {
    this.#child = spawn(process.execPath, [`--max-old-space-size=${HEAP_MB}`, "--import", options.tsxLoader, options.adapterChild], {
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
    let markReady: (ok: boolean) => void = () => {};
    this.#started = new Promise((resolve) => (markReady = resolve));
    readLines(
      this.#child.stdio[3] as Readable,
      (line) => this.#onLine(line, markReady),
      () => this.#violation("the reply line exceeds the channel's limit (the relay wrote to fd 3)"),
      () => {
        // fd 3 ended while the child lives: only the relay can have closed it. The child goes at once (a dying child
        // closes fd 3 too, but a SIGKILL cannot change the exit status of a process already exiting), and its exit
        // then tells the two apart: killed by us means the relay closed the channel.
        if (this.#exited) return;
        this.#channelEnded = true;
        killGroup(this.#child.pid);
      },
    );
    this.#exit = new Promise((resolve) => {
      let finished = false;
      const finish = (code: number | null, signal: NodeJS.Signals | null): void => {
        if (finished) return;
        finished = true;
        clearTimeout(lingering);
        this.#exited = true;
        markReady(false);
        // A grandchild that inherited stdout or stderr must not hold the harness's pipes (or `close`) open.
        for (const stream of this.#child.stdio) stream?.destroy();
        resolve();
        const pending = this.#pending;
        this.#pending = null;
        if (!pending) return;
        const evidence = { code, signal, output: this.#output };
        const closedChannel = this.#channelEnded && signal === "SIGKILL";
        // What the relay launched may outlive the child: its group and marked processes go before the case reports.
        void this.kill(pending.markers).then(() =>
          pending.settle(closedChannel ? { status: "protocol", detail: "the relay closed the adapter's reply channel (fd 3)", evidence } : { status: "exited", evidence }),
        );
      };
      let lingering: NodeJS.Timeout | undefined;
      this.#child.on("error", (error) => keep(Buffer.from(`adapter spawn error: ${error.message}\n`)));
      // `close` waits for every stdio stream; `exit` plus a short grace for the output tail is enough.
      this.#child.on("exit", (code, signal) => {
        lingering = setTimeout(() => finish(code, signal), 200);
      });
      this.#child.on("close", (code, signal) => finish(code, signal));
    });
  }

  #onLine(line: string, markReady: (ok: boolean) => void): void {
    const parsed = AdapterReplySchema.safeParse(safeJson(line));
    if (parsed.success && parsed.data.type === "ready" && !this.#ready) {
      this.#ready = true;
      markReady(true);
      return;
    }
    const pending = this.#pending;
    if (!parsed.success || pending === null || parsed.data.id !== pending.id) {
      this.#violation(`${parsed.success ? "a reply nobody asked for" : "a malformed reply"} on the adapter's channel: ${JSON.stringify(line.slice(0, 200))}`);
      return;
    }
    this.#pending = null;
    pending.settle({ status: "reply", reply: parsed.data });
  }

  /** The channel can no longer be trusted: the child goes, and the job in flight (if any) reports why. */
  #violation(detail: string): void {
    this.#broken ??= detail;
    const pending = this.#pending;
    this.#pending = null;
    void this.kill(pending?.markers ?? []).then(() => pending?.settle({ status: "protocol", detail, evidence: this.#evidence() }));
  }

  #evidence(): ChildEvidence {
    return { code: this.#child.exitCode, signal: this.#child.signalCode, output: this.#output };
  }

  /** True while the child can take a job: started, not dead, channel intact, nothing in flight. */
  get usable(): boolean {
    return !this.#exited && this.#broken === null && this.#pending === null;
  }

  get pid(): number | undefined {
    return this.#child.pid;
  }

  /**
   * Sends one job and waits for its reply, at most `timeoutMs` of load-scaled time (runner/load-clock.ts). Never
   * rejects: a timeout, a dead child, a broken channel or a cancelled run kill the child's whole tree first and then
   * report it. A child that does not come up (no `ready` line) is the harness's fault.
   */
  run(job: AdapterJob, options: JobOptions): Promise<JobOutcome> {
    const markers = options.markers ?? [];
    if (this.#pending) return Promise.resolve({ status: "harness", detail: `adapter worker is busy with job ${this.#pending.id} (harness fault: two cases on one lane)` });
    if (this.#broken !== null) return Promise.resolve({ status: "harness", detail: `adapter worker reused after its channel broke (${this.#broken})` });
    if (options.signal?.aborted) return Promise.resolve({ status: "harness", detail: cancelled(options.signal) });
    return new Promise<JobOutcome>((resolve) => {
      let done = false;
      const finish = (outcome: JobOutcome): void => {
        if (done) return;
        done = true;
        timer.cancel();
        options.signal?.removeEventListener("abort", onAbort);
        resolve(outcome);
      };
      const giveUp = (outcome: () => JobOutcome): void => {
        if (done) return;
        if (this.#pending?.id === job.id) this.#pending = null;
        void this.kill(markers).then(() => finish(outcome()));
      };
      // The bound covers the child's start-up too: a child that never comes up cannot hold the lane for ever.
      const timer = loadScaledTimeout(options.timeoutMs, (wallMs) =>
        giveUp(() =>
          this.#ready
            ? { status: "timeout", timeoutMs: options.timeoutMs, wallMs, evidence: this.#evidence() }
            : { status: "harness", detail: `the adapter child did not come up within ${options.timeoutMs}ms: ${tail(this.#output)}` },
        ),
      );
      const onAbort = (): void => giveUp(() => ({ status: "harness", detail: cancelled(options.signal) }));
      options.signal?.addEventListener("abort", onAbort, { once: true });
      this.#pending = { id: job.id, settle: finish, markers };
      void this.#started.then((up) => {
        if (done) return;
        if (!up) {
          // Death before the ready line: nothing of the relay ran yet (the module loads in a job).
          this.#pending = null;
          const e = this.#evidence();
          finish({ status: "harness", detail: `the adapter child did not start: exit ${e.code ?? "null"} signal ${e.signal ?? "null"}: ${tail(e.output)}` });
          return;
        }
        this.#output = "";
        this.#child.stdin?.write(`${JSON.stringify(job)}\n`);
      });
    });
  }

  /** Kills the child's process group, its descendants and every process carrying a marker; waits for the reap. */
  async kill(markers: readonly string[] = []): Promise<void> {
    const pid = this.#child.pid;
    if (pid !== undefined) await killTree({ groups: [pid], roots: this.#exited ? [] : [pid], markers });
    await this.#exit;
    this.#untrack();
  }

  /** Closes stdin so the child exits on its own; kills the group if it lingers, then anything left in the group. */
  async close(graceMs = 2000): Promise<void> {
    this.#child.stdin?.end();
    let lingering: NodeJS.Timeout | undefined;
    await Promise.race([this.#exit, new Promise<void>((resolve) => (lingering = setTimeout(resolve, graceMs)))]);
    clearTimeout(lingering);
    await this.kill();
  }
}

function cancelled(signal: AbortSignal | undefined): string {
  const reason: unknown = signal?.reason;
  return reason instanceof Error ? reason.message : typeof reason === "string" ? reason : "the run was cancelled";
}

/** The last lines of a child's output, for a one-line message; a fatal V8 line (heap limit) leads when there is one. */
export function tail(output: string, chars = 600): string {
  const trimmed = output.trim();
  if (trimmed === "") return "(no output)";
  const fatal = /^.*FATAL ERROR:.*$/m.exec(trimmed)?.[0]?.trim();
  const end = trimmed.slice(-chars);
  return fatal === undefined || end.includes(fatal) ? end : `${fatal} … ${end}`;
}

/** Splits a stream into lines without ever buffering more than MAX_REPLY_LINE_BYTES of one line. */
function readLines(stream: Readable, onLine: (line: string) => void, onOverflow: () => void, onEnd: () => void): void {
  let parts: Buffer[] = [];
  let size = 0;
  let overflowed = false;
  stream.on("data", (chunk: Buffer) => {
    if (overflowed) return;
    let start = 0;
    for (let nl = chunk.indexOf(0x0a, start); nl !== -1; nl = chunk.indexOf(0x0a, start)) {
      parts.push(chunk.subarray(start, nl));
      const line = Buffer.concat(parts).toString("utf8");
      parts = [];
      size = 0;
      start = nl + 1;
      if (line.trim() !== "") onLine(line);
    }
    const rest = chunk.subarray(start);
    size += rest.length;
    if (size > MAX_REPLY_LINE_BYTES) {
      overflowed = true;
      parts = [];
      onOverflow();
      return;
    }
    if (rest.length > 0) parts.push(rest);
  });
  stream.on("error", () => {});
  stream.on("end", onEnd);
}

function safeJson(line: string): unknown {
  try {
    return JSON.parse(line) as unknown;
  } catch {
    return null;
  }
}
