// One simulated world for the simulator tests: a temp folder (made on first use) holding a scenario, a state dir, a
// transcript, an optional HOME and real Git repositories; calls answered by the simulator's planner in-process or by
// the built bins spawned against it, or dispatch called directly.
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { harnessPaths } from "../../conformance/paths.ts";
import { dispatch } from "../../simulator/gentle-ai/dispatch.ts";
import { gentleAiInProcess } from "../../simulator/gentle-ai/in-process.ts";
import type { Invocation } from "../../simulator/gentle-ai/invocation.ts";
import { TranscriptEntrySchema, type TranscriptEntry } from "../../simulator/output/transcript-schema.ts";
import { DEFAULT_SCENARIO } from "../../simulator/scenario/default.ts";
import { ScenarioSchema, type ScenarioInput } from "../../simulator/scenario/schema.ts";
import { identitiesFor, SEED_WORLD, type Identities } from "../../simulator/state/identities.ts";
import { HANDSHAKE } from "./contract.ts";
import { git } from "./git.ts";
import { Run, spawnProcess, type SpawnOptions } from "./spawn-process.ts";
import { tracked } from "./tracked.ts";

const PATHS = harnessPaths();
/** The repository root. */
export const ROOT = PATHS.root;
/** The simulator launchers, by program. */
export const BIN = { "gentle-ai": PATHS.gentleAiSimulator, pi: PATHS.piSimulator } as const;
/** The built gentle-ai launcher. */
export const GENTLE_AI = BIN["gentle-ai"];
/** The folder of both launchers (prepend it to PATH so gentle-ai finds `pi`). */
export const BIN_DIR = dirname(GENTLE_AI);

/** argv prefix running a TypeScript fixture of test/simulator/runtime/fixtures through tsx (any cwd works). */
export function tsxFixture(name: string): string[] {
  return [process.execPath, "--import", PATHS.tsxLoader, join(ROOT, "test/simulator/runtime/fixtures", name)];
}

/** Runs a simulator launcher with exactly `options.env`. */
export function runSim(program: keyof typeof BIN, args: readonly string[], options: SpawnOptions): Promise<Run> {
  return spawnProcess(BIN[program], args, options);
}

export interface SimWorldOptions {
  /** The scenario file's content; omitted: no scenario file, the built-in scenario answers. */
  readonly scenario?: ScenarioInput;
  /**
   * A world as gentle-pi's client sees it: `run` gives gentle-ai HOME (`home`), TMPDIR (the world) and the Pi
   * handshake, and sets GENTLE_AI_SIM_STATE only when a run asks for `simState`, so lineages live where gentle-ai keeps
   * them.
   */
  readonly client?: boolean;
}

export interface SimRunOptions {
  /** Extra environment variables (they win over the world's). */
  readonly env?: Record<string, string>;
  readonly stdin?: Buffer | string;
  /** Working directory (default: the world's folder). */
  readonly cwd?: string;
  /** Client worlds only: set GENTLE_AI_SIM_STATE. */
  readonly simState?: boolean;
  /**
   * Spawn the built launcher even where the simulator's planner could answer in this process (tests of the process
   * itself).
   */
  readonly process?: boolean;
  /**
   * Client worlds only: no GENTLE_AI_SIM_SCENARIO either (with no `simState`: no GENTLE_AI_SIM_* variable at all, as
   * gentle-pi's devtests call gentle-ai).
   */
  readonly homeOnly?: boolean;
}

/** One isolated simulator world; `cleanup()` removes every file it made. */
export class SimWorld {
  /** The temp folder (created by the first method that needs it, so unrun suites leave nothing behind). */
  readonly dir = join(realpathSync(tmpdir()), `sim-world-${randomBytes(6).toString("hex")}`);
  readonly scenarioPath = join(this.dir, "scenario.json");
  readonly stateDir = join(this.dir, "state");
  readonly transcriptPath = join(this.dir, "transcript.jsonl");
  /** The scenario file's content (undefined: the built-in scenario). */
  readonly scenario: ScenarioInput | undefined;
  /** The identities the simulator derives from the scenario's lineage seed. */
  readonly ids: Identities;
  private readonly client: boolean;
  private readonly pending = new Map<string, Buffer | string>();
  private made = false;

  constructor(options: SimWorldOptions = {}) {
    this.scenario = options.scenario;
    this.client = options.client ?? false;
    const parsed = options.scenario === undefined ? DEFAULT_SCENARIO : ScenarioSchema.parse(options.scenario);
    this.ids = identitiesFor(parsed.lineage.seed, SEED_WORLD);
  }

  /** Creates the temp folder now and returns it (for tests that put their own files or folders in it). */
  ensure(): string {
    if (!this.made) {
      mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      if (this.scenario !== undefined) writeFileSync(this.scenarioPath, JSON.stringify(this.scenario));
      for (const [p, b] of this.pending) writeFileSync(p, b);
      this.pending.clear();
      this.made = true;
    }
    return this.dir;
  }

  /** A file in the temp folder (written when the folder is made) and its absolute path. */
  file(name: string, bytes: Buffer | string): string {
    const p = join(this.dir, name);
    if (this.made) writeFileSync(p, bytes);
    else this.pending.set(p, bytes);
    return p;
  }

  /** Writes a scenario file now, making the folder (JSON text as given, anything else stringified); its path. */
  writeScenario(json: unknown, name = "scenario.json"): string {
    this.ensure();
    return this.file(name, typeof json === "string" ? json : JSON.stringify(json));
  }

  /** The HOME of client runs, `<dir>/home` (created on first use). */
  get home(): string {
    const home = join(this.ensure(), "home");
    mkdirSync(home, { recursive: true });
    return home;
  }

  /** PATH, TMPDIR (the world), GENTLE_AI_SIM_STATE and GENTLE_AI_SIM_TRANSCRIPT, then `extra`: for `runSim`. */
  env(extra: Record<string, string> = {}): Record<string, string> {
    this.ensure();
    return {
      PATH: process.env["PATH"] ?? "",
      TMPDIR: this.dir,
      GENTLE_AI_SIM_STATE: this.stateDir,
      GENTLE_AI_SIM_TRANSCRIPT: this.transcriptPath,
      ...extra,
    };
  }

  /**
   * Runs gentle-ai in this world: PATH, the world's scenario (when it has one) and state, then `opts.env`; client
   * worlds as described on `SimWorldOptions.client`. The simulator's own planner answers in this process where it
   * gives the spawned launcher's bytes, exit code and state (simulator/runtime/call-in-process.ts; the equality is
   * test/conformance/runner/status-in-process.test.ts's); the built launcher is spawned (shell: false) where only a
   * process can answer (Git work trees, faults that act on the process) or when `opts.process` asks for it.
   */
  async run(argv: readonly string[], opts: SimRunOptions = {}): Promise<Run> {
    this.ensure();
    const sim: Record<string, string> = {};
    if (this.scenario !== undefined && !opts.homeOnly) sim["GENTLE_AI_SIM_SCENARIO"] = this.scenarioPath;
    if (!this.client || opts.simState) sim["GENTLE_AI_SIM_STATE"] = this.stateDir;
    const client = this.client ? { HOME: this.home, TMPDIR: this.dir, ...HANDSHAKE } : {};
    const env = { PATH: process.env["PATH"] ?? "", ...client, ...sim, ...opts.env };
    const cwd = opts.cwd ?? this.dir;
    const stdin = opts.stdin === undefined ? undefined : Buffer.from(opts.stdin);
    if (!opts.process) {
      const answered = await gentleAiInProcess({
        argv,
        env,
        cwd,
        executablePath: GENTLE_AI,
        ...(stdin === undefined ? {} : { stdin }),
      });
      if (answered !== null) return new Run(answered.stdout, answered.stderr, answered.exitCode);
    }
    return spawnProcess(GENTLE_AI, argv, { env, cwd, ...(stdin === undefined ? {} : { input: stdin }) });
  }

  /** Runs dispatch in this process with a hand-built Invocation (fast path for exhaustive refusal tables). */
  async invoke(argv: readonly string[], opts: SimRunOptions = {}): Promise<Run> {
    this.ensure();
    const stdin = Buffer.from(opts.stdin ?? "");
    const cwd = opts.cwd ?? this.dir;
    const invocation: Invocation = {
      argv,
      env: { ...opts.env },
      cwd,
      // Parsed afresh per call, as the spawned simulator would.
      scenario:
        this.scenario === undefined ? ScenarioSchema.parse(DEFAULT_SCENARIO) : ScenarioSchema.parse(this.scenario),
      scenarioDir: this.dir,
      stateDir: this.stateDir,
      executablePath: GENTLE_AI,
      readStdin: () => stdin,
      readFile: (p) => readFileSync(resolve(cwd, p)),
    };
    const o = await dispatch(invocation);
    return new Run(o.stdout, o.stderr, o.exitCode);
  }

  /** The lineage state file as JSON (undefined before the first write). */
  state(): Record<string, unknown> | undefined {
    try {
      return JSON.parse(readFileSync(join(this.stateDir, "lineage.json"), "utf8")) as Record<string, unknown>;
    } catch {
      return undefined;
    }
  }

  /** The transcript's entries, parsed (none before the first call). */
  entries(): TranscriptEntry[] {
    if (!existsSync(this.transcriptPath)) return [];
    return readFileSync(this.transcriptPath, "utf8")
      .split("\n")
      .filter((l) => l !== "")
      .map((l) => TranscriptEntrySchema.parse(JSON.parse(l)));
  }

  /** The seven binding tokens of a lens slot as STATUS renders them. */
  binding(lens: string, order: number, revisionIndex = 0): string[] {
    const ids = this.ids;
    return [
      `--lineage=${ids.lineageId}`,
      `--expected-revision=${ids.revision(revisionIndex)}`,
      `--target=${ids.targetIdentity}`,
      `--repository-context=${ids.repositoryContext}`,
      `--lens=${lens}`,
      `--order=${order}`,
      `--subject-hash=${ids.subjectHash(lens as never)}`,
    ];
  }

  /**
   * A reviewer/v1 result gentle-ai admits for a lens slot: the shape the fake pi produces (independently written here).
   */
  piResult(lens: string, evidence = "inspected every changed path of the frozen candidate"): string {
    return (
      JSON.stringify({
        subject_hash: this.ids.subjectHash(lens as never),
        inspection: { status: "completed", paths: this.ids.manifest.map((m) => m.path) },
        lens,
        findings: [],
        evidence: [evidence],
      }) + "\n"
    );
  }

  /** A fresh repository `name` on branch main with one commit of `files` (none: an empty commit). */
  repo(name: string, files: Record<string, string> = {}): string {
    const repo = join(this.ensure(), name);
    mkdirSync(repo);
    git(repo, "init", "-q", "-b", "main");
    git(repo, "config", "user.email", "sim@example.invalid");
    git(repo, "config", "user.name", "Sim World");
    for (const [path, text] of Object.entries(files)) this.write(repo, path, text);
    git(repo, "add", "-A");
    git(repo, "commit", "-q", "--allow-empty", "-m", "initial");
    return repo;
  }

  /** Writes a file under `root` (creating its folders). */
  write(root: string, path: string, text: string): void {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }

  /** Removes the temp folder (a no-op when it was never made). */
  cleanup(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/**
 * A SimWorld factory for one test file (call it at the top level): every world it makes is removed after the file's
 * tests. Its worlds have `defaults.scenario` (`{}` when not given: a scenario file with every default) unless a call
 * passes its own.
 */
export function simWorlds(defaults: SimWorldOptions = {}): (scenario?: ScenarioInput) => SimWorld {
  return tracked(
    (scenario?: ScenarioInput) => new SimWorld({ ...defaults, scenario: scenario ?? defaults.scenario ?? {} }),
  );
}
