// The one host of the relay under test (run, matrix, goldens, record, repro): a Node child running the adapter
// child (process/adapter-child.ts) in its own process group, taking one job at a time on stdin and replying on fd 3.
// Every job has a load-scaled bound; a timeout, a crash, a broken channel or a cancellation kills the child's whole
// tree (its group, its descendants and the processes carrying the job's marker folders) before the job reports.
import type { Readable } from "node:stream";
import { loadScaledTimeout } from "./load-clock.ts";
import { killTree, pidInNamespaceOf } from "./process-tree.ts";
import {
  AdapterReplySchema,
  CHANNEL_CLOSED_EXIT,
  CHANNEL_CLOSED_LINE,
  type AdapterJob,
  type AdapterReply,
} from "./protocol.ts";
import { CONTAINED_ENV, containedCommand, containment, hostExit } from "./containment.ts";
import type { ChildEvidence, HangEvidence, JobOptions, JobOutcome } from "./job-outcome.ts";
import { tail } from "./job-outcome.ts";
import { readLines, safeJson } from "./reply-lines.ts";
import { spawnInGroup, type GroupChild, type GroupSubprocess } from "./spawn-in-group.ts";

export interface RelayHostOptions {
  readonly tsxLoader: string;
  readonly adapterChild: string;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  /** Run the host in a PID namespace of its own where the kernel allows it (process/containment.ts). */
  readonly contain?: boolean;
}

const OUTPUT_TAIL = 16 * 1024;
/** The adapter child's V8 heap cap: a relay that allocates without end dies here, not the machine. */
const HEAP_MB = 2048;

type Settle = (outcome: JobOutcome) => void;
/** The adapter child's census of a job in flight (runner/hang-watch.ts reads it). */
export type Census = Extract<AdapterReply, { type: "census" }>;
let censusIds = 2_000_000_000;

/** One adapter child (its own process group, so a kill takes the relay and everything it launched). */
export class RelayHost {
  readonly #child: GroupSubprocess;
  #output = "";
  #pending: { readonly id: number; readonly settle: Settle; readonly markers: readonly string[] } | null = null;
  #exited = false;
  #ready = false;
  #broken: string | null = null;
  #channelEnded = false;
  readonly #exit: Promise<void>;
  readonly #started: Promise<boolean>;
  readonly #killGroup: () => void;
  /** True when the host runs in a PID namespace of its own: the pids its jobs report are that namespace's. */
  readonly contained: boolean;

  constructor(options: RelayHostOptions) {
    this.contained = options.contain === true && containment() === "pid-namespace";
    const { subprocess, killGroup } = startAdapterChild(options, this.contained);
    this.#child = subprocess;
    this.#killGroup = killGroup;
    this.#child.stdout?.on("data", (chunk: Buffer) => this.#keep(chunk));
    this.#child.stderr?.on("data", (chunk: Buffer) => this.#keep(chunk));
    this.#child.stdin?.on("error", () => {}); // a dead child must surface as "exited", not as an EPIPE crash here
    let markReady: (ok: boolean) => void = () => {};
    this.#started = new Promise((resolve) => (markReady = resolve));
    this.#readChannel(markReady);
    this.#exit = this.#watchExit(markReady);
  }

  /** Keeps the tail of what the child printed on stdout and stderr, interleaved as it arrived. */
  #keep(chunk: Buffer): void {
    this.#output = (this.#output + chunk.toString("utf8")).slice(-OUTPUT_TAIL);
  }

  /** Reads the reply channel (fd 3) line by line; an oversized line or a channel the relay closed breaks it. */
  #readChannel(markReady: (ok: boolean) => void): void {
    readLines(
      this.#child.stdio[3] as unknown as Readable,
      (line) => this.#onLine(line, markReady),
      () => this.#violation("the reply line exceeds the channel's limit (the relay wrote to fd 3)"),
      () => {
        // fd 3 ended while the child lives: only the relay can have closed it. The child goes at once (a dying child
        // closes fd 3 too, but a SIGKILL cannot change the exit status of a process already exiting), and its exit
        // then tells the two apart: killed by us means the relay closed the channel.
        if (this.#exited) return;
        this.#channelEnded = true;
        this.#killGroup();
      },
    );
  }

  /** Resolves once the child is gone; then the job in flight, if any, reports how it died. */
  #watchExit(markReady: (ok: boolean) => void): Promise<void> {
    return new Promise((resolve) => {
      let finished = false;
      let lingering: NodeJS.Timeout | undefined;
      const finish = (code: number | null, signal: NodeJS.Signals | null): void => {
        if (finished) return;
        finished = true;
        clearTimeout(lingering);
        this.#onExit(code, signal, markReady);
        resolve();
      };
      this.#child.on("error", (error) => this.#keep(Buffer.from(`adapter spawn error: ${error.message}\n`)));
      // execa's own result is not used (every stream is read above); its promise never rejects (reject: false).
      void this.#child.then(() => undefined);
      // `close` waits for every stdio stream; `exit` plus a short grace for the output tail is enough.
      this.#child.on("exit", (code, signal) => {
        lingering = setTimeout(() => finish(code, signal), 200);
      });
      this.#child.on("close", (code, signal) => finish(code, signal));
    });
  }

  /** The child is gone: nothing waits on it any more, and a job in flight ends as `exited` or `protocol`. */
  #onExit(code: number | null, signal: NodeJS.Signals | null, markReady: (ok: boolean) => void): void {
    this.#exited = true;
    markReady(false);
    this.#census?.resolve(null);
    this.#census = null;
    // A grandchild that inherited stdout or stderr must not hold the harness's pipes (or `close`) open.
    for (const stream of this.#child.stdio) stream?.destroy();
    const pending = this.#pending;
    this.#pending = null;
    if (!pending) return;
    const exit = this.contained ? hostExit(code, signal) : { code, signal };
    const evidence = { ...exit, output: this.#output };
    const closedChannel =
      (this.#channelEnded && exit.signal === "SIGKILL") ||
      (exit.code === CHANNEL_CLOSED_EXIT && this.#output.includes(CHANNEL_CLOSED_LINE));
    // What the relay launched may outlive the child: its group and marked processes go before the case reports.
    void this.kill(pending.markers).then(() =>
      pending.settle(
        closedChannel
          ? { status: "protocol", detail: "the relay closed the adapter's reply channel (fd 3)", evidence }
          : { status: "exited", evidence },
      ),
    );
  }

  #onLine(line: string, markReady: (ok: boolean) => void): void {
    const parsed = AdapterReplySchema.safeParse(safeJson(line));
    if (parsed.success && parsed.data.type === "ready" && !this.#ready) {
      this.#ready = true;
      markReady(true);
      return;
    }
    if (parsed.success && parsed.data.type === "census" && this.#census?.id === parsed.data.id) {
      const asked = this.#census;
      this.#census = null;
      asked.resolve(parsed.data);
      return;
    }
    const pending = this.#pending;
    if (!parsed.success || pending === null || parsed.data.id !== pending.id) {
      this.#violation(
        `${parsed.success ? "a reply nobody asked for" : "a malformed reply"} on the adapter's channel: ${JSON.stringify(line.slice(0, 200))}`,
      );
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
    void this.kill(pending?.markers ?? []).then(() =>
      pending?.settle({ status: "protocol", detail, evidence: this.#evidence() }),
    );
  }

  #evidence(): ChildEvidence {
    const code = this.#child.exitCode;
    const signal = this.#child.signalCode;
    return { ...(this.contained ? hostExit(code, signal) : { code, signal }), output: this.#output };
  }

  #census: { readonly id: number; readonly resolve: (reply: Census | null) => void } | null = null;

  /**
   * Asks the child, while a job runs, what can still wake the relay (timers, handles) and what its processes are
   * doing; null when no answer came within `withinMs` (a blocked or busy thread) or nothing is in flight.
   */
  census(withinMs = 3000): Promise<Census | null> {
    if (this.#pending === null || this.#census !== null || this.#exited) return Promise.resolve(null);
    const id = (censusIds += 1);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        if (this.#census?.id === id) this.#census = null;
        resolve(null);
      }, withinMs);
      // A question left open when the child dies must not keep the harness alive.
      timer.unref();
      this.#census = {
        id,
        resolve: (reply) => {
          clearTimeout(timer);
          resolve(reply);
        },
      };
      this.#child.stdin?.write(`${JSON.stringify({ id, op: "census", relayModule: "", cwd: "/", processEnv: {} })}\n`);
    });
  }

  /** True while the child can take a job: started, not dead, channel intact, nothing in flight. */
  get usable(): boolean {
    return !this.#exited && this.#broken === null && this.#pending === null;
  }

  get pid(): number | undefined {
    return this.#child.pid;
  }

  /** Our pid of a process a job reported (a contained host reports its namespace's pids); undefined once gone. */
  hostPidOf(pid: number): number | undefined {
    const creator = this.#child.pid;
    if (!this.contained) return pid;
    return creator === undefined ? undefined : pidInNamespaceOf(creator, pid);
  }

  /**
   * Sends one job and waits for its reply, at most `timeoutMs` of load-scaled time (process/load-clock.ts). Never
   * rejects: a timeout, a dead child, a broken channel or a cancelled run kill the child's whole tree first and then
   * report it. A child that does not come up (no `ready` line) is the harness's fault.
   */
  run(job: AdapterJob, options: JobOptions): Promise<JobOutcome> {
    const markers = options.markers ?? [];
    const refused = this.#refusal(options);
    if (refused !== undefined) return Promise.resolve(refused);
    return new Promise<JobOutcome>((resolve) => {
      let done = false;
      const finish = (outcome: JobOutcome): void => {
        if (done) return;
        done = true;
        timer.cancel();
        options.hangWatch?.end();
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
            ? this.#timeout(options, wallMs)
            : {
                status: "harness",
                detail: `the adapter child did not come up within ${options.timeoutMs}ms: ${tail(this.#output)}`,
              },
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
          finish({
            status: "harness",
            detail: `the adapter child did not start: exit ${e.code ?? "null"} signal ${e.signal ?? "null"}: ${tail(e.output)}`,
          });
          return;
        }
        this.#output = "";
        this.#child.stdin?.write(`${JSON.stringify(markers.length > 0 ? { ...job, markers } : job)}\n`);
        const startedAt = performance.now();
        // A relay that can no longer settle before its bound is decided now, as the bound would decide it.
        options.hangWatch?.begin(this, options.timeoutMs, () =>
          giveUp(() => this.#timeout(options, Math.round(performance.now() - startedAt))),
        );
      });
    });
  }

  /** Why a job cannot be sent at all: one in flight, a broken channel, a run already cancelled. */
  #refusal(options: JobOptions): JobOutcome | undefined {
    if (this.#pending)
      return {
        status: "harness",
        detail: `adapter worker is busy with job ${this.#pending.id} (harness fault: two cases on one lane)`,
      };
    if (this.#broken !== null)
      return {
        status: "harness",
        detail: `adapter worker reused after its channel broke (${this.#broken})`,
      };
    if (options.signal?.aborted) return { status: "harness", detail: cancelled(options.signal) };
    return undefined;
  }

  /** A job past its bound (or decided by the hang watch): the child's evidence and the watch's findings. */
  #timeout(options: JobOptions, wallMs: number): JobOutcome {
    return {
      status: "timeout",
      timeoutMs: options.timeoutMs,
      wallMs,
      evidence: this.#evidence(),
      ...hangOf(options),
    };
  }

  /** Kills the child's process group, its descendants and every process carrying a marker; waits for the reap. */
  async kill(markers: readonly string[] = []): Promise<void> {
    const pid = this.#child.pid;
    if (pid !== undefined) await killTree({ groups: [pid], roots: this.#exited ? [] : [pid], markers });
    await this.#exit;
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

/**
 * Starts the adapter child: node with a capped heap, in its own process group, contained where asked and allowed.
 * fd 3 is an extra execa pipe; nothing is buffered by execa (buffer: false): the host reads every stream itself.
 */
function startAdapterChild(options: RelayHostOptions, contained: boolean): GroupChild {
  // The built adapter child runs as is and loads TypeScript itself (process/load-module.ts); its source needs tsx.
  const loader = options.adapterChild.endsWith(".ts") ? ["--import", options.tsxLoader] : [];
  const argv = [`--max-old-space-size=${HEAP_MB}`, ...loader, options.adapterChild];
  const command = contained ? containedCommand(process.execPath, argv) : { file: process.execPath, args: argv };
  return spawnInGroup(command.file, command.args, {
    cwd: options.cwd,
    env: contained ? { ...options.env, [CONTAINED_ENV]: "pid-namespace" } : options.env,
    stdio: ["pipe", "pipe", "pipe", "pipe"],
    buffer: false,
  });
}

/** The hang watch's evidence for a timeout outcome, when there is a watch and it saw anything. */
function hangOf(options: JobOptions): { hang?: HangEvidence } {
  const hang = options.hangWatch?.evidence();
  return hang ? { hang } : {};
}

function cancelled(signal: AbortSignal | undefined): string {
  const reason: unknown = signal?.reason;
  return reason instanceof Error ? reason.message : typeof reason === "string" ? reason : "the run was cancelled";
}
