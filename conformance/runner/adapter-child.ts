// Adapter child: runs under `node --import tsx`, imports the relay under test and runs jobs read line by line from
// stdin, replying on fd 3 so whatever the relay prints on stdout/stderr can never corrupt the protocol.
import { createWriteStream, readdirSync } from "node:fs";
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";
import {
  AdapterJobSchema,
  RELAY_ENTRY_EXPORT,
  type AbortPlan,
  type AdapterJob,
  type AdapterReply,
  type ErrorSnapshot,
  type ProbeResult,
} from "./protocol.ts";

type Module = Record<string, unknown>;
const modules = new Map<string, Promise<Module>>();
const replies = createWriteStream("", { fd: 3 });

function reply(message: AdapterReply): Promise<void> {
  return new Promise((resolve, reject) => replies.write(`${JSON.stringify(message)}\n`, (error) => (error ? reject(error) : resolve())));
}

function loadRelay(path: string): Promise<Module> {
  let loaded = modules.get(path);
  if (!loaded) {
    loaded = import(pathToFileURL(path).href) as Promise<Module>;
    modules.set(path, loaded);
  }
  return loaded;
}

/** JSON copy of any value; what JSON cannot carry becomes a descriptive string. */
function jsonCopy(value: unknown): unknown {
  if (value === undefined) return "<undefined>";
  try {
    return JSON.parse(JSON.stringify(value, (_k, v: unknown) => (typeof v === "bigint" ? `${v}n` : v))) as unknown;
  } catch (error) {
    return `<unserializable: ${error instanceof Error ? error.message : String(error)}>`;
  }
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

const ERROR_FIELDS = ["kind", "stage", "exitCode", "stderr", "timedOut", "elapsedMs", "timeoutMs", "mutationOutcome"] as const;

function snapshot(thrown: unknown, relayErrorClass: unknown): ErrorSnapshot {
  const isError = thrown instanceof Error;
  const record = (thrown !== null && typeof thrown === "object" ? thrown : {}) as Record<string, unknown>;
  const snap: ErrorSnapshot = {
    name: isError ? thrown.name : typeof thrown,
    message: isError ? thrown.message : String(thrown),
    constructorName: thrown !== null && typeof thrown === "object" ? String((thrown as object).constructor?.name) : typeof thrown,
    isError,
    instanceOfRelayError: typeof relayErrorClass === "function" ? thrown instanceof (relayErrorClass as new () => unknown) : null,
  };
  for (const field of ERROR_FIELDS) if (field in record) snap[field] = jsonCopy(record[field]);
  return snap;
}

/** Aborts the controller per plan; returns a stop function for the watcher. */
function armAbort(plan: AbortPlan | undefined, controller: AbortController): () => void {
  if (plan === undefined) return () => {};
  if (plan.when === "before") {
    controller.abort();
    return () => {};
  }
  const timer = setInterval(() => {
    let names: string[] = [];
    try {
      names = readdirSync(plan.dir);
    } catch {
      return;
    }
    if (names.some((name) => name.startsWith(plan.prefix))) {
      clearInterval(timer);
      controller.abort();
    }
  }, 2);
  return () => clearInterval(timer);
}

async function run(job: AdapterJob, mod: Module): Promise<AdapterReply> {
  const entry = mod[RELAY_ENTRY_EXPORT];
  if (typeof entry !== "function") return { type: "load-error", id: job.id, message: `module does not export a function named ${RELAY_ENTRY_EXPORT}` };
  const wire = job.request ?? { captureArgumentTokens: [] };
  const controller = new AbortController();
  const request: Record<string, unknown> = { ...wire };
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
      calls.push({ ok: true, value: jsonCopy(value) });
    } catch (thrown) {
      calls.push({ ok: false, error: { name: thrown instanceof Error ? thrown.name : typeof thrown, message: thrown instanceof Error ? thrown.message : String(thrown) } });
    }
  }
  return { type: "probe", id: job.id, exports, values, frozen, calls };
}

async function handle(line: string): Promise<void> {
  const job = AdapterJobSchema.parse(JSON.parse(line));
  // The job's environment and cwd become the process's: relay defaults (process.env, process.cwd(), os.tmpdir()) see the case.
  for (const key of Object.keys(process.env)) delete process.env[key];
  Object.assign(process.env, job.processEnv);
  process.chdir(job.cwd);
  let mod: Module;
  try {
    mod = await loadRelay(job.relayModule);
  } catch (error) {
    modules.delete(job.relayModule);
    await reply({ type: "load-error", id: job.id, message: error instanceof Error ? error.message : String(error) });
    return;
  }
  await reply(job.op === "probe" ? await probe(job, mod) : await run(job, mod));
}

const lines = createInterface({ input: process.stdin, crlfDelay: Number.POSITIVE_INFINITY });
for await (const line of lines) {
  if (line.trim() === "") continue;
  await handle(line);
}
// stdin closed: the harness is done with this child; leftover relay timers must not keep it alive.
replies.end(() => process.exit(0));
