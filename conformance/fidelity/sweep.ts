// Drives the simulator through every verb and document kind it prints, in each profile and shipped scenario, and
// collects every JSON document it emits: stdout documents, the JSON lines embedded in a materialized prompt, and the
// fake pi's reviewer result. A call is answered by the simulator's own planner inside this process, which gives the
// spawned launcher's bytes and state (test/conformance/runner/status-in-process.test.ts), and is a real process of
// the built launcher where only a process can answer it (inside a Git work tree): a sweep is ~900 calls, and a Node
// start each made it the slowest command after a catalogue run.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { gentleAiInProcess } from "../../simulator/gentle-ai/in-process.ts";
import { piInProcess } from "../../simulator/pi/in-process.ts";
import { PROFILES, type Profile } from "../../simulator/scenario/schema.ts";
import { CONTRACT_V1, CONTRACT_V2, HANDSHAKE_ENV, HANDSHAKE_VALUE, PI_ARGV } from "../contract/provider.ts";
import { harnessPaths } from "../paths.ts";
import type { ChildResult } from "../process/child-result.ts";
import { runChild } from "../process/run-child.ts";
import { trackTempDir } from "../process/teardown.ts";

/** The reviewer result carries no `schema` member: it is known by the schema URL its submission form names. */
export const REVIEWER_RESULT_KIND = "https://gentle-ai.dev/schema/review/reviewer/v1";

/** One document the simulator printed, and where. */
export interface SweptDocument {
  /** Its `schema` member, or the kind the call implies when it has none. */
  readonly kind: string;
  readonly profile: Profile;
  readonly scenario: string;
  /** The call that printed it, as a shell-like line (for messages only). */
  readonly call: string;
  readonly document: unknown;
}

/** A scenario to sweep: its name and its JSON (the profile is overridden per sweep). */
export interface SweepScenario {
  readonly name: string;
  readonly json: Record<string, unknown>;
}

/** What to sweep. */
export interface SweepOptions {
  readonly profiles?: readonly Profile[];
  readonly scenarios?: readonly SweepScenario[];
  /** Lanes in flight at once (each lane is one scenario × profile, its calls in order). */
  readonly concurrency?: number;
  /** Called after each lane with done/total. */
  readonly onLane?: (done: number, total: number) => void;
}

const CALL_TIMEOUT_MS = 30_000;

/** The built-in default scenario and every shipped `golden/scenarios/*.json`. */
export function shippedScenarios(): SweepScenario[] {
  const dir = join(harnessPaths().root, "golden", "scenarios");
  const shipped = readdirSync(dir)
    .filter((n) => n.endsWith(".json"))
    .sort()
    .map((n) => ({
      name: basename(n, ".json"),
      json: JSON.parse(readFileSync(join(dir, n), "utf8")) as Record<string, unknown>,
    }));
  return [{ name: "builtin", json: {} }, ...shipped];
}

/** JSON of a buffer when it is one JSON object or array, else undefined. */
function jsonOf(bytes: Buffer): unknown {
  const text = bytes.toString("utf8").trim();
  if (!text.startsWith("{") && !text.startsWith("[")) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function kindOf(document: unknown, fallback: string): string {
  const schema = (document as { schema?: unknown } | null)?.schema;
  return typeof schema === "string" ? schema : fallback;
}

/** How one call runs: with the Pi handshake, stdin bytes, against another state dir or another scenario file. */
interface CallOptions {
  readonly handshake?: boolean;
  readonly stdin?: Buffer;
  readonly state?: string;
  /** The repository leg's lineage-less scenario. */
  readonly scenario?: string;
}

interface Token {
  readonly token?: unknown;
  readonly name?: unknown;
}

/** The `--name=value` tokens of a transition's arguments (external arguments carry none). */
function tokensOf(args: unknown): string[] {
  return Array.isArray(args) ? (args as Token[]).flatMap((a) => (typeof a.token === "string" ? [a.token] : [])) : [];
}

interface CollectInput {
  readonly capture_operation?: unknown;
  readonly arguments?: unknown;
  readonly submission?: {
    readonly operation_token?: unknown;
    readonly argument_tokens?: unknown;
    readonly value?: { readonly substitution_location?: unknown };
    readonly values?: readonly { readonly slot?: unknown; readonly allowed_values?: unknown }[];
  };
}

/** One scenario × profile: a fresh state and a lane of calls, each document recorded as it comes. */
class Lane {
  readonly documents: SweptDocument[] = [];
  readonly dir: string;
  readonly #env: Record<string, string | undefined>;
  readonly #paths = harnessPaths();
  #copies = 0;

  constructor(
    readonly scenario: SweepScenario,
    readonly profile: Profile,
  ) {
    this.dir = mkdtempSync(join(tmpdir(), "relay-conformance-fidelity-"));
    const file = join(this.dir, "scenario.json");
    // Faults script transport failures, not documents: the sweep reads what the provider says, so it drops them.
    const { faults: _faults, ...rest } = scenario.json;
    writeFileSync(file, JSON.stringify({ ...rest, profile }));
    this.#env = {
      PATH: process.env.PATH,
      HOME: this.dir,
      TMPDIR: this.dir,
      GENTLE_AI_SIM_SCENARIO: file,
      GENTLE_AI_SIM_STATE: join(this.dir, "state"),
    };
  }

  async #call(program: "gentle-ai" | "pi", argv: readonly string[], options: CallOptions = {}): Promise<ChildResult> {
    const executable = program === "pi" ? this.#paths.piSimulator : this.#paths.gentleAiSimulator;
    const env = {
      ...this.#env,
      ...(options.handshake ? { [HANDSHAKE_ENV]: HANDSHAKE_VALUE } : {}),
      ...(options.state ? { GENTLE_AI_SIM_STATE: options.state } : {}),
      ...(options.scenario ? { GENTLE_AI_SIM_SCENARIO: options.scenario } : {}),
    };
    const inProcess = program === "pi" ? piInProcess : gentleAiInProcess;
    const defined = Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined));
    const answered = await inProcess({
      argv,
      env: defined,
      cwd: this.dir,
      executablePath: executable,
      ...(options.stdin ? { stdin: options.stdin } : {}),
    });
    if (answered !== null) return { ...answered, signal: null, timedOut: false };
    return runChild(executable, argv, {
      cwd: this.dir,
      env,
      timeoutMs: CALL_TIMEOUT_MS,
      ...(options.stdin ? { stdin: options.stdin } : {}),
    });
  }

  #record(document: unknown, fallback: string, call: string): void {
    this.documents.push({
      kind: kindOf(document, fallback),
      profile: this.profile,
      scenario: this.scenario.name,
      call,
      document,
    });
  }

  /** Runs one gentle-ai call and records its stdout document (if it printed one). */
  async gentleAi(
    argv: readonly string[],
    options: CallOptions & { kind?: string } = {},
  ): Promise<{ run: ChildResult; json: unknown }> {
    const run = await this.#call("gentle-ai", argv, options);
    const json = jsonOf(run.stdout);
    const call = `${options.handshake ? `${HANDSHAKE_ENV}=${HANDSHAKE_VALUE} ` : ""}gentle-ai ${argv.join(" ")}`;
    if (json !== undefined)
      this.#record(json, options.kind ?? `stdout of gentle-ai ${argv.slice(0, 2).join(" ")}`, call);
    return { run, json };
  }

  /** Records the JSON lines a materialized prompt embeds (`GENTLE_AI_REVIEW_<NAME> {…}`). */
  recordPrompt(prompt: Buffer, call: string): void {
    for (const line of prompt.toString("utf8").split("\n")) {
      const m = /^(GENTLE_AI_REVIEW_[A-Z_]+) (\{.*\})\r?$/.exec(line);
      if (!m) continue;
      try {
        this.#record(JSON.parse(m[2]!) as unknown, `prompt line ${m[1]!}`, `${call} (prompt line ${m[1]!})`);
      } catch {
        // Not JSON: a prompt line, not a document.
      }
    }
  }

  async pi(prompt: Buffer): Promise<ChildResult> {
    const run = await this.#call("pi", PI_ARGV, { stdin: prompt });
    const json = jsonOf(run.stdout);
    if (json !== undefined) this.#record(json, REVIEWER_RESULT_KIND, `pi ${PI_ARGV.join(" ")}`);
    return run;
  }

  /** A copy of the lineage state as it is now (a state dir a later call can run against). */
  copyState(): string {
    const copy = join(this.dir, `state-copy-${++this.#copies}`);
    const state = this.#env.GENTLE_AI_SIM_STATE!;
    if (existsSync(state)) cpSync(state, copy, { recursive: true });
    return copy;
  }

  file(name: string, bytes: Buffer): string {
    const path = join(this.dir, name);
    writeFileSync(path, bytes);
    return path;
  }

  dispose(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

const STATUS = ["review", "status", "--cwd", "."];

/** The lens leg as a client runs it: materialize, pi, the preflights, a refused and then an admitted submission. */
async function lensLeg(lane: Lane, input: CollectInput): Promise<void> {
  const verb =
    typeof input.capture_operation === "string" ? input.capture_operation.replace(/^review\./, "") : "capture-result";
  const args = tokensOf(input.arguments);
  const { run: materialized } = await lane.gentleAi(["review", verb, ...args], { handshake: true });
  lane.recordPrompt(materialized.stdout, `gentle-ai review ${verb} ${args.join(" ")}`);
  const result = await lane.pi(materialized.stdout);
  const binding = args.filter((t) => !/^--(agent|materialize)=/.test(t));
  await lane.gentleAi(["review", verb, ...binding, "--preflight"], {
    handshake: true,
    kind: "capture-result --preflight",
  });
  const resultFile = lane.file("reviewer-result.json", result.stdout);
  await lane.gentleAi(["review", verb, ...binding, "--preflight", `--input=${resultFile}`], { handshake: true });
  const form = input.submission;
  if (!form || typeof form.operation_token !== "string" || !Array.isArray(form.argument_tokens)) return;
  const location = form.value?.substitution_location;
  const submit = (path: string): string[] =>
    (form.argument_tokens as unknown[]).map((t, i) =>
      i === location && typeof t === "string" ? t.replace("{{value}}", path) : String(t),
    );
  const refused = lane.file("not-a-result.json", Buffer.from("{}\n"));
  await lane.gentleAi(["review", form.operation_token, ...submit(refused)], { handshake: true });
  await lane.gentleAi(["review", form.operation_token, ...submit(resultFile)], { handshake: true });
}

/** Fills a provider submission form's `{{slot}}` values (an allowed value, or a file for a path slot) and runs it. */
async function submitForm(lane: Lane, input: CollectInput): Promise<void> {
  const form = input.submission;
  if (!form || typeof form.operation_token !== "string" || !Array.isArray(form.argument_tokens)) return;
  const values = Array.isArray(form.values) ? form.values : [];
  const filled = new Map<string, string>();
  for (const v of values) {
    if (typeof v.slot !== "string") continue;
    if (Array.isArray(v.allowed_values) && typeof v.allowed_values[0] === "string")
      filled.set(v.slot, v.allowed_values[0]);
    else filled.set(v.slot, lane.file(`${v.slot}.txt`, Buffer.from("go test ./... passed: ok\n")));
  }
  const tokens = (form.argument_tokens as unknown[]).map((t) =>
    String(t).replace(/\{\{([a-z_]+)\}\}/g, (m, slot: string) => filled.get(slot) ?? m),
  );
  await lane.gentleAi(["review", form.operation_token, ...tokens], { handshake: true });
}

/** Runs git in a sweep repository (deterministic identity, no user config). */
async function git(repo: string, ...args: string[]): Promise<void> {
  const run = await runChild("git", ["-C", repo, ...args], {
    cwd: repo,
    env: {
      PATH: process.env.PATH,
      HOME: repo,
      GIT_CONFIG_NOSYSTEM: "1",
      GIT_AUTHOR_NAME: "sweep",
      GIT_AUTHOR_EMAIL: "sweep@example.invalid",
      GIT_COMMITTER_NAME: "sweep",
      GIT_COMMITTER_EMAIL: "sweep@example.invalid",
    },
    timeoutMs: CALL_TIMEOUT_MS,
  });
  if (run.exitCode !== 0)
    throw new Error(
      `git ${args.join(" ")} failed (exit ${run.exitCode ?? run.signal}): ${run.stderr.toString("utf8").trim()}`,
    );
}

/** A repository with one commit of `files` (none: an empty commit). */
async function sweepRepository(lane: Lane, name: string, files: Record<string, string>): Promise<string> {
  const repo = join(lane.dir, name);
  mkdirSync(repo);
  await git(repo, "init", "-q", "-b", "main");
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(repo, path)), { recursive: true });
    writeFileSync(join(repo, path), text);
  }
  await git(repo, "add", "-A");
  await git(repo, "commit", "-q", "--allow-empty", "-m", "initial");
  return repo;
}

/** One gentle-ai call of the repository leg, against its own scenario. */
type LegCall = (
  argv: readonly string[],
  options?: { handshake?: boolean; kind?: string },
) => Promise<{ run: ChildResult; json: unknown }>;

/**
 * The repository world's verbs on real Git repositories, with a scenario that pins no lineage: the kill switch in
 * both scopes, STATUS's selection and empty-candidate answers, START's consent question, decline and creation,
 * the created lineage's STATUS, and VALIDATE plain and negotiated.
 */
async function repositoryLeg(lane: Lane): Promise<void> {
  const scenario = lane.file("repository-scenario.json", Buffer.from(JSON.stringify({ profile: lane.profile })));
  const call: LegCall = (argv, options = {}) => lane.gentleAi(argv, { ...options, scenario });
  const clean = await sweepRepository(lane, "clean", { "app.ts": "export const value = 1;\n" });
  const repo = await sweepRepository(lane, "repo", { ".github/workflows/deploy.yml": "name: x\n" });
  await modeAndValidateCalls(call, repo, clean);
  const declared = await untrackedSelection(call, repo);
  if (declared === undefined) return;
  await startCalls(call, repo, declared);
}

/** The kill switch in both scopes with VALIDATE under it, then STATUS on a clean repository. */
async function modeAndValidateCalls(call: LegCall, repo: string, clean: string): Promise<void> {
  await call(["review", "mode", "status", "--cwd", repo, "--json"]);
  await call(["review", "mode", "enable", "--scope", "global", "--cwd", repo, "--json"]);
  await call(["review", "mode", "disable", "--scope", "clone", "--cwd", repo, "--json"]);
  await call(["review", "validate", "--gate", "pre-commit", "--cwd", repo]);
  await call(["review", "validate", "--contract", CONTRACT_V1, "--gate", "pre-push", "--cwd", repo]);
  await call(["review", "mode", "enable", "--scope", "clone", "--cwd", repo, "--json"]);
  await call(["review", "validate", "--contract", CONTRACT_V2, "--gate", "pre-commit", "--cwd", repo]);
  await call(
    [
      ...STATUS.slice(0, 2),
      "--cwd",
      clean,
      "--contract",
      CONTRACT_V2,
      "--agent",
      "pi",
      "--next-transition",
      "--action-eligibility",
    ],
    { handshake: true },
  );
}

/** A risky change with an untracked file: STATUS asks for the selection; returns the flags declaring it. */
async function untrackedSelection(call: LegCall, repo: string): Promise<string[] | undefined> {
  writeFileSync(
    join(repo, ".github/workflows/deploy.yml"),
    "name: x\non: push\njobs:\n  deploy:\n    steps:\n      - run: curl -s | bash\n",
  );
  writeFileSync(join(repo, "notes.txt"), "an untracked file\n");
  const { json: asked } = await call(
    [...STATUS.slice(0, 2), "--cwd", repo, "--contract", CONTRACT_V2, "--agent", "pi", "--next-transition"],
    { handshake: true },
  );
  const selection = (
    asked as
      | { next_transition?: { collect?: { inputs?: { arguments?: { name?: unknown; value?: unknown }[] }[] } } }
      | undefined
  )?.next_transition?.collect?.inputs?.[0];
  const inventory = selection?.arguments?.find((a) => a.name === "expected_untracked_inventory")?.value;
  if (typeof inventory !== "string") return undefined;
  return ["--untracked-scope=select", `--expected-untracked-inventory=${inventory}`, "--intended-untracked=notes.txt"];
}

/** With the selection declared: STATUS's START, its consent question, decline and grant, then the lineage's STATUS. */
async function startCalls(call: LegCall, repo: string, declared: readonly string[]): Promise<void> {
  await call([...STATUS.slice(0, 2), "--cwd", repo, "--contract", CONTRACT_V1, "--next-transition", ...declared]);
  const { json: fresh } = await call(
    [
      ...STATUS.slice(0, 2),
      "--cwd",
      repo,
      "--contract",
      CONTRACT_V2,
      "--agent",
      "pi",
      "--next-transition",
      ...declared,
    ],
    {
      handshake: true,
    },
  );
  const start = (
    fresh as
      { next_transition?: { kind?: unknown; execute?: { operation?: unknown; arguments?: unknown } } } | undefined
  )?.next_transition;
  if (start?.kind !== "execute" || start.execute?.operation !== "review.start") return;
  const startArgs = tokensOf(start.execute.arguments);
  await call(["review", "start", ...startArgs], { handshake: true });
  // A v1 client's question (consent/v1): the same START under the legacy contract, naming no runtime.
  const legacy = startArgs
    .filter((t) => !t.startsWith("--agent="))
    .map((t) => (t.startsWith("--contract=") ? `--contract=${CONTRACT_V1}` : t));
  await call(["review", "start", ...legacy]);
  const answer = (consent: string): string[] =>
    startArgs.map((t) => (t === "--consent=relay" ? `--consent=${consent}` : t));
  await call(["review", "start", ...answer("declined")], { handshake: true, kind: "review/start (declined)" });
  const { json: started } = await call(["review", "start", ...answer("granted")], { handshake: true });
  const lineage = (started as { lineage_id?: unknown } | undefined)?.lineage_id;
  if (typeof lineage !== "string") return;
  await call(
    [
      ...STATUS.slice(0, 2),
      "--cwd",
      repo,
      "--contract",
      CONTRACT_V2,
      "--agent",
      "pi",
      "--lineage",
      lineage,
      "--next-transition",
      "--action-eligibility",
    ],
    {
      handshake: true,
    },
  );
  await call([...STATUS.slice(0, 2), "--cwd", repo, "--contract", CONTRACT_V2, "--next-transition", ...declared]);
}

/** Every call of one lane, in a client's order. */
async function sweepLane(lane: Lane): Promise<void> {
  await lane.gentleAi(["review", "capabilities"]);
  await lane.gentleAi(["review", "capabilities", "--contract", CONTRACT_V1]);
  await lane.gentleAi(["review", "capabilities", "--contract", CONTRACT_V2]);
  await lane.gentleAi(["review", "capabilities", "--contract=gentle-ai.review-integration/v9"]);
  await lane.gentleAi([...STATUS]);
  await lane.gentleAi([...STATUS, "--contract", CONTRACT_V1, "--next-transition"]);
  const { json: plain } = await lane.gentleAi([...STATUS, "--contract", CONTRACT_V2, "--next-transition"]);
  await lane.gentleAi([...STATUS, "--contract", CONTRACT_V2, "--agent", "pi"]);
  await lane.gentleAi([...STATUS, "--contract=", "--next-transition"]);
  await lane.gentleAi([
    ...STATUS,
    "--contract",
    CONTRACT_V2,
    "--lineage",
    "review-0000000000000000",
    "--next-transition",
  ]);
  await lane.gentleAi([...STATUS, "--contract", CONTRACT_V2, "--projection", "bogus"]);
  const { json: relayed } = await lane.gentleAi(
    [...STATUS, "--contract", CONTRACT_V2, "--agent", "pi", "--next-transition"],
    { handshake: true },
  );
  const transition = (relayed as { next_transition?: { kind?: unknown; collect?: { inputs?: unknown } } } | undefined)
    ?.next_transition;
  const inputs = Array.isArray(transition?.collect?.inputs) ? (transition.collect.inputs as CollectInput[]) : [];
  // A pi lens slot (capture-result with --materialize=true) runs the lens leg; a provider role vector (capture-refuter,
  // capture-validation with --execute=true) is run as offered, the provider spawning pi itself.
  const materializes = (i: CollectInput): boolean => tokensOf(i.arguments).includes("--materialize=true");
  const lens = inputs.find((i) => i.capture_operation === "review.capture-result" && materializes(i));
  if (lens) await lensLeg(lane, lens);
  // The correction's repository verification: its submission form filled as a host fills it.
  const correctionInputs = (plain as { next_transition?: { collect?: { inputs?: unknown } } } | undefined)
    ?.next_transition?.collect?.inputs;
  for (const input of Array.isArray(correctionInputs) ? (correctionInputs as CollectInput[]) : []) {
    if (input.capture_operation === "review.capture-evidence") await submitForm(lane, input);
  }
  for (const role of inputs.filter((i) => tokensOf(i.arguments).includes("--execute=true"))) {
    const verb = typeof role.capture_operation === "string" ? role.capture_operation.replace(/^review\./, "") : "";
    if (verb !== "") await lane.gentleAi(["review", verb, ...tokensOf(role.arguments)], { handshake: true });
  }
  // An execute transition (finalize after the last lens, or a correction step) is run as negotiated.
  const next = (
    plain as
      { next_transition?: { kind?: unknown; execute?: { operation?: unknown; arguments?: unknown } } } | undefined
  )?.next_transition;
  if (next?.kind === "execute" && typeof next.execute?.operation === "string") {
    const argv = ["review", next.execute.operation.replace(/^review\./, ""), ...tokensOf(next.execute.arguments)];
    // Once under each contract, the v1 call on a copy of the state from before the v2 call mutated it.
    const before = lane.copyState();
    await lane.gentleAi([...argv, "--contract", CONTRACT_V2]);
    await lane.gentleAi([...argv, "--contract", CONTRACT_V1], { state: before });
  }
  // The repository world answers the same whatever the scenario's lineage: once per profile, on the builtin lane.
  if (lane.scenario.name === "builtin") await repositoryLeg(lane);
}

/** Sweeps every scenario × profile and returns the documents in a stable order. */
export async function sweepSimulator(options: SweepOptions = {}): Promise<SweptDocument[]> {
  const profiles = options.profiles ?? PROFILES;
  const scenarios = options.scenarios ?? shippedScenarios();
  const jobs = scenarios.flatMap((scenario) => profiles.map((profile) => ({ scenario, profile })));
  const results: SweptDocument[][] = new Array<SweptDocument[]>(jobs.length);
  let next = 0;
  let done = 0;
  const worker = async (): Promise<void> => {
    for (;;) {
      const index = next++;
      const job = jobs[index];
      if (job === undefined) return;
      const lane = new Lane(job.scenario, job.profile);
      const untrack = trackTempDir(lane.dir);
      try {
        await sweepLane(lane);
        results[index] = lane.documents;
      } finally {
        lane.dispose();
        untrack();
      }
      options.onLane?.(++done, jobs.length);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 2) }, worker));
  return results.flat();
}
