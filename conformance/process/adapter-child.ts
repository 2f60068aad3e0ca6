// Adapter child: runs in a relay host (process/relay-host.ts), loads the relay under test (process/load-module.ts) and
// runs jobs read line by line from stdin, replying on fd 3 so whatever the relay prints on stdout/stderr can never
// corrupt the protocol.
// Everything a relay may change in this process and a later case would see is reset before each job (environment,
// cwd, umask) or reported after it (handles and timers it left running), and the harness replaces a child that
// reports leftovers. Nothing the relay throws or returns can crash the child: every value is inspected defensively.
import { getEventListeners } from "node:events";
import { createWriteStream, fstatSync, readdirSync } from "node:fs";
import { createInterface } from "node:readline";
import { CONTAINED_ENV } from "./containment.ts";
import { loadHostedModule } from "./load-module.ts";
import { installTimerCensus, timerCensus } from "./timer-census.ts";
import { snapshotProcesses, type ProcessSnapshot } from "./process-census.ts";
import { killTree, processTable, selectProcesses } from "./process-tree.ts";
import { switchMutant } from "./mutant-switch.ts";
import {
  AdapterJobSchema,
  CHANNEL_CLOSED_EXIT,
  CHANNEL_CLOSED_LINE,
  MAX_CARRIED_JSON_CHARS,
  RELAY_ENTRY_EXPORT,
  SIGNAL_LISTENER,
  type AbortPlan,
  type AdapterJob,
  type AdapterReply,
  type ErrorSnapshot,
  type ProbeResult,
} from "./protocol.ts";

type Module = Record<string, unknown>;
const modules = new Map<string, Promise<Module>>();
const replies = createWriteStream("", { fd: 3 });
// A relay that closes fd 3 breaks the channel: the harness sees it end and kills us; a write failing meanwhile (a
// census answer) must not turn that into a crash of our own.
replies.on("error", () => undefined);
// The umask the harness started us with: a relay that changes it must not change the next case's file modes.
const UMASK = process.umask();
// In a PID namespace of our own (process/containment.ts), /proc lists exactly the processes this child and the relays
// it ran started, plus the namespace's init (PID 1). Read before any job replaces process.env.
const CONTAINED = process.env[CONTAINED_ENV] === "pid-namespace";
// The harness's own abort watcher is not the relay's timer: armed with Node's setInterval, counted apart.
const harnessInterval = globalThis.setInterval;
let abortWatch: { readonly due: () => boolean } | null = null;
/** How many abort listeners the last run left on its request's signal. */
let signalListenersLeft = 0;

installTimerCensus();

// The channel as we got it. A relay that closes fd 3 may not end the harness's pipe (a contained host's init and
// `unshare` hold it too), and the number may be reused by its next open: every reply first checks it is still ours.
const CHANNEL = fstatSync(3);

function reply(message: AdapterReply): Promise<void> {
  let now: ReturnType<typeof fstatSync> | null = null;
  try {
    now = fstatSync(3);
  } catch {
    // closed
  }
  if (now === null || now.ino !== CHANNEL.ino || now.dev !== CHANNEL.dev) {
    process.stderr.write(`${CHANNEL_CLOSED_LINE}\n`, () => process.exit(CHANNEL_CLOSED_EXIT));
    return new Promise(() => undefined);
  }
  return new Promise((resolve, reject) =>
    replies.write(`${JSON.stringify(message)}\n`, (error) => (error ? reject(error) : resolve())),
  );
}

function loadRelay(path: string): Promise<Module> {
  let loaded = modules.get(path);
  if (!loaded) {
    loaded = loadHostedModule(path);
    modules.set(path, loaded);
  }
  return loaded;
}

/** A description of a value that cannot be looked at (a throwing getter or proxy trap). */
function describeFailure(error: unknown): string {
  try {
    return error instanceof Error ? error.message : String(error);
  } catch {
    return "uninspectable";
  }
}

/**
 * JSON copy of any value; what JSON cannot carry, or too much of it, becomes a descriptive string. `keepUndefined`
 * carries an own property (or element) set to undefined as "<undefined>" instead of dropping it: a probe's caller can
 * tell `{ lens: undefined }` (a key present) from `{}`.
 */
function jsonCopy(value: unknown, keepUndefined = false): unknown {
  if (value === undefined) return "<undefined>";
  let text: string | undefined;
  try {
    text = JSON.stringify(value, (_k, v: unknown) =>
      typeof v === "bigint" ? `${v}n` : keepUndefined && v === undefined ? "<undefined>" : v,
    );
  } catch (error) {
    return `<unserializable: ${describeFailure(error)}>`;
  }
  if (text === undefined) return `<${typeof value}>`;
  if (text.length > MAX_CARRIED_JSON_CHARS) return `<too large to carry: ${text.length} characters of JSON>`;
  return JSON.parse(text) as unknown;
}

/** Numbers JSON cannot carry travel as {"$number": "NaN" | "Infinity" | "-Infinity"}. */
function revive(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(revive);
  if (value !== null && typeof value === "object") {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record);
    if (keys.length === 1 && keys[0] === "$number" && typeof record.$number === "string") return Number(record.$number);
    return Object.fromEntries(keys.map((k) => [k, revive(record[k])]));
  }
  return value;
}

const ERROR_FIELDS = [
  "kind",
  "stage",
  "exitCode",
  "stderr",
  "timedOut",
  "elapsedMs",
  "timeoutMs",
  "mutationOutcome",
] as const;

/** Reads one fact about a thrown value; a getter or proxy trap that throws yields the fallback. */
function inspect<T>(read: () => T, fallback: T): T {
  try {
    return read();
  } catch {
    return fallback;
  }
}

function snapshot(thrown: unknown, relayErrorClass: unknown): ErrorSnapshot {
  const isError = inspect(() => thrown instanceof Error, false);
  const isObject = thrown !== null && (typeof thrown === "object" || typeof thrown === "function");
  const snap: ErrorSnapshot = {
    name: isError ? inspect(() => String((thrown as Error).name), "<uninspectable>") : typeof thrown,
    message: isError
      ? inspect(() => String((thrown as Error).message), "<uninspectable>")
      : inspect(() => String(thrown), "<uninspectable>"),
    constructorName: isObject
      ? inspect(() => String((thrown as object).constructor?.name), "<uninspectable>")
      : typeof thrown,
    isError,
    instanceOfRelayError:
      typeof relayErrorClass === "function"
        ? inspect(() => thrown instanceof (relayErrorClass as new () => unknown), false)
        : null,
  };
  if (isObject) {
    const record = thrown as Record<string, unknown>;
    for (const field of ERROR_FIELDS) {
      if (inspect(() => field in record, false))
        snap[field] = inspect(() => jsonCopy(record[field]), "<uninspectable>");
    }
  }
  return snap;
}

/** True once an entry named with the prefix exists in the folder. */
function entryIn(dir: string, prefix: string): boolean {
  try {
    return readdirSync(dir).some((name) => name.startsWith(prefix));
  } catch {
    return false;
  }
}

/** Child processes this process has running (their handles; one per spawned child not yet exited). */
const childProcesses = (): number => process.getActiveResourcesInfo().filter((name) => name === "ProcessWrap").length;

/** When a `child-running` plan is due: its entry seen (if it names one), then a child beyond those before it. */
function childRunning(plan: Extract<AbortPlan, { when: "child-running" }>): () => boolean {
  const before = childProcesses();
  let entrySeen = plan.dir === undefined || plan.prefix === undefined;
  return () => {
    entrySeen ||= entryIn(plan.dir ?? "", plan.prefix ?? "");
    return entrySeen && childProcesses() > before;
  };
}

/** Aborts the controller per plan; returns a stop function for the watcher. */
function armAbort(plan: AbortPlan | undefined, controller: AbortController): () => void {
  if (plan === undefined || plan.when === "never") return () => {};
  if (plan.when === "before") {
    controller.abort();
    return () => {};
  }
  const appeared = plan.when === "child-running" ? childRunning(plan) : () => entryIn(plan.dir, plan.prefix);
  const timer = harnessInterval(() => {
    if (!appeared()) return;
    clearInterval(timer);
    abortWatch = null;
    controller.abort();
  }, 2);
  // Until its entry appears (which takes the relay), the watcher cannot act: the census says when it is about to.
  abortWatch = { due: appeared };
  return () => {
    clearInterval(timer);
    abortWatch = null;
  };
}

async function run(job: AdapterJob, mod: Module): Promise<AdapterReply> {
  const entry = mod[RELAY_ENTRY_EXPORT];
  if (typeof entry !== "function")
    return { type: "load-error", id: job.id, message: `module does not export a function named ${RELAY_ENTRY_EXPORT}` };
  const { raw, ...wire } = job.request ?? { captureArgumentTokens: [] };
  const controller = new AbortController();
  const request: Record<string, unknown> = { ...wire, ...raw };
  if (wire.submission !== undefined) request.submission = revive(wire.submission);
  if (job.abort !== undefined) request.signal = controller.signal;
  const stop = armAbort(job.abort, controller);
  try {
    const value: unknown = await (entry as (r: unknown) => Promise<unknown>)(request);
    return { type: "result", id: job.id, value: jsonCopy(value) };
  } catch (thrown) {
    return { type: "error", id: job.id, error: snapshot(thrown, mod.ReviewHostRelayError) };
  } finally {
    stop();
    // A listener the relay left on the caller's signal outlives the call (and may act on a later abort).
    signalListenersLeft = getEventListeners(controller.signal, "abort").length;
  }
}

async function probe(job: AdapterJob, mod: Module): Promise<AdapterReply> {
  const exports: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const frozen: Record<string, boolean> = {};
  for (const [name, value] of Object.entries(mod)) {
    exports[name] = typeof value;
    if (typeof value !== "function") values[name] = jsonCopy(value);
    if (value !== null && typeof value === "object") frozen[name] = Object.isFrozen(value);
  }
  const calls: ProbeResult[] = [];
  for (const call of job.calls ?? []) {
    const fn = mod[call.fn];
    if (typeof fn !== "function") {
      calls.push({ ok: false, error: { name: "MissingExport", message: `no exported function ${call.fn}` } });
      continue;
    }
    try {
      const value: unknown = await (fn as (...a: unknown[]) => unknown)(...(revive(call.args) as unknown[]));
      calls.push({ ok: true, value: jsonCopy(value, true) });
    } catch (thrown) {
      const snap = snapshot(thrown, undefined);
      calls.push({ ok: false, error: { name: snap.isError ? snap.name : typeof thrown, message: snap.message } });
    }
  }
  return { type: "probe", id: job.id, exports, values, frozen, calls };
}

/** Runs a harness task (the child is one-shot for tasks: nothing is checked for leftovers). */
async function task(job: AdapterJob): Promise<AdapterReply> {
  const spec = job.task;
  if (spec === undefined) return { type: "load-error", id: job.id, message: "a task job without a task" };
  try {
    const mod = await loadHostedModule(spec.module);
    const fn = mod[spec.export];
    if (typeof fn !== "function")
      return { type: "load-error", id: job.id, message: `${spec.module} exports no function ${spec.export}` };
    return { type: "result", id: job.id, value: jsonCopy(await (fn as (input: unknown) => unknown)(spec.input)) };
  } catch (thrown) {
    return { type: "error", id: job.id, error: snapshot(thrown, undefined) };
  }
}

/** Ref'd handles and timers, as a multiset of their type names. */
function resources(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const name of process.getActiveResourcesInfo()) counts.set(name, (counts.get(name) ?? 0) + 1);
  return counts;
}

/** What `after` holds beyond `before` (one entry per extra handle). */
function beyond(before: Map<string, number>, after: Map<string, number>): string[] {
  const extra: string[] = [];
  for (const [name, n] of after) for (let i = before.get(name) ?? 0; i < n; i++) extra.push(name);
  return extra.sort();
}

/**
 * What the job left running, once handles already closing have closed: a child process's handle and pipes close a
 * few loop turns after its `close` event, so a clean relay is only judged after up to ~100 ms of quiet.
 */
async function leftAfter(before: Map<string, number>): Promise<string[]> {
  let left = beyond(before, resources());
  for (let round = 0; left.length > 0 && round < 15; round++) {
    await new Promise((resolve) => (round < 5 ? setImmediate(resolve) : setTimeout(resolve, 10)));
    left = beyond(before, resources());
  }
  return left;
}

async function handle(line: string): Promise<void> {
  const job = AdapterJobSchema.parse(JSON.parse(line));
  inFlight = job;
  // The job's environment, cwd and umask become the process's: relay defaults (process.env, process.cwd(),
  // os.tmpdir()) see the case, and nothing a previous job changed survives into this one.
  for (const key of Object.keys(process.env)) delete process.env[key];
  Object.assign(process.env, job.processEnv);
  process.chdir(job.cwd);
  process.umask(UMASK);
  if (job.op === "task") {
    await reply(await task(job));
    return;
  }
  // A load job's mutant is active while the module loads (a mutant in load-time code needs a fresh child).
  const switched = switchMutant(job);
  let mod: Module;
  try {
    mod = await loadRelay(job.relayModule);
  } catch (error) {
    modules.delete(job.relayModule);
    await reply({ type: "load-error", id: job.id, message: describeFailure(error) });
    return;
  }
  if (job.op === "load") {
    switched();
    await reply({ type: "loaded", id: job.id });
    return;
  }
  const before = resources();
  baseline = before;
  signalListenersLeft = 0;
  const answer = job.op === "probe" ? await probe(job, mod) : await run(job, mod);
  const covered = switched();
  const left = [...(await leftAfter(before)), ...new Array<string>(signalListenersLeft).fill(SIGNAL_LISTENER)];
  const reported = answer.type === "result" || answer.type === "error" || answer.type === "probe";
  const withLeft = reported
    ? { ...answer, ...(left.length > 0 ? { leftovers: left } : {}), ...(covered ? { covered } : {}) }
    : answer;
  if (job.op !== "run" || (withLeft.type !== "result" && withLeft.type !== "error")) {
    await reply(withLeft);
    return;
  }
  // Whatever the relay left running is reported with its argv, then killed: the next case must not meet it.
  const running = processesOfJob(job);
  if (running.length > 0) await killTree({ roots: running.map((p) => p.pid), markers: job.markers ?? [] });
  await reply(running.length > 0 ? { ...withLeft, processes: running } : withLeft);
}

/**
 * The processes of the job in flight: contained, every process of the namespace but its init and this child;
 * otherwise this child's descendants and the processes carrying the job's folders (what a fully detached process
 * with a clean environment and cwd / escapes).
 */
function processesOfJob(job: AdapterJob | undefined): ProcessSnapshot[] {
  const pids = CONTAINED
    ? readdirSync("/proc")
        .filter((n) => /^\d+$/.test(n))
        .map(Number)
        .filter((pid) => pid !== 1)
    : selectProcesses(processTable(), { roots: [process.pid], markers: job?.markers ?? [] }).map((p) => p.pid);
  return snapshotProcesses(pids.filter((pid) => pid !== process.pid)).filter((p) => !harnessOwn(p));
}

/** tsx's esbuild service, which this child starts for its own module loading, is not the relay's. */
function harnessOwn(p: ProcessSnapshot): boolean {
  return p.argv.some((a) => a.startsWith("--service=")) && /esbuild/.test(p.argv[0] ?? "");
}

/** Resources (handles, requests) the job in flight added, and its census of timers and processes. */
function census(id: number): AdapterReply {
  const extra = beyond(baseline, resources());
  const timeouts = extra.filter((name) => name === "Timeout").length - (abortWatch === null ? 0 : 1);
  const timers = timerCensus(timeouts);
  return {
    type: "census",
    id,
    job: inFlight?.id ?? null,
    nextTimerMs: timers.nextDueMs,
    untrackedTimers: timers.untracked,
    resources: [
      ...extra.filter((name) => name !== "Timeout"),
      ...(abortWatch?.due() ? ["the harness's abort, about to fire"] : []),
    ],
    processes: inFlight === undefined ? [] : processesOfJob(inFlight),
  };
}

// The harness holds our stdin open for as long as it wants us. Closed while a job runs, the harness went away mid-job
// (a SIGKILL it cannot trap closes it too): nobody is left to end the job at its bound, so the child ends what the
// job started (its descendants and the processes carrying the job's folders) and goes.
// Contained, our exit is enough: the namespace's init exits with us and the kernel kills everything in it.
let inFlight: AdapterJob | undefined;
let baseline = new Map<string, number>();
process.stdin.once("end", () => {
  if (inFlight === undefined) return;
  if (CONTAINED) process.exit(1);
  void killTree({ roots: [process.pid], markers: inFlight.markers ?? [] }).finally(() => process.exit(1));
});

await reply({ type: "ready", id: 0 });
// Jobs run one at a time, in order; a census is answered at once, between the turns of the job in flight.
let queue: Promise<void> = Promise.resolve();
const lines = createInterface({ input: process.stdin, crlfDelay: Number.POSITIVE_INFINITY });
lines.on("line", (line) => {
  if (line.trim() === "") return;
  const asked = /"op":"census"/.test(line) ? AdapterJobSchema.safeParse(JSON.parse(line)) : null;
  if (asked?.success && asked.data.op === "census") {
    reply(census(asked.data.id)).catch(() => undefined);
    return;
  }
  queue = queue.then(async () => {
    await handle(line);
    inFlight = undefined;
  });
});
lines.once("close", () => {
  // stdin closed: the harness is done with this child; leftover relay timers must not keep it alive.
  void queue.then(() => replies.end(() => process.exit(0)));
});
